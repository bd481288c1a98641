#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The output examples of README.md and docs/, made from recorded runs.

    tests/docs/examples.py write [NAME...]  make the examples and write them
                                            into the documents
    tests/docs/examples.py check [NAME...]  exit 1 when a document's example
                                            differs from what is made now
    tests/docs/examples.py list             NAME DOCUMENT, one a line
    tests/docs/examples.py show NAME        one example as made now

    --docs DIR   read (and write) the documents under DIR instead of the
                 checkout; the fixtures and bin/rtgate stay the checkout's

An example sits in its document between two markers, around a fenced
block that this script writes whole:

    <!-- example: NAME (tests/docs/examples.py) -->
    ```
    ...
    ```
    <!-- end example: NAME -->

Each example is made as the golden reports are (tests/integration/
golden_replay.sh): today's bin/rtgate on a recording kept in tests/
fixtures, so a change of rtgate's output shows here until the examples
are written again and the diff is reviewed. What only a live run prints
(the runner's progress and table, a calibration) is quoted from the
recording of that run (tests/fixtures/runsh/run.log, recorded again by
its record.sh); the verdicts in it are made anew. Paths are the
checkout's own, relative; a clock time of the machine that makes an
example is replaced by the recording's, as each maker says.

Not made here, for no recording in tests/fixtures holds them: what only
a terminal, a lab boot or a kernel tree shows (the live progress line,
the lab's crash report and bisect table, kconfig and patch errors), the
slice-ext and rt-sysctl tables of docs/reproducing.md, the root causes
of a traced run (docs/tracing.md); the JSON excerpts of docs/results.md
and docs/report-schema.md are annotated schemas, not outputs.

Exit status: 0; 1 when an example differs, or a marker is missing,
unpaired or names no example; 2 on bad use, or when rtgate fails to make
an example.
"""
import difflib
import functools
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

TOP = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                    "..", ".."))
RTGATE = os.environ.get("RTGATE") or os.path.join(TOP, "bin", "rtgate")
RUNSH = "tests/fixtures/runsh"
TRACE = "tests/fixtures/trace/inject-cpu1.dat"

BEGIN = re.compile(r"^<!-- example: (\S+) \(tests/docs/examples\.py\) -->$")
END = re.compile(r"^<!-- end example: (\S+) -->$")

EXAMPLES = {}		# name -> (document, maker)


class Failed(Exception):
    pass


def example(name, doc):
    def register(fn):
        EXAMPLES[name] = (doc, fn)
        return fn
    return register


def rtgate(args, codes=(0,), cwd=TOP):
    """bin/rtgate's stdout (not a terminal: 100 columns), from the top."""
    env = dict(os.environ, TZ="UTC")
    for var in ("RTGATE_DB", "RTGATE_RESULTS_DIR", "COLUMNS"):
        env.pop(var, None)
    p = subprocess.run([RTGATE] + args, cwd=cwd, env=env, text=True,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode not in codes:
        raise Failed("rtgate %s: exit %d: %s" % (" ".join(args), p.returncode,
                                                 p.stderr.strip()[-400:]))
    return p.stdout


# ---- the recorded ./run.sh (tests/fixtures/runsh) ----

PROGRESS = re.compile(r"^\d\d:\d\d:\d\d \[(\d+)/(\d+)\] (\S+) rep \d+/\d+: ")


def runsh():
    """run.log's lines, its verdicts made anew by today's analyzer, and
    where the quick suite's run starts in them."""
    lines, quick = runsh_made()
    return list(lines), quick


def runsh_run():
    """The name of the recorded quick run's directory."""
    runs = sorted(glob.glob(os.path.join(TOP, RUNSH, "*-quick")))
    if len(runs) != 1:
        raise Failed("%s: one quick run directory, please" % RUNSH)
    return os.path.basename(runs[0])


@functools.lru_cache(maxsize=None)
def runsh_made():
    with open(os.path.join(TOP, RUNSH, "run.log"), encoding="utf-8") as f:
        lines = f.read().splitlines()
    run = runsh_run()
    try:
        cut = lines.index("results: results/" + run)
        quick = next(i for i, l in enumerate(lines)
                     if l.startswith("rtgate ") and " suite quick " in l)
    except (ValueError, StopIteration):
        raise Failed("%s/run.log: no quick run of %s in it" % (RUNSH, run))
    with tempfile.TemporaryDirectory() as out:
        table = rtgate(["report", "%s/%s" % (RUNSH, run), "--out", out],
                       codes=(0, 1, 2))
    return tuple(lines[:cut + 1] + table.splitlines()), quick


def progress_cut(lines, first, ok_only):
    """@lines with their progress lines cut to the first @first
    repetitions' and the last one's, "..." between."""
    prog = [i for i, l in enumerate(lines) if PROGRESS.match(l)]
    if not prog:
        return lines
    steps = []
    for i in prog:
        if ok_only and ": ok, " not in lines[i]:
            continue
        step = PROGRESS.match(lines[i]).group(1)
        if not steps or steps[-1][0] != step:
            steps.append((step, []))
        steps[-1][1].append(lines[i])
    kept = [l for _, ls in steps[:first] for l in ls] + ["..."] + steps[-1][1]
    return lines[:prog[0]] + kept + lines[prog[-1] + 1:]


@example("runsh", "README.md")
def make_runsh():
    lines, quick = runsh()
    cal, run = lines[:quick], lines[quick:]
    try:
        stored = next(i for i, l in enumerate(cal)
                      if l.startswith("noise profile stored"))
    except StopIteration:
        raise Failed("%s/run.log: no calibration in it" % RUNSH)
    # The calibration's own table and end lines are cut: "...".
    last = max(i for i, l in enumerate(cal[:stored]) if PROGRESS.match(l))
    cal = progress_cut(cal[:last + 1], 1, True) + ["..."] + cal[stored:]
    return cal + progress_cut(run, 3, True)


@example("runner-sample", "docs/runner.md")
def make_runner_sample():
    lines, quick = runsh()
    return ["$ ./run.sh", "..."] + progress_cut(lines[quick:], 1, False)


@example("runner-plain-lines", "docs/runner.md")
def make_runner_plain_lines():
    lines, quick = runsh()
    rep = [l for l in lines[quick:] if PROGRESS.match(l) and
           PROGRESS.match(l).group(3) == "hackbench"]
    step = PROGRESS.match(rep[0]).group(1)
    return [l for l in rep if PROGRESS.match(l).group(1) == step]


@example("noise-profile", "docs/statistics.md")
def make_noise_profile():
    lines, quick = runsh()
    start = next(i for i, l in enumerate(lines)
                 if l.startswith("noise profile: "))
    return lines[start:quick]


@example("like-invalid", "docs/nightly.md")
def make_like_invalid():
    # The recorded quick run twice, the second as if the machine's cpuidle
    # governor had been another (the one edit, as tests/integration/
    # analyze_like.sh makes its differences).
    run = os.path.join(TOP, RUNSH, runsh_run())
    with tempfile.TemporaryDirectory() as tmp:
        for night in ("night-a", "night-b"):
            shutil.copytree(run, os.path.join(tmp, "results", night))
        path = os.path.join(tmp, "results", "night-b", "manifest.json")
        with open(path) as f:
            m = json.load(f)
        m["system"]["cpuidle"]["governor"] = "menu"
        with open(path, "w") as f:
            json.dump(m, f, indent=1)
        out = rtgate(["compare", "results/night-a", "results/night-b",
                      "--out", "out"], codes=(2,), cwd=tmp)
    return ["$ rtgate compare results/night-a results/night-b"] + \
        out.splitlines()


# ---- saved traces (tests/fixtures/trace) ----

@example("trace-explain", "docs/tracing.md")
def make_trace_explain():
    return rtgate(["trace", "explain", "--top", "2", "--tids", "17534",
                   TRACE]).splitlines()


@example("trace-compare", "docs/tracing.md")
def make_trace_compare():
    # The baseline as tests/integration/trace_files.sh builds it: the
    # fixture's windows without the spinner's parts.
    attr = json.loads(rtgate(["trace", "explain", "--json", "--tids",
                              "17534", TRACE]))
    for w in attr["windows"]:
        w["parts"] = [p for p in w["parts"] if p.get("name") != "inject"]
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "base.json"), "w") as f:
            json.dump(attr, f)
        out = rtgate(["trace", "compare", "--tids", "17534", "base.json",
                      os.path.join(TOP, TRACE)], cwd=tmp)
    return ["$ rtgate trace compare --tids 17534 base.json " + TRACE] + \
        out.splitlines()


# ---- the lab's recorded timerlat run (tests/fixtures/lab) ----

@example("rtla-aa", "docs/tracing.md")
def make_rtla_aa():
    with tempfile.TemporaryDirectory() as out:
        rtgate(["report", "tests/fixtures/lab/timerlat-7.2-rt", "--out", out,
                "--report", "txt"], codes=(0, 1, 2))
        with open(os.path.join(out, "report.txt"), encoding="utf-8") as f:
            text = f.read().splitlines()
    start = text.index(next(l for l in text if
                            l.startswith("== rtla auto-analysis: inject")))
    end = text.index("", start)
    return text[start:end]


# ---- a week of nights (tests/fixtures/nightly) ----

def week(tmp):
    """The week fixture as tests/integration/nightly_run.sh makes it."""
    subprocess.run([os.path.join(TOP, "tests/fixtures/nightly/make-week.py"),
                    os.path.join(TOP, "tests/fixtures/nightly/recorded"),
                    os.path.join(tmp, "week")], check=True,
                   stdout=subprocess.DEVNULL)
    return sorted(os.listdir(os.path.join(tmp, "week")))


@example("nightly-summary", "docs/nightly.md")
def make_nightly_summary():
    with tempfile.TemporaryDirectory() as tmp:
        nights = week(tmp)
        os.mkdir(os.path.join(tmp, "incoming"))
        with open(os.path.join(tmp, "nightly.conf"), "w") as f:
            f.write("[nightly]\nresults = results\nsummary = summary\n"
                    "lock = nightly.lock\nhistory = 7\n"
                    "[suite quick]\nimport = incoming\n")
        # Nights 1-6 arrive one by one; night 6 keeps night 5's step.
        for night in nights[:6]:
            shutil.copytree(os.path.join(tmp, "week", night),
                            os.path.join(tmp, "incoming", night))
            out = rtgate(["nightly", "--config", "nightly.conf"],
                         codes=(0, 1, 2), cwd=tmp)
        with open(os.path.join(tmp, "week", nights[5], "manifest.json")) as f:
            start = json.load(f)["start_time"]
    lines = out.splitlines()
    # The nightly's own start is this machine's clock: the night's run's.
    lines[0] = re.sub(r"^(rtgate nightly )\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ",
                      r"\g<1>" + start, lines[0])
    return lines


# ---- the documents ----

def blocks(path):
    """{name: (first line, last line)} of the fenced blocks between
    markers (0-based, the markers' own lines), or a str error."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    found, open_name = {}, None
    for i, l in enumerate(lines):
        m = BEGIN.match(l)
        if m:
            if open_name:
                return "%s:%d: example %s opens inside %s" % (
                    path, i + 1, m.group(1), open_name)
            open_name, start = m.group(1), i
            continue
        m = END.match(l)
        if m:
            if m.group(1) != open_name:
                return "%s:%d: end of example %s, none open" % (
                    path, i + 1, m.group(1))
            found[open_name] = (start, i)
            open_name = None
    if open_name:
        return "%s: example %s has no end marker" % (path, open_name)
    return found, lines


def fenced(body):
    """The block as written: trailing blanks go (an editor would strip
    them, and the check would fail for nothing)."""
    return ["```"] + [l.rstrip() for l in body] + ["```"]


def main(argv):
    docs = TOP
    if len(argv) > 2 and argv[1] == "--docs":
        docs = argv[2]
        argv = argv[:1] + argv[3:]
    if len(argv) < 2 or argv[1] not in ("write", "check", "list", "show"):
        print(__doc__, file=sys.stderr)
        return 2
    verb, names = argv[1], argv[2:]
    if verb == "list":
        for name, (doc, _) in EXAMPLES.items():
            print(name, doc)
        return 0
    unknown = [n for n in names if n not in EXAMPLES]
    if unknown or (verb == "show" and len(names) != 1):
        print("examples.py: which example? (%s)" % " ".join(EXAMPLES),
              file=sys.stderr)
        return 2
    if verb == "show":
        try:
            print("\n".join(EXAMPLES[names[0]][1]()))
        except Failed as e:
            print("examples.py: %s" % e, file=sys.stderr)
            return 2
        return 0
    names = names or list(EXAMPLES)
    bad = 0
    # Every marker in the documents names an example, and the reverse.
    for path in ["README.md"] + sorted(
            os.path.relpath(p, docs)
            for p in glob.glob(os.path.join(docs, "docs", "*.md"))):
        got = blocks(os.path.join(docs, path))
        if isinstance(got, str):
            print(got, file=sys.stderr)
            bad = 1
            continue
        for name in got[0]:
            if EXAMPLES.get(name, (None,))[0] != path:
                print("%s: example %s is none of examples.py's for it"
                      % (path, name), file=sys.stderr)
                bad = 1
    for name in names:
        doc, maker = EXAMPLES[name]
        path = os.path.join(docs, doc)
        got = blocks(path)
        if isinstance(got, str):
            continue	# said above
        found, lines = got
        if name not in found:
            print("%s: no markers of example %s" % (doc, name),
                  file=sys.stderr)
            bad = 1
            continue
        try:
            want = fenced(maker())
        except Failed as e:
            print("examples.py: %s: %s" % (name, e), file=sys.stderr)
            return 2
        start, end = found[name]
        have = lines[start + 1:end]
        if have == want:
            print("ok %s (%s)" % (name, doc))
            continue
        if verb == "check":
            print("DIFFERS %s (%s): tests/docs/examples.py write %s"
                  % (name, doc, name))
            sys.stdout.writelines(difflib.unified_diff(
                [l + "\n" for l in have], [l + "\n" for l in want],
                doc + " (as kept)", doc + " (as made now)"))
            bad = 1
            continue
        lines[start + 1:end] = want
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
        print("wrote %s (%s)" % (name, doc))
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv))
