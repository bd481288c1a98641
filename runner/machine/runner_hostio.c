// SPDX-License-Identifier: GPL-2.0-only
/*
 * What crossed from this machine to its host while a repetition measured
 * (machine.h, "hostio"): the serial ports' bytes, the interrupts of the
 * devices that talk to the host (virtio: the lab's 9p share; ttyS, hvc:
 * consoles) and the kernel messages loud enough for the console. In the
 * QEMU lab's virtual time each of them costs the guest milliseconds on
 * every vCPU (docs/kernels.md, "The silent lab"); a repetition with none is
 * silent.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fsio.h"
#include "runner/machine/machine.h"

/*
 * "0: uart:16550A port:000003F8 irq:4 tx:17 rx:0 ...": tx + rx, every
 * port, from /proc/tty/driver/serial (serial_8250 since Linux 7.x).
 */
static long long serial_bytes(const char *root)
{
	static const char *const names[] = { "serial", "serial_8250" };
	char path[PATH_MAX], line[512], *p;
	long long sum = 0;
	bool any = false;
	FILE *f = NULL;
	size_t i;

	for (i = 0; !f && i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/proc/tty/driver/%s", root,
			 names[i]);
		f = fopen(path, "re");
	}
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if ((p = strstr(line, " tx:"))) {
			sum += strtoll(p + 4, NULL, 10);
			any = true;
		}
		if ((p = strstr(line, " rx:")))
			sum += strtoll(p + 4, NULL, 10);
	}
	fclose(f);
	return any ? sum : 0;
}

static bool host_device(const char *desc)
{
	return strstr(desc, "virtio") || strstr(desc, "ttyS") ||
	       strstr(desc, "hvc");
}

/* The sum over CPUs of every /proc/interrupts row of a host device. */
static long long host_irqs(const char *root, int *nr_cpus)
{
	char path[PATH_MAX], *line = NULL, *p, *end;
	long long sum = 0, v;
	size_t cap = 0;
	int cpus = 0, i;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/interrupts", root);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (getline(&line, &cap, f) > 0)
		for (p = line; (p = strstr(p, "CPU")); p += 3)
			cpus++;
	while (getline(&line, &cap, f) > 0) {
		long long row = 0;

		p = strchr(line, ':');
		if (!p)
			continue;
		p++;
		for (i = 0; i < cpus; i++) {
			v = strtoll(p, &end, 10);
			if (end == p)
				break;
			row += v;
			p = end;
		}
		if (host_device(p))
			sum += row;
	}
	free(line);
	fclose(f);
	*nr_cpus = cpus;
	return sum;
}

/* The console's loglevel: messages below it reach the console. */
static int console_loglevel(const char *root)
{
	char path[PATH_MAX], buf[64];

	snprintf(path, sizeof(path), "%s/proc/sys/kernel/printk", root);
	if (fsio_read_str(path, buf, sizeof(buf)))
		return -1;
	return atoi(buf);
}

/* Records of /dev/kmsg from where @fd stands; how many the console took. */
static long long kmsg_loud(int fd, int level)
{
	char rec[8192];
	long long n = 0;
	ssize_t len;

	for (;;) {
		len = read(fd, rec, sizeof(rec) - 1);
		if (len < 0 && errno == EPIPE)
			continue;	/* overwritten records: go on */
		if (len <= 0)
			break;
		rec[len] = '\0';
		if (level < 0 || (atoi(rec) & 7) < level)
			n++;
	}
	return n;
}

void runner_hostio_begin(struct runner_hostio *h, const char *root)
{
	char path[PATH_MAX];
	int cpus = 0;

	memset(h, 0, sizeof(*h));
	h->kmsg_fd = -1;
	h->root = root ? root : "";
	h->serial_bytes = serial_bytes(h->root);
	h->irqs = host_irqs(h->root, &cpus);
	snprintf(path, sizeof(path), "%s/dev/kmsg", h->root);
	h->kmsg_fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (h->kmsg_fd >= 0 && lseek(h->kmsg_fd, 0, SEEK_END) < 0) {
		close(h->kmsg_fd);
		h->kmsg_fd = -1;
	}
	h->started = true;
}

void runner_hostio_end(struct runner_hostio *h, struct runner_hostio_delta *d)
{
	long long serial, irqs;
	int cpus = 0;

	memset(d, 0, sizeof(*d));
	d->console_bytes = d->irqs = d->console_messages = -1;
	if (!h->started)
		return;
	serial = serial_bytes(h->root);
	irqs = host_irqs(h->root, &cpus);
	if (serial >= 0 && h->serial_bytes >= 0)
		d->console_bytes = serial - h->serial_bytes;
	if (irqs >= 0 && h->irqs >= 0)
		d->irqs = irqs - h->irqs;
	if (h->kmsg_fd >= 0) {
		d->console_messages = kmsg_loud(h->kmsg_fd,
						console_loglevel(h->root));
		close(h->kmsg_fd);
		h->kmsg_fd = -1;
	}
	d->known = d->console_bytes >= 0 || d->irqs >= 0;
	d->silent = d->known && d->console_bytes <= 0 && d->irqs <= 0 &&
		    d->console_messages <= 0;
	h->started = false;
}

cJSON *runner_hostio_json(const struct runner_hostio_delta *d)
{
	cJSON *o;

	if (!d->known)
		return NULL;
	o = cJSON_CreateObject();
	if (d->console_bytes >= 0)
		cJSON_AddNumberToObject(o, "console_bytes", d->console_bytes);
	if (d->console_messages >= 0)
		cJSON_AddNumberToObject(o, "console_messages",
					d->console_messages);
	if (d->irqs >= 0)
		cJSON_AddNumberToObject(o, "host_interrupts", d->irqs);
	cJSON_AddBoolToObject(o, "silent", d->silent);
	return o;
}
