/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reading a kernel .config: the running kernel's (/proc/config.gz, else
 * /boot/config-RELEASE) or a file, held in memory, and the value of one
 * symbol in it. Building a .config from fragments is kernel/kernel_config.h.
 *
 *	struct kconfig kc;
 *	char v[64];
 *
 *	if (!kconfig_load_file(&kc, "out/kernels/rt/.config")) {
 *		if (kconfig_value(&kc, "PREEMPT_RT", v, sizeof(v)) > 0) ...
 *		kconfig_free(&kc);
 *	}
 */
#ifndef RTGATE_KCONFIG_H
#define RTGATE_KCONFIG_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

struct kconfig {
	char source[PATH_MAX];	/* where the text came from */
	char *text;		/* NUL-terminated, malloc'ed */
	size_t len;
};

/* A .config file. Returns 0, or -errno (kc->text is then NULL). */
int kconfig_load_file(struct kconfig *kc, const char *path);
/*
 * The running kernel's config: /proc/config.gz, else /boot/config-@release.
 * Returns 0, or -ENOENT when neither is readable.
 */
int kconfig_load_running(struct kconfig *kc, const char *release);
void kconfig_free(struct kconfig *kc);

/*
 * CONFIG_@name's value as the file writes it ("y", "250", "\"-rt\""):
 * returns 1 with the value in @val (cut to @len); 0 with "n" for
 * "# CONFIG_@name is not set"; -ENOENT with "" when the file does not
 * name the symbol.
 */
int kconfig_value(const struct kconfig *kc, const char *name, char *val,
		  size_t len);
/* Whether CONFIG_@name=y. */
bool kconfig_is_y(const struct kconfig *kc, const char *name);
/* A string value without its quotes: "\"-rt\"" becomes "-rt" in place. */
void kconfig_unquote(char *val);

#endif
