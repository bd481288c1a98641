// SPDX-License-Identifier: GPL-2.0-only
/*
 * `rtgate run --silent`: while a repetition runs, nothing of the run
 * leaves the machine's memory (docs/runner.md, "A silent run").
 *
 * - The run's directory lives in a stage in memory (a tmpfs: /dev/shm, or
 *   $RTGATE_STAGE_DIR) and is copied to its results directory between
 *   repetitions and at the end; the results directory holds the copy.
 * - What the run prints during a repetition is held in memory and printed
 *   after it, once the measurement is over; the consoles are drained
 *   before a repetition starts.
 * - The kernel's console loglevel is 1 for the run (a tunable like any
 *   other: restored on every exit path).
 *
 * In the QEMU lab's virtual time, a console line or a write to the 9p
 * share during a measurement costs the guest milliseconds on every vCPU;
 * on a board with a serial console, printk's console writes run with
 * interrupts off. Each repetition records what crossed anyway
 * (runner_hostio.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <termios.h>
#include <unistd.h>

#include "fsio.h"
#include "jsonout.h"
#include "log.h"
#include "rtpaths.h"
#include "runner/runner_priv.h"

#define TMPFS_MAGIC_NR		0x01021994
#define STAGE_DEFAULT		"/dev/shm"

/* ---- the stage ----------------------------------------------------------- */

int runner_silence_stage(struct runner *r)
{
	struct runner_silence *s = &r->silence;
	const char *root = getenv("RTGATE_STAGE_DIR");
	struct statfs fs;
	char why[256];
	int ret;

	if (!root || !*root)
		root = STAGE_DEFAULT;
	ret = fsio_dir_trusted(root, why, sizeof(why));
	if (ret) {
		pr_err("--silent: the stage %s: %s", root, ret == -EPERM ? why :
		       strerror(-ret));
		return ret;
	}
	if (!statfs(root, &fs) && fs.f_type != TMPFS_MAGIC_NR)
		pr_warn("--silent: the stage %s is not a tmpfs: its writes may "
			"reach a disk during a repetition ($RTGATE_STAGE_DIR)",
			root);
	if (rtpaths_fmt(s->stage, sizeof(s->stage), "%s/rtgate-stage-XXXXXX",
			root))
		return -ENAMETOOLONG;
	if (!mkdtemp(s->stage)) {
		ret = -errno;
		pr_err("--silent: cannot make a stage in %s: %s", root,
		       strerror(errno));
		s->stage[0] = '\0';
		return ret;
	}
	return 0;
}

/* The run's directory moves to the stage; where it goes is remembered. */
int runner_silence_move_run(struct runner *r)
{
	struct runner_silence *s = &r->silence;
	char staged[PATH_MAX];

	if (rtpaths_fmt(staged, sizeof(staged), "%s/%s", s->stage, r->run.id))
		return -ENAMETOOLONG;
	if (mkdir(staged, 0755))
		return -errno;
	rtpaths_fmt(s->dest, sizeof(s->dest), "%s", r->run.dir);
	rtpaths_fmt(r->run.dir, sizeof(r->run.dir), "%s", staged);
	return 0;
}

const char *runner_silence_results_dir(const struct runner *r)
{
	return r->silence.on && r->silence.dest[0] ? r->silence.dest :
	       r->run.dir;
}

/* ---- copying the stage --------------------------------------------------- */

static struct {
	const char *from, *to;
	size_t from_len;
	int copied, failed;
} mirror;

static bool same_file(const struct stat *a, const char *path)
{
	struct stat b;

	return !lstat(path, &b) && S_ISREG(b.st_mode) &&
	       a->st_size == b.st_size &&
	       a->st_mtim.tv_sec == b.st_mtim.tv_sec &&
	       a->st_mtim.tv_nsec == b.st_mtim.tv_nsec;
}

