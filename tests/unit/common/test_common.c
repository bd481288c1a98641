// SPDX-License-Identifier: GPL-2.0-only
/* Unit tests for common/: strict parsers, atomic files, JSON errors. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "ctline.h"
#include "exitcode.h"
#include "fsio.h"
#include "jsonio.h"
#include "kconfig.h"
#include "parse.h"
#include "stopsig.h"
#include "textfmt.h"
#include "timefmt.h"

static void test_parse_u64(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal(parse_u64("42", &v), 0);
	assert_int_equal(v, 42);
	assert_int_equal(parse_u64("", &v), -EINVAL);
	assert_int_equal(parse_u64("-1", &v), -EINVAL);
	assert_int_equal(parse_u64(" 1", &v), -EINVAL);
	assert_int_equal(parse_u64("12x", &v), -EINVAL);
	assert_int_equal(parse_u64("99999999999999999999999", &v), -ERANGE);
	assert_int_equal(parse_u64_range("7", 1, 5, &v), -ERANGE);
}

static void test_parse_duration(void **state)
{
	uint64_t ns;

	(void)state;
	assert_int_equal(parse_duration_ns("10", &ns), 0);
	assert_true(ns == 10000000000ULL);
	assert_int_equal(parse_duration_ns("500ms", &ns), 0);
	assert_true(ns == 500000000ULL);
	assert_int_equal(parse_duration_ns("2m", &ns), 0);
	assert_true(ns == 120000000000ULL);
	assert_int_equal(parse_duration_ns("1.5s", &ns), 0);
	assert_true(ns == 1500000000ULL);
	assert_int_equal(parse_duration_ns("10 s", &ns), -EINVAL);
	assert_int_equal(parse_duration_ns("10d", &ns), -EINVAL);
	assert_int_equal(parse_duration_ns("-1", &ns), -EINVAL);
}

static void test_cpulist(void **state)
{
	char buf[64];
	cpu_set_t set;

	(void)state;
	assert_int_equal(parse_cpulist("0-3,5,7-8", &set), 0);
	assert_int_equal(CPU_COUNT(&set), 7);
	assert_true(CPU_ISSET(5, &set) && !CPU_ISSET(4, &set));
	assert_true(parse_cpulist_format(&set, buf, sizeof(buf)) > 0);
	assert_string_equal(buf, "0-3,5,7-8");
	assert_int_equal(parse_cpulist("3-1", &set), -EINVAL);
	assert_int_equal(parse_cpulist("1,", &set), -EINVAL);
	assert_int_equal(parse_cpulist("", &set), -EINVAL);
	assert_int_equal(parse_cpulist("a", &set), -EINVAL);
}

static void test_atomic_write_and_json(void **state)
{
	char dir[] = "/tmp/rtgate-unit.XXXXXX", path[256];
	struct json_error err;
	cJSON *json;
	char *buf;
	size_t len;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/a/b/c", dir);
	assert_int_equal(fsio_mkdir_p(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/a/x.json", dir);
	assert_int_equal(fsio_write_atomic(path, "{\"k\": 1}\n", 9), 0);
	assert_int_equal(fsio_read_all(path, &buf, &len), 0);
	assert_int_equal(len, 9);
	free(buf);
	assert_int_equal(json_read_file(path, &json, &err), 0);
	assert_int_equal(json_get_num(json, "k", -1), 1);
	cJSON_Delete(json);

	/* Truncated JSON names the file, line and byte offset. */
	assert_int_equal(fsio_write_atomic(path, "{\n\"k\": [1,", 10), 0);
	assert_int_equal(json_read_file(path, &json, &err), -EINVAL);
	assert_non_null(strstr(err.msg, path));
	assert_non_null(strstr(err.msg, ":2: byte 9: truncated"));
	/* Trailing garbage is an error, not a silently shorter document. */
	assert_int_equal(fsio_write_atomic(path, "{} x", 4), 0);
	assert_int_equal(json_read_file(path, &json, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "trailing data"));
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	assert_int_equal(system(path), 0);
}

