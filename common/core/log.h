/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Diagnostics on stderr, prefixed with the program name.
 *
 * Library code reports with pr_err() and returns a negative errno; only
 * main() and command entry points decide the exit code.
 */
#ifndef RTGATE_LOG_H
#define RTGATE_LOG_H

/* LOG_LEVEL_*, not LOG_*: <syslog.h> defines LOG_ERR, LOG_INFO, LOG_DEBUG. */
enum log_level {
	LOG_LEVEL_ERR,
	LOG_LEVEL_WARN,
	LOG_LEVEL_INFO,
	LOG_LEVEL_DEBUG,
};

void log_init(const char *progname);
void log_set_level(enum log_level level);
void log_msg(enum log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#define pr_err(...)	log_msg(LOG_LEVEL_ERR, __VA_ARGS__)
#define pr_warn(...)	log_msg(LOG_LEVEL_WARN, __VA_ARGS__)
#define pr_info(...)	log_msg(LOG_LEVEL_INFO, __VA_ARGS__)
#define pr_debug(...)	log_msg(LOG_LEVEL_DEBUG, __VA_ARGS__)

#endif
