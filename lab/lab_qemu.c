// SPDX-License-Identifier: GPL-2.0-only
/*
 * One QEMU boot (lab_priv.h): the command line (emulator, accelerator,
 * clock, 9p share, console), the kernel's command line, and what the boot
 * did.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lab.h"
#include "lab_priv.h"
#include "log.h"
#include "rtpaths.h"
#include "toolrun.h"

void lab_qemu_kernel_cmdline(const struct lab_qemu_params *p, char *buf,
			     size_t len)
{
	/* panic=-1 and -no-reboot: a panicking guest ends QEMU at once. */
	rtpaths_fmt(buf, len, "console=ttyS0 panic=-1 rdinit=/init%s%s",
		    p->append && *p->append ? " " : "",
		    p->append ? p->append : "");
}

static void on_console(const char *line, void *arg)
{
	const struct lab_qemu_params *p = ((void **)arg)[0];
	struct lab_qemu_result *r = ((void **)arg)[1];
	const char *panic = strstr(line, "Kernel panic");

	if (panic && !r->panic) {
		r->panic = true;
		rtpaths_fmt(r->panic_line, sizeof(r->panic_line), "%s", panic);
	}
	if (p->quiet)
		return;
	if (p->verbose || panic || !strncmp(line, "rtgate", 6))
		fprintf(stderr, "  | %s\n", line);
}

int lab_qemu_boot(const struct lab_qemu_params *p, struct lab_qemu_result *r)
{
	char smp[16], mem[16], cmdline[2048], virtfs[4200], icount[64];
	char accel[64];
	const char *cpu = !strcmp(p->accel, "kvm") ? "host" : "max";
	char *argv[] = {
		(char *)p->program, "-accel", accel, "-cpu", (char *)cpu,
		"-smp", smp, "-m", mem, "-nodefaults", "-display", "none",
		"-no-reboot", "-serial", "stdio",
		"-kernel", (char *)p->image, "-initrd", (char *)p->initrd,
		"-append", cmdline, "-virtfs", virtfs, NULL, NULL, NULL, NULL,
		NULL,
	};
	int extra = sizeof(argv) / sizeof(argv[0]) - 5;
	void *arg[2] = { (void *)p, r };
	struct toolrun t = {
		.argv = argv, .out_path = p->console_log, .on_line = on_console,
		.arg = arg, .timeout_ms = p->timeout_s * 1000u,
	};
	struct timespec a, b;
	int ret;

	memset(r, 0, sizeof(*r));
	r->status = -1;
	if (!strcmp(p->accel, "kvm"))
		rtpaths_fmt(accel, sizeof(accel), "kvm");
	else if (p->quantum_ns)
		rtpaths_fmt(accel, sizeof(accel),
			    "tcg,thread=single,icount-quantum=%u",
			    p->quantum_ns);
	else
		rtpaths_fmt(accel, sizeof(accel), "tcg,thread=%s",
			    p->tcg_single || p->clock.icount ? "single" :
			    "multi");
	rtpaths_fmt(smp, sizeof(smp), "%d", p->cpus);
	rtpaths_fmt(mem, sizeof(mem), "%d", p->mem_mb);
	lab_qemu_kernel_cmdline(p, cmdline, sizeof(cmdline));
	rtpaths_fmt(virtfs, sizeof(virtfs), "local,path=%s,mount_tag=%s,"
		    "security_model=none,id=%s", p->share, LAB_SHARE_TAG,
		    LAB_SHARE_TAG);
	if (p->clock.icount) {
		lab_clock_qemu_arg(&p->clock, icount, sizeof(icount));
		argv[extra++] = "-icount";
		argv[extra++] = icount;
	}
	if (p->datadir && *p->datadir) {
		argv[extra++] = "-L";
		argv[extra++] = (char *)p->datadir;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	ret = toolrun(&t, &r->status);
	clock_gettime(CLOCK_MONOTONIC, &b);
	r->wall_s = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
	if (ret == -ENOENT) {
		pr_err("%s is not installed (apt-get install "
		       "qemu-system-x86)", p->program);
		return -ENOPKG;
	}
	if (ret == -ETIMEDOUT) {
		r->timed_out = true;
		return 0;
	}
	return ret;
}

bool lab_qemu_kvm_device(void)
{
	int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}