/*
 * A planted link at any name the temporary file could take is never
 * written through: root writing results into a world-writable --out or
 * state directory must not overwrite someone else's file.
 */
static void test_atomic_write_no_follow(void **state)
{
	char dir[] = "/tmp/rtgate-unit.XXXXXX", path[256], victim[256];
	char link[300], cmd[300], *buf;
	struct stat st;
	size_t len;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	assert_int_equal(fsio_write_atomic(victim, "orig\n", 5), 0);
	snprintf(path, sizeof(path), "%s/state.json", dir);
	/* The name the old code used, and that name with a suffix. */
	snprintf(link, sizeof(link), "%s.tmp.%d", path, getpid());
	assert_int_equal(symlink(victim, link), 0);
	assert_int_equal(fsio_write_atomic(path, "{}\n", 3), 0);
	assert_int_equal(fsio_read_all(victim, &buf, &len), 0);
	assert_string_equal(buf, "orig\n");
	free(buf);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 0777, 0644);
	assert_int_equal(fsio_read_all(path, &buf, &len), 0);
	assert_string_equal(buf, "{}\n");
	free(buf);
	/* Nothing but the target, the victim and the planted link is left. */
	snprintf(cmd, sizeof(cmd), "test $(ls -A %s | wc -l) = 3", dir);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_ctline(void **state)
{
	struct ctline c;

	(void)state;
	assert_true(ctline_parse("T: 0 ( 4213) P:95 I:1000 C:   5163 Min:"
				 "      3 Act:    3 Avg:    3 Max:      12", &c));
	assert_int_equal(c.thread, 0);
	assert_int_equal(c.tid, 4213);
	assert_int_equal(c.interval_us, 1000);
	assert_int_equal(c.cycles, 5163);
	assert_int_equal(c.max_us, 12);
	/* Mail quoting and a six-digit tid, as in the V5 thread. */
	assert_true(ctline_parse("> T: 0 (104507) P:95 I:1000 C:  69385 Min:"
				 "      4 Act:   10 Avg:    8 Max:      34\n", &c));
	assert_int_equal(c.tid, 104507);
	assert_int_equal(c.max_us, 34);
	/* cyclictest's live output moves the cursor with escapes. */
	assert_true(ctline_parse("\033[2AT: 1 ( 99) P:95 I:1500 C: 10 Min: 1 "
				 "Act: 2 Avg: 3 Max: 40", &c));
	assert_int_equal(c.thread, 1);
	assert_false(ctline_parse("T: 0 ( 4213) P:95 I:1000 C: 5163 Min: 3", &c));
	assert_false(ctline_parse("policy: fifo: loadavg: 0.35", &c));
	assert_false(ctline_parse("T: 0 ( 1) P:95 I:1000 C: 5 Min: 9 Act: 3 "
				  "Avg: 3 Max: 2", &c));
	/* Too large to be counted: refused, not clamped to LONG_MAX. */
	assert_false(ctline_parse("T: 0 ( 1) P:95 I:1000 C: 5 Min: 1 Act: 3 "
				  "Avg: 3 Max: 99999999999999999999999", &c));
	assert_false(ctline_parse("T: 0 ( 1) P:95 I:1000 C: 9007199254740993 "
				  "Min: 1 Act: 3 Avg: 3 Max: 9", &c));
	assert_false(ctline_parse("T: 0 ( 99999999999) P:95 I:1000 C: 5 Min: "
				  "1 Act: 3 Avg: 3 Max: 9", &c));
	assert_true(ctline_parse("T: 0 ( 1) P:95 I:1000 C: 9007199254740992 "
				 "Min: 1 Act: 3 Avg: 3 Max: 9", &c));
}

