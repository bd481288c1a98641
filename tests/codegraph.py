#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The structure of rtgate's C code, from its #includes and its objects.

    tests/codegraph.py [--obj build/obj] cycles    circles of files, cycles of folders
    tests/codegraph.py [--obj build/obj] symbols   exported names without their folder's prefix
    tests/codegraph.py [--obj build/obj] callers   exported names nothing calls
    tests/codegraph.py [--obj build/obj] folders   folder edges docs/design.md does not allow
    tests/codegraph.py [--obj build/obj] edges     every file-to-file edge, with why
    tests/codegraph.py [--top DIR] headers   cross-folder includes of a non-public header
    tests/codegraph.py [--top DIR] types     types in headers without their folder's prefix
    tests/codegraph.py [--top DIR] enums     enum constants without their folder's prefix
    tests/codegraph.py [--top DIR] comments  files without an opening comment
    tests/codegraph.py [--top DIR] kerneldoc top-header functions without kernel-doc

The rules of docs/design.md: another folder includes only a folder's top
header, the one named after it (analyze/analyze.h; every common/ header is a
module's public header; workloads/common/ serves every workload); a part's
header (analyze/input/input.h) serves its own folder only, and bench/ and
fuzz/ take the few part headers OUTSIDE lists. A folder uses only the
folders the table in docs/design.md ("The code follows the data") gives it.
A type a header declares (struct, union, enum tag, typedef) carries its
folder's prefix like its functions, and an enum constant the prefix in
capitals (RUNNER_, AN_, TRACE_; a common module's: EXITCODE_, LOG_),
but for the few ENUM_EXCEPTIONS names with their reason. Every symbol librtgate.a exports has a
caller outside its own definition (another object, its own file, or a test,
bench or fuzz program): a function nobody calls is removed, not kept. Every
.c and .h file opens (after its SPDX line) with a comment that says what it
is for. Every function a folder's top header declares has a kernel-doc
comment (/** name() - ... @arg: ... Return: ... */), as libtracefs and the
kernel document theirs.

Every .c and .h file is a node. A file depends on a header it includes,
and a .c file on the .c file whose object defines a symbol its own object
uses (nm: calls and shared data). A circle is a set of files that depend
on each other (a strongly connected component of more than one: a file
that calls up into the file that calls it, or headers that include each
other); a folder cycle is the same between folders. Exit status:
0 when there is nothing to report, 1 when there is, 2 on bad use.
"""
import os
import re
import subprocess
import sys

# The folders whose C files form bin/rtgate and the workloads.
FOLDERS = ["common", "runner", "analyze", "trace", "kernel", "lab", "bisect",
           "reproduce",
           "history", "nightly", "export", "lava", "rtgate", "workloads"]

# Every symbol librtgate.a defines carries its folder's prefix. common/ is a
# set of small modules, each with its own prefix (COMMON_MODULES); a prefix
# without a trailing "_" is also the name of the module's one main function.
PREFIXES = {
    "runner": ["runner_"],
    "analyze": ["an_"],
    "trace": ["trace_"],
    "kernel": ["kernel_"],
    "lab": ["lab_"],
    "bisect": ["bisect_"],
    "reproduce": ["reproduce_"],
    "history": ["history_"],
    "nightly": ["nightly_"],
    "export": ["export_"],
    "lava": ["lava_"],
}
COMMON_MODULES = {
    "cli": "cli_", "ctline": "ctline_", "debapt": "debapt_",
    "exitcode": "exitcode_",
    "filehash": "filehash_", "fsio": "fsio_", "jsonio": "json_",
    "inisettings": "inisettings_",
    "jsonout": "jsonout_", "kconfig": "kconfig_", "log": "log_",
    "outcome": "outcome_", "parse": "parse_",
    "procstat": "procstat_", "rtpaths": "rtpaths_", "sha256": "sha256_",
    "stopsig": "stopsig_", "textfmt": "text_", "timefmt": "timefmt_",
    "vec": "vec_", "clocks": "clocks_",
    "toolrun": "toolrun",
}


def prefixes_of(folder, obj):
    """The prefixes a symbol of @obj may carry, or None for no known one."""
    if folder == "common":
        p = COMMON_MODULES.get(os.path.splitext(obj)[0])
        return None if p is None else [p]
    return PREFIXES.get(folder)


def has_prefix(sym, prefixes):
    for p in prefixes:
        if sym.startswith(p if p.endswith("_") else p + "_") or sym == p:
            return True
    return False


INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def sources(top, folders=None):
    out = []
    for folder in FOLDERS if folders is None else folders:
        for root, _, files in os.walk(os.path.join(top, folder)):
            for f in files:
                if f.endswith((".c", ".h")):
                    out.append(os.path.relpath(os.path.join(root, f), top))
    return sorted(out)


def stem(path):
    return os.path.splitext(path)[0]


def folder_of(node):
    d = os.path.dirname(node)
    return d


def common_dirs(top):
    """The folders of common/ the build searches (-Icommon/<group>)."""
    base = os.path.join(top, "common")
    if not os.path.isdir(base):
        return []
    return sorted(os.path.join("common", d) for d in os.listdir(base)
                  if os.path.isdir(os.path.join(base, d)))


def include_edges(top, files):
    """(from-module, to-module, header) for every quoted #include."""
    known = set(files)
    edges = []
    for f in files:
        with open(os.path.join(top, f), encoding="utf-8",
                  errors="replace") as fh:
            text = fh.read()
        for inc in INCLUDE.findall(text):
            cands = [os.path.normpath(os.path.join(os.path.dirname(f), inc)),
                     os.path.normpath(inc)] + \
                    [os.path.normpath(os.path.join(d, inc))
                     for d in common_dirs(top)]
            target = next((c for c in cands if c in known), None)
            if target is None:
                continue
            if target != f:
                edges.append((f, target, "#include " + inc))
    return edges


def nm(obj, *flags):
    res = subprocess.run(["nm", *flags, obj], capture_output=True,
                         text=True, check=True)
    return res.stdout.splitlines()


def objects(top, objdir):
    """module -> object file, for every object built from our sources."""
    out = {}
    base = os.path.join(top, objdir)
    for root, _, files in os.walk(base):
        for f in files:
            if f.endswith(".o"):
                rel = os.path.relpath(os.path.join(root, f), base)
                src = stem(rel) + ".c"
                # An object whose source is gone is a leftover, not code.
                if (rel.split(os.sep)[0] in FOLDERS and
                        os.path.exists(os.path.join(top, src))):
                    out[src] = os.path.join(root, f)
    return out


def call_edges(objs):
    defined, used = {}, {}
    for mod, obj in objs.items():
        used[mod] = set()
        for line in nm(obj):
            parts = line.split()
            if len(parts) == 2 and parts[0] == "U":
                used[mod].add(parts[1])
            elif len(parts) == 3 and parts[1] in "TDBRCVW":
                defined.setdefault(parts[2], mod)
    edges = []
    for mod, syms in used.items():
        for s in sorted(syms):
            d = defined.get(s)
            if d and d != mod:
                edges.append((mod, d, s))
    return edges


def tarjan(nodes, succ):
    index, low, on, stack, sccs = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(succ.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            sccs.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return [c for c in sccs if len(c) > 1]


def graph(top, objdir):
    files = sources(top)
    edges = include_edges(top, files) + call_edges(objects(top, objdir))
    return files, edges


def cmd_cycles(top, objdir):
    files, edges = graph(top, objdir)
    nodes = set(files)
    why, succ = {}, {}
    for a, b, w in edges:
        succ.setdefault(a, set()).add(b)
        why.setdefault((a, b), []).append(w)
    bad = 0
    for comp in tarjan(nodes, succ):
        bad += 1
        print("circle: " + " ".join(comp))
        members = set(comp)
        for a in comp:
            for b in sorted(succ.get(a, ()) & members):
                print("  %s -> %s: %s" % (a, b, ", ".join(why[(a, b)][:4])))
    fsucc, fwhy = {}, {}
    for a, b, w in edges:
        fa, fb = folder_of(a), folder_of(b)
        if fa != fb:
            fsucc.setdefault(fa, set()).add(fb)
            fwhy.setdefault((fa, fb), []).append("%s -> %s (%s)" % (a, b, w))
    for comp in tarjan({folder_of(n) for n in nodes}, fsucc):
        bad += 1
        print("folder cycle: " + " ".join(comp))
        members = set(comp)
        for a in comp:
            for b in sorted(fsucc.get(a, ()) & members):
                print("  %s -> %s: %s" % (a, b, "; ".join(fwhy[(a, b)][:3])))
    print("%d modules, %d edges, %d circles or folder cycles"
          % (len(nodes), len(edges), bad))
    return 1 if bad else 0


def cmd_symbols(top, objdir):
    lib = os.path.join(top, objdir, "librtgate.a")
    if not os.path.exists(lib):
        print("no %s: build first" % lib, file=sys.stderr)
        return 2
    bad = total = 0
    obj = None
    for line in nm(lib, "-g", "--defined-only"):
        if line.endswith(":") and not line.startswith(" "):
            obj = line[:-1]
            continue
        parts = line.split()
        if len(parts) != 3:
            continue
        total += 1
        folder = folder_of_object(top, obj)
        prefixes = prefixes_of(folder, obj)
        if prefixes is None:
            print("%s: %s: object of no known folder or common module "
                  "(COMMON_MODULES)" % (obj, parts[2]))
            bad += 1
        elif not has_prefix(parts[2], prefixes):
            print("%s/%s: %s: not %s" % (folder, obj, parts[2],
                                         "|".join(p + "*" for p in prefixes)))
            bad += 1
    print("%d defined symbols, %d without their folder's prefix"
          % (total, bad))
    return 1 if bad else 0


_obj_folder = {}


def folder_of_object(top, obj):
    """The folder whose source builds @obj (archive members are basenames)."""
    if not _obj_folder:
        for f in sources(top):
            if f.endswith(".c"):
                name = os.path.basename(stem(f)) + ".o"
                _obj_folder.setdefault(name, f.split(os.sep)[0])
    return _obj_folder.get(obj)


def top_folder(path):
    return path.split(os.sep)[0]


# Programs outside bin/rtgate that reach into a part of the analyzer or
# the runner: the benchmarks and the fuzz targets. Besides every folder's
# top header, each may include the part headers listed here, no other.
OUTSIDE = {
    "bench": ["analyze/input/input.h", "analyze/validate/validate.h"],
    "fuzz": ["analyze/input/input.h", "runner/suite/suite.h"],
}


def is_top_header(header):
    """analyze/analyze.h, runner/runner.h: the header named after a top folder."""
    parts = header.split(os.sep)
    return len(parts) == 2 and stem(parts[1]) == parts[0]


def is_public(header, includer):
    """Whether @includer (another folder or part) may include @header."""
    parts = header.split(os.sep)
    mine = top_folder(includer)
    if parts[0] == "common":
        return True
    if parts[0] == "workloads":
        return folder_of(header).startswith("workloads/common") and \
            mine == "workloads"
    if is_top_header(header):
        return True
    if mine in OUTSIDE:
        return header in OUTSIDE[mine]
    # A part's header (analyze/input/input.h), named after the part: for
    # the other parts of its own folder only.
    return len(parts) >= 3 and stem(parts[-1]) == parts[-2] and \
        parts[0] == mine


def report(kind, found):
    """Prints each break; returns the exit status."""
    for f in sorted(found):
        print(f)
    print("%d %s breaks" % (len(found), kind))
    return 1 if found else 0


def cmd_headers(top, objdir):
    found = []
    files = sources(top) + sources(top, list(OUTSIDE))
    for a, b, w in include_edges(top, files):
        if not b.endswith(".h"):
            continue
        # A part of a folder (analyze/judge/) is a folder of its own here.
        fa, fb = folder_of(a), folder_of(b)
        if fa == fb or is_public(b, a):
            continue
        found.append("headers %s includes %s" % (a, b))
    return report("headers", found)


# The folder-edge table of docs/design.md: the fenced block under "The code
# follows the data", one line a folder. "X/ -> a, b" lets X use a and b,
# "X/ -> every folder" any folder, "X/ <- every folder" lets every folder
# use X, "X/, Y/" names folders that use none; a "(...)" is a comment.
TABLE_LINE = re.compile(
    r"^((?:[\w-]+/\s*,?\s*)+)(?:(->|<-)\s*([^(]*?))?\s*(?:\(.*)?$")


def edge_table(top):
    """folder -> the set of folders it may use (None: any), or a str error."""
    path = os.path.join("docs", "design.md")
    try:
        with open(os.path.join(top, path), encoding="utf-8") as fh:
            text = fh.read()
    except OSError as e:
        return "%s: %s" % (path, e.strerror)
    for block in re.findall(r"^```\n(.*?)^```", text, re.M | re.S):
        if not re.search(r"^common/", block, re.M) or "->" not in block:
            continue
        allowed, anyone = {}, set()
        for n, line in enumerate(block.splitlines(), 1):
            if not line.strip() or line[0].isspace():
                continue
            m = TABLE_LINE.match(line)
            if not m:
                return "%s: folder table line %d: not 'folder/ -> a, b': %s" \
                    % (path, n, line)
            names = [x.strip().rstrip("/") for x in m.group(1).split(",")
                     if x.strip()]
            targets = [x.strip().rstrip("/") for x in
                       (m.group(3) or "").split(",") if x.strip()]
            for f in names:
                allowed.setdefault(f, set())
                if targets == ["every folder"]:
                    if m.group(2) == "->":
                        allowed[f] = None
                    else:
                        anyone.add(f)
                elif m.group(2) == "->":
                    allowed[f] |= set(targets)
                elif m.group(2):
                    return "%s: folder table: '<-' takes 'every folder': %s" \
                        % (path, line)
        for f in allowed:
            if allowed[f] is not None:
                allowed[f] |= anyone - {f}
        return allowed
    return "%s: no folder table (a fenced block with 'common/' and '->')" \
        % path


def cmd_folders(top, objdir):
    allowed = edge_table(top)
    if isinstance(allowed, str):
        print(allowed, file=sys.stderr)
        return 2
    _, edges = graph(top, objdir)
    seen = {}
    for a, b, w in edges:
        fa, fb = top_folder(a), top_folder(b)
        if fa != fb:
            seen.setdefault((fa, fb), "%s -> %s (%s)" % (a, b, w))
    found = []
    for (fa, fb), why in sorted(seen.items()):
        if fa not in allowed:
            found.append("folders %s: not in docs/design.md's table" % fa)
        elif allowed[fa] is not None and fb not in allowed[fa]:
            found.append("folders %s -> %s: not in docs/design.md's table: %s"
                         % (fa, fb, why))
    return report("folders", sorted(set(found)))


C_NOISE = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"', re.S)


def words_of(path):
    """Every identifier of a C file, counted; comments and strings are not code."""
    with open(path, encoding="utf-8", errors="replace") as fh:
        text = C_NOISE.sub(" ", fh.read())
    out = {}
    for w in re.findall(r"\b[A-Za-z_]\w*\b", text):
        out[w] = out.get(w, 0) + 1
    return out


def cmd_callers(top, objdir):
    """Exported symbols of librtgate.a that nothing uses."""
    objs = objects(top, objdir)
    if not objs:
        print("no objects under %s: build first" % os.path.join(top, objdir),
              file=sys.stderr)
        return 2
    defined, used = {}, {}
    for mod, obj in objs.items():
        for line in nm(obj):
            parts = line.split()
            if len(parts) == 2 and parts[0] == "U":
                used.setdefault(parts[1], set()).add(mod)
            elif len(parts) == 3 and parts[1] in "TDBRCVW":
                defined.setdefault(parts[2], mod)
    # Callers the library's objects do not show: the defining file itself
    # (a call the compiler resolved or inlined), the unit tests, bench/ and
    # fuzz/ (built on their own).
    outside = {}
    for d in ["tests/unit"] + list(OUTSIDE):
        for root, _, files in os.walk(os.path.join(top, d)):
            for f in files:
                if f.endswith(".c"):
                    for w in words_of(os.path.join(root, f)):
                        outside[w] = True
    own = {}
    found = []
    total = 0
    for sym, mod in sorted(defined.items()):
        if top_folder(mod) in ("rtgate", "workloads"):
            continue	# programs, not the library
        total += 1
        if used.get(sym, set()) - {mod} or sym in outside:
            continue
        if mod not in own:
            own[mod] = words_of(os.path.join(top, mod))
        if own[mod].get(sym, 0) >= 2:
            continue	# defined and used in its own file
        found.append("callers %s: %s: no caller" % (mod, sym))
    print("%d exported symbols" % total)
    return report("callers", found)


TYPE_DECL = re.compile(
    r"^(?:typedef\s+(?:struct|union|enum)?\s*\w*\s*\{?[^;]*?\b(\w+)\s*;"
    r"|(?:struct|union|enum)\s+(\w+)\s*\{)", re.M)


def type_prefixes(header):
    folder = top_folder(header)
    if folder == "common":
        p = COMMON_MODULES.get(stem(os.path.basename(header)))
        return None if p is None else [p.rstrip("_") + "_", p]
    if folder == "workloads":
        return ["wl_"] if folder_of(header).startswith("workloads/common") else None
    return PREFIXES.get(folder)


def cmd_types(top, objdir):
    found = []
    for h in sources(top):
        if not h.endswith(".h"):
            continue
        prefixes = type_prefixes(h)
        if prefixes is None:
            continue
        with open(os.path.join(top, h), encoding="utf-8",
                  errors="replace") as fh:
            text = fh.read()
        for m in TYPE_DECL.finditer(text):
            name = m.group(1) or m.group(2)
            if not any(name.startswith(p) or name == p.rstrip("_")
                       for p in prefixes):
                found.append("types %s: %s" % (h, name))
    return report("types", found)


OPENING = re.compile(r"\s*(/\*.*?\*/|(?://[^\n]*\n)+)", re.S)


def cmd_comments(top, objdir):
    """Files whose first lines after SPDX are not a comment of a few words."""
    found = []
    for f in sources(top) + sources(top, list(OUTSIDE)):
        with open(os.path.join(top, f), encoding="utf-8",
                  errors="replace") as fh:
            text = fh.read()
        first, _, rest = text.partition("\n")
        m = OPENING.match(rest if "SPDX" in first else text)
        words = re.findall(r"[A-Za-z]{2,}", m.group(1)) if m else []
        if len(words) < 3:
            found.append("comments %s: no opening comment saying what it "
                         "is for" % f)
    return report("comments", found)


# ---- kernel-doc: every function of a folder's top header -----------------

def top_headers(top):
    """analyze/analyze.h, runner/runner.h ...: each folder's contract."""
    out = []
    for folder in FOLDERS:
        h = os.path.join(folder, folder + ".h")
        if os.path.exists(os.path.join(top, h)):
            out.append(h)
    return out


COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
PREPRO = re.compile(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", re.M)


def blank(m):
    """@m's text as spaces, its newlines kept (positions stay)."""
    return re.sub(r"[^\n]", " ", m.group(0))


def balanced(text, i):
    """The index just past the bracket that closes the one at @i."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] in "({[":
            depth += 1
        elif text[j] in ")}]":
            depth -= 1
            if depth == 0:
                return j + 1
    return len(text)


def split_params(params):
    out, depth, cur = [], 0, ""
    for ch in params:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    out.append(cur)
    return [p.strip() for p in out if p.strip()]


def param_name(p):
    """The name a parameter declares: "int (*fn)(void *)" -> fn; "" none."""
    if p == "...":
        return "..."
    m = re.match(r"[^(]*\(\s*\*\s*(\w+)\s*\)", p)
    if m:
        return m.group(1)
    p = re.sub(r"\[[^\]]*\]", "", p).strip()
    words = re.findall(r"\w+", p)
    if len(words) < 2 or p == "void":
        return ""
    return words[-1]


FUNC_HEAD = re.compile(r"^(?:extern\s+)?(?:static\s+)?(?:inline\s+)?"
                       r"([\w\s\*]*?[\w\*])\s*\b(\w+)\s*$", re.S)


def header_functions(text):
    """(name, return type, [param names], start offset) of each function
    a header declares or defines inline, at file scope."""
    code = COMMENT.sub(blank, text)
    code = PREPRO.sub(blank, code)
    out = []
    i, start, n = 0, None, len(code)
    while i < n:
        ch = code[i]
        if start is None and not ch.isspace():
            start = i
        if ch in "{(":
            i = balanced(code, i)
            # a function's body, a struct's members: the statement ends at
            # the ';' after them, or at the '}' of a body
            if ch == "{" and ")" in code[start:i].split("{")[0]:
                out.append((start, code[start:i]))
                start = None
            continue
        if ch == ";":
            out.append((start, code[start:i]))
            start = None
        i += 1
    funcs = []
    for pos, stmt in out:
        head = stmt.split("{")[0]
        if re.match(r"\s*typedef\b", head) or "=" in head:
            continue
        lp = head.find("(")
        if lp < 0:
            continue
        m = FUNC_HEAD.match(head[:lp].strip())
        if not m or m.group(1).split()[-1] in ("struct", "union", "enum"):
            continue
        params = head[lp + 1:balanced(head, lp) - 1]
        names = [param_name(p) for p in split_params(params)]
        funcs.append((m.group(2), " ".join(m.group(1).split()),
                      [x for x in names if x], pos))
    return funcs


def kerneldoc_breaks(path, text):
    found = []
    comments = [(m.start(), m.end(), m.group(0))
                for m in re.finditer(r"/\*.*?\*/", text, re.S)]
    for name, ret, params, pos in header_functions(text):
        doc = None
        for s, e, c in comments:
            if e <= pos and not text[e:pos].strip():
                doc = c
        where = "kerneldoc %s: %s()" % (path, name)
        if doc is None or not doc.startswith("/**"):
            found.append(where + ": no kernel-doc comment")
            continue
        lines = [re.sub(r"^\s*\*?\s?", "", x) for x in
                 doc[3:-2].splitlines()]
        lines = [x for x in lines if x.strip()]
        if not lines or not re.match(r"%s(?:\(\))?\s+-\s+\S" % name,
                                     lines[0].strip()):
            found.append(where + ": does not open with '%s() - ...'" % name)
        for p in params:
            if not any(re.match(r"@%s\s*:" % re.escape(p), x.strip())
                       for x in lines):
                found.append(where + ": @%s not described" % p)
        if ret != "void" and not any(re.match(r"Returns?\s*:", x.strip())
                                     for x in lines):
            found.append(where + ": no 'Return:'")
    return found


def cmd_kerneldoc(top, objdir):
    """Functions of a folder's top header without a whole kernel-doc."""
    found = []
    total = 0
    for h in top_headers(top):
        with open(os.path.join(top, h), encoding="utf-8",
                  errors="replace") as fh:
            text = fh.read()
        total += len(header_functions(text))
        found += kerneldoc_breaks(h, text)
    print("%d functions in top headers" % total)
    return report("kerneldoc", found)


# Enum constants a header may name without its folder's prefix, each with
# the reason (docs/design.md, "Rules the tree keeps"). Empty today: a name
# goes here only when something outside rtgate fixes it.
ENUM_EXCEPTIONS = {
}

ENUM_BODY = re.compile(r"\benum\b\s*\w*\s*\{(.*?)\}", re.S)


def cmd_enums(top, objdir):
    """Enum constants in headers without their folder's prefix."""
    found = []
    for h in sources(top):
        if not h.endswith(".h"):
            continue
        prefixes = type_prefixes(h)
        if prefixes is None:
            continue	# a workload's own folder has no prefix
        caps = sorted({p.upper() for p in prefixes if p.endswith("_")})
        with open(os.path.join(top, h), encoding="utf-8",
                  errors="replace") as fh:
            code = PREPRO.sub(blank, COMMENT.sub(blank, fh.read()))
        for m in ENUM_BODY.finditer(code):
            for e in re.findall(r"(?:^|,)\s*([A-Za-z_]\w*)", m.group(1)):
                if not any(e.startswith(p) for p in caps) and \
                        e not in ENUM_EXCEPTIONS:
                    found.append("enums %s: %s: not %s" % (
                        h, e, "|".join(p + "*" for p in caps)))
    return report("enums", found)


def cmd_edges(top, objdir):
    _, edges = graph(top, objdir)
    for a, b, w in sorted(edges):
        print("%s -> %s: %s" % (a, b, w))
    return 0


def main(argv):
    top = os.path.normpath(os.path.join(os.path.dirname(__file__), ".."))
    objdir = "build/obj"
    args = argv[1:]
    while len(args) >= 2 and args[0] in ("--obj", "--top"):
        if args[0] == "--obj":
            objdir = args[1]
        else:
            top = args[1]
        args = args[2:]
    cmds = {"cycles": cmd_cycles, "symbols": cmd_symbols, "edges": cmd_edges,
            "headers": cmd_headers, "types": cmd_types,
            "folders": cmd_folders, "callers": cmd_callers,
            "comments": cmd_comments, "kerneldoc": cmd_kerneldoc,
            "enums": cmd_enums}
    if len(args) != 1 or args[0] not in cmds:
        print(__doc__.strip().splitlines()[2:5] and __doc__, file=sys.stderr)
        return 2
    return cmds[args[0]](top, objdir)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
