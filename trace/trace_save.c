// SPDX-License-Identifier: GPL-2.0-only
/*
 * Saving a session as trace.dat. The raw per-CPU pages (trace_spool.c) are
 * turned into a file by trace-cmd itself: `trace-cmd restore -c` writes the
 * headers (event formats, kallsyms, printk formats, command lines) of the
 * running kernel, `trace-cmd restore -i` appends the pages, `trace-cmd
 * convert` compresses. trace-cmd report and KernelShark open the result.
 * (`trace-cmd record` cannot be used: it insists on function tracing.)
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "log.h"
#include "toolrun.h"
#include "trace.h"
#include "trace_priv.h"

#define MAX_ARGS	(8 + 1024)

/*
 * Runs argv with its output in log; 0, -ENOENT (no tool) or -EIO. The tool
 * dies with us and inherits none of our trace_pipe_raw descriptors, so a
 * killed rtgate leaves nothing that keeps the instance busy.
 */
static int run_tool(char *const argv[], const char *log)
{
	pid_t pid, parent = getpid();
	int status, fd;

	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		toolrun_child_bind(parent);
		fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		if (fd >= 0) {
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
		}
		fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (fd >= 0)
			dup2(fd, STDIN_FILENO);
		execvp(argv[0], argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return -ENOENT;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return -EIO;
	return 0;
}

static void show_log_tail(const char *log)
{
	char line[512];
	FILE *f = fopen(log, "re");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (*line)
			pr_err("  trace-cmd: %s", line);
	}
	fclose(f);
}

static int tool_failed(int ret, const char *what, const char *log)
{
	if (ret == -ENOENT)
		pr_err("trace-cmd not found: install it (Debian: trace-cmd) "
		       "to save traces");
	else
		pr_err("trace-cmd %s failed:", what);
	if (ret != -ENOENT)
		show_log_tail(log);
	return ret == -ENOENT ? -ENOENT : -EIO;
}

static int assemble(struct trace_session *s, const char *out,
		    const char *dir)
{
	char head[PATH_MAX], full[PATH_MAX], log[PATH_MAX], syms[PATH_MAX];
	char *argv[MAX_ARGS];
	const char **files;
	int i, n = 0, nr, ret, fd;

	snprintf(head, sizeof(head), "%s/head.dat", dir);
	snprintf(full, sizeof(full), "%s/full.dat", dir);
	snprintf(log, sizeof(log), "%s/trace-cmd.log", dir);
	ret = trace_spool_files(s, &files, &nr);
	if (ret)
		return ret;
	if (nr > MAX_ARGS - 8)
		return -E2BIG;

	if (s->params.no_kallsyms) {
		/* restore -k: symbols from a file, here an empty one. */
		snprintf(syms, sizeof(syms), "%s/empty.kallsyms", dir);
		fd = open(syms, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd >= 0)
			close(fd);
		ret = run_tool((char *[]){ "trace-cmd", "restore", "-c", "-k",
					   syms, "-o", head, NULL }, log);
	} else {
		ret = run_tool((char *[]){ "trace-cmd", "restore", "-c", "-o",
					   head, NULL }, log);
	}
	if (ret)
		goto fail_restore;
	argv[n++] = "trace-cmd";
	argv[n++] = "restore";
	argv[n++] = "-i";
	argv[n++] = head;
	argv[n++] = "-o";
	argv[n++] = full;
	for (i = 0; i < nr; i++)
		argv[n++] = (char *)files[i];
	argv[n] = NULL;
	ret = run_tool(argv, log);
	if (ret)
		goto fail_restore;
	/* Compression is a nicety: an uncompressed file is still a file. */
	ret = run_tool((char *[]){ "trace-cmd", "convert", "--compression",
				   "any", "-i", full, "-o", (char *)out, NULL },
		       log);
	if (ret && rename(full, out)) {
		ret = -errno;
		goto out;
	}
	ret = 0;
	goto out;
fail_restore:
	ret = tool_failed(ret, "restore", log);
out:
	unlink(head);
	unlink(full);
	unlink(log);
	if (s->params.no_kallsyms)
		unlink(syms);
	return ret;
}

static void fsync_parent(const char *path)
{
	char copy[PATH_MAX];
	int fd;

	snprintf(copy, sizeof(copy), "%s", path);
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

int trace_session_save(struct trace_session *s, const char *path)
{
	char tmp[PATH_MAX], dir[PATH_MAX];
	struct trace_file_info info;
	int ret;

	if (!s->inst)
		return -EINVAL;
	if (s->running)
		trace_session_stop(s);
	if (!s->spool) {
		/* Ring mode: the pages go next to the output, then away. */
		snprintf(dir, sizeof(dir), "%s.spool.%d", path, getpid());
		ret = trace_spool_open(s, dir);
		if (!ret)
			ret = trace_spool_drain(s);
		if (ret)
			goto out;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, getpid());
	ret = assemble(s, tmp, trace_spool_dir(s));
	if (ret)
		goto out;
	/* Never leave a file behind that trace-cmd itself cannot read. */
	ret = trace_file_check(tmp, &info);
	if (ret) {
		pr_err("%s: the saved trace does not read back", path);
		goto out;
	}
	if (rename(tmp, path)) {
		ret = -errno;
		pr_err("%s: %s", path, strerror(errno));
		goto out;
	}
	fsync_parent(path);
out:
	unlink(tmp);
	trace_spool_free(s);
	return ret;
}