/* What timefmt writes, parse_utc_time reads back. */
static void test_timefmt(void **state)
{
	char buf[TIMEFMT_ISO8601_LEN], stamp[32];
	time_t t;

	(void)state;
	timefmt_iso8601(1796068860, buf, sizeof(buf));
	assert_string_equal(buf, "2026-11-30T20:01:00Z");
	assert_int_equal(parse_utc_time(buf, &t), 0);
	assert_int_equal(t, 1796068860);
	timefmt_compact(1796068860, stamp, sizeof(stamp));
	assert_string_equal(stamp, "20261130-200100");
	timefmt_iso8601_now(buf, sizeof(buf));
	assert_int_equal(parse_utc_time(buf, &t), 0);
	assert_true(t > 1796068860 - 86400 * 365 * 10);
}

static void test_kconfig(void **state)
{
	struct kconfig kc = { .text = "CONFIG_FIRST=y\n# comment\n"
			      "CONFIG_HZ=250\n# CONFIG_PREEMPT_RT is not set\n"
			      "CONFIG_LOCALVERSION=\"-rt\"\nCONFIG_HZ_250=y\n" };
	char v[16];

	(void)state;
	assert_int_equal(kconfig_value(&kc, "FIRST", v, sizeof(v)), 1);
	assert_string_equal(v, "y");
	assert_int_equal(kconfig_value(&kc, "HZ", v, sizeof(v)), 1);
	assert_string_equal(v, "250");
	assert_int_equal(kconfig_value(&kc, "PREEMPT_RT", v, sizeof(v)), 0);
	assert_string_equal(v, "n");
	assert_false(kconfig_is_y(&kc, "PREEMPT_RT"));
	assert_int_equal(kconfig_value(&kc, "PREEMPT", v, sizeof(v)), -ENOENT);
	assert_string_equal(v, "");
	assert_true(kconfig_is_y(&kc, "HZ_250"));
	assert_int_equal(kconfig_value(&kc, "LOCALVERSION", v, sizeof(v)), 1);
	assert_string_equal(v, "\"-rt\"");
	kconfig_unquote(v);
	assert_string_equal(v, "-rt");
	/* "CONFIG_HZ" is not "CONFIG_HZ_250"'s prefix match. */
	assert_int_equal(kconfig_value(&kc, "HZ_2", v, sizeof(v)), -ENOENT);
	assert_int_equal(kconfig_load_file(&kc, "/nonexistent/.config"),
			 -ENOENT);
	assert_null(kc.text);
}

static void test_exitcode(void **state)
{
	(void)state;
	assert_int_equal(exitcode_of_errno(0), EXITCODE_PASS);
	assert_int_equal(exitcode_of_errno(-ENOENT), EXITCODE_BAD_INPUT);
	assert_int_equal(exitcode_of_errno(-EINTR), EXITCODE_INCOMPLETE);
	assert_int_equal(exitcode_of_errno(-EACCES), EXITCODE_ENVIRONMENT);
	/* 3, 4, 5, 1, 2, 0 */
	assert_int_equal(exitcode_worse(EXITCODE_REGRESSION,
					EXITCODE_BAD_INPUT),
			 EXITCODE_BAD_INPUT);
	assert_int_equal(exitcode_worse(EXITCODE_INCOMPLETE,
					EXITCODE_ENVIRONMENT),
			 EXITCODE_ENVIRONMENT);
	assert_int_equal(exitcode_worse(EXITCODE_REGRESSION,
					EXITCODE_INCOMPLETE),
			 EXITCODE_INCOMPLETE);
	assert_int_equal(exitcode_worse(EXITCODE_INCONCLUSIVE,
					EXITCODE_REGRESSION),
			 EXITCODE_REGRESSION);
	assert_int_equal(exitcode_worse(EXITCODE_PASS, EXITCODE_INCONCLUSIVE),
			 EXITCODE_INCONCLUSIVE);
	assert_int_equal(exitcode_worse(EXITCODE_PASS, 139),
			 EXITCODE_ENVIRONMENT);
}

