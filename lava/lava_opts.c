// SPDX-License-Identifier: GPL-2.0-only
/*
 * The options of a LAVA job definition, one table for `rtgate lava job`
 * (one job to a file) and `rtgate lava submit` (one job per board ×
 * kernel × suite to a server, which takes --kernel and --suite more than
 * once).
 */
#include <stdint.h>

#include "cli.h"
#include "lava.h"
#include "lava_priv.h"
#include "parse.h"

enum { OPT_DTB = 0x100, OPT_RAMDISK, OPT_MODULES, OPT_ROOTFS, OPT_SUITE,
       OPT_DEVICE_TYPE, OPT_JOB_NAME, OPT_RTGATE_ARGS, OPT_KERNEL_ARGS,
       OPT_PROMPT, OPT_ARCH, OPT_BOOT_METHOD, OPT_BOOT_COMMANDS,
       OPT_VISIBILITY, OPT_TIMEOUT, OPT_PRIORITY, OPT_KERNEL };

static const struct argp_option job_opts[] = {
	{ "kernel", OPT_KERNEL, "URL", 0, "the kernel image (required)", 0 },
	{ "dtb", OPT_DTB, "URL", 0, "the device tree (boards)", 0 },
	{ "ramdisk", OPT_RAMDISK, "URL", 0, "the initramfs carrying rtgate", 0 },
	{ "modules", OPT_MODULES, "URL", 0, "a modules tarball", 0 },
	{ "rootfs", OPT_ROOTFS, "URL", 0, "a root file system", 0 },
	{ "suite", OPT_SUITE, "S", 0, "the suite to run inside (required)", 0 },
	{ "device-type", OPT_DEVICE_TYPE, "T", 0, "qemu, or a board's LAVA "
	  "device type (required)", 0 },
	{ "job-name", OPT_JOB_NAME, "N", 0, "default: rtgate SUITE on TYPE", 0 },
	{ "rtgate-args", OPT_RTGATE_ARGS, "ARGS", 0, "extra `rtgate run` "
	  "arguments", 0 },
	{ "kernel-args", OPT_KERNEL_ARGS, "A", 0, "qemu: the kernel command "
	  "line; a board: added to it (context extra_kernel_args)", 0 },
	{ "prompt", OPT_PROMPT, "P", 0, "the image's shell prompt (default "
	  "\"/ #\")", 0 },
	{ "arch", OPT_ARCH, "A", 0, "qemu: amd64, arm64, ...", 0 },
	{ "boot-method", OPT_BOOT_METHOD, "M", 0, "qemu, u-boot, ... (default "
	  "by device type)", 0 },
	{ "boot-commands", OPT_BOOT_COMMANDS, "C", 0, "u-boot: ramdisk, nfs, "
	  "...", 0 },
	{ "visibility", OPT_VISIBILITY, "V", 0, "public (default) or "
	  "personal", 0 },
	{ "timeout", OPT_TIMEOUT, "MIN", 0, "the whole job, in minutes", 0 },
	{ "priority", OPT_PRIORITY, "N", 0, "0..100 (default 50)", 0 },
	{ 0 }
};

static error_t job_parse(int key, char *arg, struct argp_state *state)
{
	struct lava_job_params *p = state->input;
	uint64_t v;

	switch (key) {
	case OPT_KERNEL:
	case OPT_SUITE:
		/* `lava submit` takes several: one job per kernel × suite */
		if ((key == OPT_KERNEL ? p->nr_kernels : p->nr_suites) >=
		    LAVA_MAX_LIST)
			return cli_error(state, "at most %d --%s",
					 LAVA_MAX_LIST, key == OPT_KERNEL
					 ? "kernel" : "suite");
		if (key == OPT_KERNEL)
			p->kernel = p->kernels[p->nr_kernels++] = arg;
		else
			p->suite = p->suites[p->nr_suites++] = arg;
		break;
	case OPT_DTB: p->dtb = arg; break;
	case OPT_RAMDISK: p->ramdisk = arg; break;
	case OPT_MODULES: p->modules = arg; break;
	case OPT_ROOTFS: p->rootfs = arg; break;
	case OPT_DEVICE_TYPE: p->device_type = arg; break;
	case OPT_JOB_NAME: p->job_name = arg; break;
	case OPT_RTGATE_ARGS: p->rtgate_args = arg; break;
	case OPT_KERNEL_ARGS: p->kernel_args = arg; break;
	case OPT_PROMPT: p->prompt = arg; break;
	case OPT_ARCH: p->arch = arg; break;
	case OPT_BOOT_METHOD: p->boot_method = arg; break;
	case OPT_BOOT_COMMANDS: p->boot_commands = arg; break;
	case OPT_VISIBILITY: p->visibility = arg; break;
	case OPT_TIMEOUT:
	case OPT_PRIORITY:
		if (parse_u64_range(arg, key == OPT_TIMEOUT ? 1 : 0,
				    key == OPT_TIMEOUT ? 10080 : 100, &v))
			return cli_error(state, "--%s: '%s' is not a number in "
					 "range", key == OPT_TIMEOUT ?
					 "timeout" : "priority", arg);
		if (key == OPT_TIMEOUT)
			p->timeout_min = v;
		else
			p->priority = v;
		break;
	default:
		return cli_key_default(state, key, arg);
	}
	return 0;
}

const struct argp lava_job_argp = { job_opts, job_parse };