static int mirror_one(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	char to[PATH_MAX];
	struct timespec times[2];
	int ret;

	(void)ftw;
	if (strncmp(path, mirror.from, mirror.from_len))
		return 0;
	if (rtpaths_fmt(to, sizeof(to), "%s%s", mirror.to,
			path + mirror.from_len)) {
		mirror.failed++;
		return 0;
	}
	if (flag == FTW_D) {
		if (mkdir(to, 0755) && errno != EEXIST)
			mirror.failed++;
		return 0;
	}
	/* Temporaries of a write in progress and links stay behind. */
	if (flag != FTW_F || !S_ISREG(st->st_mode) ||
	    strstr(path, FSIO_TMP_INFIX) || same_file(st, to))
		return 0;
	ret = fsio_copy(path, to);
	if (ret) {
		pr_warn("--silent: cannot copy %s to %s: %s", path, to,
			strerror(-ret));
		mirror.failed++;
		return 0;
	}
	times[0] = st->st_atim;
	times[1] = st->st_mtim;
	utimensat(AT_FDCWD, to, times, 0);
	mirror.copied++;
	return 0;
}

int runner_silence_sync(struct runner *r)
{
	struct runner_silence *s = &r->silence;

	if (!s->on || !s->dest[0])
		return 0;
	mirror.from = r->run.dir;
	mirror.from_len = strlen(r->run.dir);
	mirror.to = s->dest;
	mirror.copied = mirror.failed = 0;
	if (nftw(r->run.dir, mirror_one, 32, FTW_PHYS))
		return -errno;
	return mirror.failed ? -EIO : 0;
}

/*
 * The last copy; the stage goes when everything reached the results
 * directory, and stays (said) when something did not.
 */
int runner_silence_finish(struct runner *r)
{
	struct runner_silence *s = &r->silence;
	int ret;

	if (!s->on || !s->stage[0])
		return 0;
	ret = s->dest[0] ? runner_silence_sync(r) : 0;
	if (ret) {
		pr_err("--silent: the run did not reach %s in full; the stage "
		       "%s keeps it", s->dest, s->stage);
		return ret;
	}
	jsonout_tmpdir_remove(s->stage);
	if (s->dest[0])
		rtpaths_fmt(r->run.dir, sizeof(r->run.dir), "%s", s->dest);
	s->stage[0] = '\0';
	return 0;
}

/* ---- holding the output -------------------------------------------------- */

/* What was written to a console has left it before the measurement. */
static void drain(int fd)
{
	if (isatty(fd))
		tcdrain(fd);
}

void runner_silence_hold(struct runner *r)
{
	struct runner_silence *s = &r->silence;
	int i;

	if (!s->on || s->holding)
		return;
	fflush(stdout);
	fflush(stderr);
	for (i = 0; i < 2; i++) {
		drain(i + 1);
		s->held[i] = memfd_create(i ? "rtgate-held-err" :
					  "rtgate-held-out", MFD_CLOEXEC);
		s->saved[i] = s->held[i] >= 0 ?
			      fcntl(i + 1, F_DUPFD_CLOEXEC, 3) : -1;
		if (s->saved[i] < 0 || dup2(s->held[i], i + 1) < 0) {
			if (s->held[i] >= 0)
				close(s->held[i]);
			if (s->saved[i] >= 0)
				close(s->saved[i]);
			s->held[i] = s->saved[i] = -1;
		}
	}
	s->holding = true;
	r->progress.held = true;
}

void runner_silence_release(struct runner *r)
{
	struct runner_silence *s = &r->silence;
	char *buf;
	size_t len;
	int i;

	if (!s->holding)
		return;
	fflush(stdout);
	fflush(stderr);
	for (i = 0; i < 2; i++) {
		if (s->held[i] < 0)
			continue;
		dup2(s->saved[i], i + 1);
		close(s->saved[i]);
		if (lseek(s->held[i], 0, SEEK_SET) == 0 &&
		    !fsio_read_fd(s->held[i], &buf, &len)) {
			fsio_write_full(i + 1, buf, len);
			free(buf);
		}
		close(s->held[i]);
		s->held[i] = s->saved[i] = -1;
	}
	s->holding = false;
	r->progress.held = false;
}