/* The first stop signal is the one named; a wake signal stops nothing. */
static void test_stopsig(void **state)
{
	char c;

	(void)state;
	assert_false(stopsig_requested());
	assert_int_equal(stopsig_catch(SIGUSR1, STOPSIG_WAKE), 0);
	assert_int_equal(stopsig_catch(SIGUSR2, STOPSIG_STOP), 0);
	assert_int_equal(stopsig_catch(SIGHUP, STOPSIG_STOP), 0);
	raise(SIGUSR1);
	assert_false(stopsig_requested());
	assert_int_equal(read(stopsig_fd(), &c, 1), 1);
	raise(SIGUSR2);
	raise(SIGHUP);
	assert_true(stopsig_requested());
	assert_int_equal(stopsig_signal(), SIGUSR2);
	stopsig_drain();
	assert_int_equal(read(stopsig_fd(), &c, 1), -1);
}

/*
 * fsio_mkdir_p refuses a path someone else could change under a run: a
 * directory of another user, one anyone may write to (unless sticky, as
 * /tmp), a symlink another user made.
 */
static void test_dir_trusted(void **state)
{
	char dir[] = "/tmp/rtgate-unit.XXXXXX", path[512], why[600];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/ok/a", dir);
	assert_int_equal(fsio_mkdir_p(path, 0755), 0);
	assert_int_equal(fsio_dir_trusted(path, why, sizeof(why)), 0);
	/* No path at all is no directory (and nothing read past its end). */
	assert_int_equal(fsio_dir_trusted("", why, sizeof(why)), -ENOENT);
	/* Writable by all, not sticky: anyone could swap what is below. */
	snprintf(path, sizeof(path), "%s/ww", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(chmod(path, 0777), 0);
	snprintf(path, sizeof(path), "%s/ww/run", dir);
	assert_int_equal(fsio_mkdir_p(path, 0755), -EPERM);
	assert_int_equal(fsio_dir_trusted(path, why, sizeof(why)), -EPERM);
	assert_non_null(strstr(why, "/ww: owned by uid 0 with mode 0777"));
	/* Sticky, as /tmp: nobody renames what another created there. */
	snprintf(path, sizeof(path), "%s/ww", dir);
	assert_int_equal(chmod(path, 01777), 0);
	snprintf(path, sizeof(path), "%s/ww/run", dir);
	assert_int_equal(fsio_mkdir_p(path, 0755), 0);
	if (geteuid()) {
		skip();
		return;
	}
	/* Another user's directory, and another user's symlink. */
	snprintf(path, sizeof(path), "%s/theirs", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(chown(path, 65534, 65534), 0);
	snprintf(path, sizeof(path), "%s/theirs/run", dir);
	assert_int_equal(fsio_mkdir_p(path, 0755), -EPERM);
	snprintf(path, sizeof(path), "%s/ww/link", dir);
	assert_int_equal(symlink("../ok", path), 0);
	assert_int_equal(lchown(path, 65534, 65534), 0);
	assert_int_equal(fsio_dir_trusted(path, why, sizeof(why)), -EPERM);
	assert_non_null(strstr(why, "/ww/link: a symlink owned by uid 65534"));
	/* ... unless sudo ran rtgate for that user. */
	assert_int_equal(setenv("SUDO_UID", "65534", 1), 0);
	assert_int_equal(fsio_dir_trusted(path, why, sizeof(why)), 0);
	snprintf(path, sizeof(path), "%s/theirs/run", dir);
	assert_int_equal(fsio_mkdir_p(path, 0755), 0);
	assert_int_equal(unsetenv("SUDO_UID"), 0);
	/* A file where a directory should be. */
	snprintf(path, sizeof(path), "%s/ok/f", dir);
	assert_int_equal(fsio_write_atomic(path, "x", 1), 0);
	assert_int_equal(fsio_dir_trusted(path, why, sizeof(why)), -ENOTDIR);
}

/* What a filter writes into a memory stream, as a string (freed by caller). */
static char *filtered(void (*fn)(FILE *, const char *), const char *in)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(f, in);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* issue 35: names go into gnuplot scripts, XML and JSON as data. */
static void test_text_escapes(void **state)
{
	char *s;
	size_t n;

	(void)state;
	s = filtered(text_gnuplot_quote,
		     "x'; system \"touch F\"; print '\n\xff`id`");
	assert_string_equal(s, "'x''; system \"touch F\"; print '' ?`id`'");
	free(s);
	s = filtered(text_xml_escape, "<a href='x'>&\x01\xc3\x28\xef\xbf\xbe");
	assert_string_equal(s, "&lt;a href=&#39;x&#39;&gt;&amp; "
			    "\xef\xbf\xbd(\xef\xbf\xbd");
	free(s);
	assert_true(text_utf8_valid("caf\xc3\xa9 \xf0\x9f\x98\x80", 10));
	assert_false(text_utf8_valid("\xc0\xaf", 2));		/* overlong */
	assert_false(text_utf8_valid("\xed\xa0\x80", 3));	/* surrogate */
	assert_false(text_utf8_valid("\xf4\x90\x80\x80", 4));	/* > 10FFFF */
	assert_false(text_utf8_valid("\xe2\x82", 2));		/* cut short */
	s = text_utf8_repair("a\xff\"b", 4, &n);
	assert_string_equal(s, "a\xef\xbf\xbd\"b");
	assert_int_equal(n, 6);
	free(s);
	/* Markdown: one cell, one heading, whatever the name holds. */
	s = filtered(text_md_escape, "a|b\nc\\|d <i>[x](y) `z`\xff p<0.05 <");
	assert_string_equal(s, "a\\|b c\\\\\\|d \\<i>\\[x\\](y) "
			    "\\`z\\`\xef\xbf\xbd p<0.05 <");
	free(s);
	s = filtered(text_md_code, "a``b\n");
	assert_string_equal(s, "```a``b ```");
	free(s);
	s = filtered(text_md_code, "`x");
	assert_string_equal(s, "`` `x ``");
	free(s);
	assert_int_equal(text_md_fence_len("T: 0\n```\n"), 4);
	assert_int_equal(text_md_fence_len("plain"), 3);
}

static void test_parse_names(void **state)
{
	(void)state;
	assert_true(parse_name("hackbench_2-a"));
	assert_false(parse_name(""));
	assert_false(parse_name("a.b"));
	assert_false(parse_name("x'"));
	assert_false(parse_name("caf\xc3\xa9"));
	assert_true(parse_name("0123456789012345678901234567890123456789"
			       "012345678901234567890123"));	/* 64 */
	assert_false(parse_name("0123456789012345678901234567890123456789"
				"0123456789012345678901234"));	/* 65 */
	assert_true(parse_host_name("board-1.lab"));
	assert_true(parse_host_name("(none)"));
	assert_true(parse_host_name("20261127-020000-quick"));
	assert_false(parse_host_name(".hidden"));
	assert_false(parse_host_name("a b"));
	assert_false(parse_host_name("a/b"));
	assert_false(parse_host_name("<b>"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_u64),
		cmocka_unit_test(test_parse_duration),
		cmocka_unit_test(test_cpulist),
		cmocka_unit_test(test_atomic_write_and_json),
		cmocka_unit_test(test_atomic_write_no_follow),
		cmocka_unit_test(test_ctline),
		cmocka_unit_test(test_timefmt),
		cmocka_unit_test(test_kconfig),
		cmocka_unit_test(test_exitcode),
		cmocka_unit_test(test_stopsig),
		cmocka_unit_test(test_dir_trusted),
		cmocka_unit_test(test_text_escapes),
		cmocka_unit_test(test_parse_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
