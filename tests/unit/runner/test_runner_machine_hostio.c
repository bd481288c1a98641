// SPDX-License-Identifier: GPL-2.0-only
/*
 * What crossed to the host during a repetition (runner_hostio.c), read
 * from a planted root: a repetition in which nothing moved is silent; one
 * with serial bytes, a virtio or ttyS interrupt, or a console-level
 * kernel message is not, and says how much; a machine without any of the
 * interfaces is "not known", never silent.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "jsonio.h"
#include "runner/machine/machine.h"

static char root[] = "/tmp/rtgate-unit-hostio.XXXXXX";

static void plant(const char *rel, const char *text, const char *mode)
{
	char path[512], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, mode);
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void plant_machine(int tx, int virtio0, int virtio1, int ttys)
{
	char buf[1024];

	snprintf(buf, sizeof(buf),
		 "serinfo:1.0 driver revision:\n"
		 "0: uart:16550A port:000003F8 irq:4 tx:%d rx:12 RTS|DTR\n"
		 "1: uart:unknown port:000002F8 irq:3\n", tx);
	plant("proc/tty/driver/serial", buf, "w");
	snprintf(buf, sizeof(buf),
		 "           CPU0       CPU1\n"
		 "  0:         40          0   IO-APIC   2-edge      timer\n"
		 "  4:   %8d          0   IO-APIC   4-edge      ttyS0\n"
		 " 24:   %8d   %8d   PCI-MSIX-0000:00:02.0  0-edge  virtio0-config\n"
		 "LOC:     100000     100000   Local timer interrupts\n",
		 ttys, virtio0, virtio1);
	plant("proc/interrupts", buf, "w");
	plant("proc/sys/kernel/printk", "1\t4\t1\t7\n", "w");
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(root))
		return -1;
	plant_machine(100, 5, 7, 2);
	plant("dev/kmsg", "6,1,100,-;boot\n", "w");
	return 0;
}

static int teardown(void **state)
{
	char cmd[600];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd);
}

static void test_nothing_moved_is_silent(void **state)
{
	struct runner_hostio h;
	struct runner_hostio_delta d;
	cJSON *j;

	(void)state;
	runner_hostio_begin(&h, root);
	runner_hostio_end(&h, &d);
	assert_true(d.known);
	assert_true(d.silent);
	assert_int_equal(d.console_bytes, 0);
	assert_int_equal(d.irqs, 0);
	assert_int_equal(d.console_messages, 0);
	j = runner_hostio_json(&d);
	assert_non_null(j);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(j, "silent")));
	assert_int_equal(json_get_num(j, "host_interrupts", -1), 0);
	cJSON_Delete(j);
}

static void test_bytes_and_interrupts_are_counted(void **state)
{
	struct runner_hostio h;
	struct runner_hostio_delta d;

	(void)state;
	plant_machine(100, 5, 7, 2);
	runner_hostio_begin(&h, root);
	/* 40 bytes out, 3 virtio interrupts on two CPUs, 1 on the uart */
	plant_machine(140, 6, 9, 3);
	runner_hostio_end(&h, &d);
	assert_true(d.known);
	assert_false(d.silent);
	assert_int_equal(d.console_bytes, 40);
	assert_int_equal(d.irqs, 4);
	plant_machine(100, 5, 7, 2);
}

static void test_loud_message_counts_quiet_one_not(void **state)
{
	struct runner_hostio h;
	struct runner_hostio_delta d;

	(void)state;
	plant_machine(100, 5, 7, 2);
	runner_hostio_begin(&h, root);
	/* loglevel 6 (info) stays below a console loglevel of 1 */
	plant("dev/kmsg", "6,2,200,-;quiet\n", "a");
	runner_hostio_end(&h, &d);
	assert_int_equal(d.console_messages, 0);
	assert_true(d.silent);

	runner_hostio_begin(&h, root);
	/* loglevel 0 (emerg) reaches even a console loglevel of 1 */
	plant("dev/kmsg", "0,3,300,-;loud\n", "a");
	runner_hostio_end(&h, &d);
	assert_int_equal(d.console_messages, 1);
	assert_false(d.silent);
}

/* Linux 7.x names the 8250 driver's file serial_8250. */
static void test_serial_8250_is_read(void **state)
{
	char cmd[1200];
	struct runner_hostio h;
	struct runner_hostio_delta d;

	(void)state;
	plant_machine(100, 5, 7, 2);
	snprintf(cmd, sizeof(cmd), "mv '%s/proc/tty/driver/serial' "
		 "'%s/proc/tty/driver/serial_8250'", root, root);
	assert_int_equal(system(cmd), 0);
	runner_hostio_begin(&h, root);
	plant("proc/tty/driver/serial_8250",
	      "0: uart:16550A port:000003F8 irq:4 tx:182 rx:12 RTS\n", "w");
	runner_hostio_end(&h, &d);
	assert_int_equal(d.console_bytes, 82);
	snprintf(cmd, sizeof(cmd), "rm -f '%s/proc/tty/driver/serial_8250'",
		 root);
	assert_int_equal(system(cmd), 0);
	plant_machine(100, 5, 7, 2);
}

static void test_no_interface_is_not_silent(void **state)
{
	char empty[] = "/tmp/rtgate-unit-hostio-empty.XXXXXX";
	struct runner_hostio h;
	struct runner_hostio_delta d;

	(void)state;
	assert_non_null(mkdtemp(empty));
	runner_hostio_begin(&h, empty);
	runner_hostio_end(&h, &d);
	assert_false(d.known);
	assert_false(d.silent);
	assert_null(runner_hostio_json(&d));
	rmdir(empty);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nothing_moved_is_silent),
		cmocka_unit_test(test_bytes_and_interrupts_are_counted),
		cmocka_unit_test(test_loud_message_counts_quiet_one_not),
		cmocka_unit_test(test_serial_8250_is_read),
		cmocka_unit_test(test_no_interface_is_not_silent),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
