# SPDX-License-Identifier: GPL-2.0-only
#
# Helpers for the hostile-name tests (bad_names*.sh, issue 35), on top of
# tests/lib.sh. Not a test itself (run-tests.sh runs *.sh only).
#
# H hides a gnuplot command (and so a shell one) in a quote; BAD adds
# markup, a Markdown table's pipe, a newline, a link, a control character
# and bytes that are not UTF-8. A command that runs H touches $PWNED.

PY=/usr/bin/python3
PWNED=$T/PWNED
H="x'; system \"touch $PWNED\"; print '"
# A '|' and a newline break Markdown tables; [x](y) is a link.
BAD="$H <pwned>&amp; \"q\" |x|"$'\n''| [y](javascript:z)'$'\x01\xff\xfe'
# The same as one folder's name (no '/'): the shell gnuplot would start
# finds $PWNED in the environment.
export RTGATE_TEST_PWNED=$PWNED
BADNAME="x'; system \"touch \$RTGATE_TEST_PWNED\"; print ' ${BAD#"$H "}"

# Every file below DIR: UTF-8; JSON parses; XML and SVG are well-formed;
# HTML has no element the input named (<pwned>) and no parse error; in
# HTML and SVG every id is unique and every #reference finds its element
# (inlined plots, names alike once made safe); a Markdown table keeps its
# columns in every row and no name becomes markup.
valid_outputs() {	# valid_outputs DESCRIPTION DIR...
	local desc=$1
	shift
	$PY - "$@" <<'EOF' >"$T/valid.log" 2>&1
import collections, html.parser, json, os, re, subprocess, sys
bad = []
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids = collections.Counter()
        self.refs = []
    def handle_starttag(self, tag, attrs):
        if tag == "pwned":
            bad.append(self.name + ": a <pwned> from a name")
        for k, v in attrs:
            if k == "id":
                self.ids[v] += 1
            elif k in ("href", "xlink:href") and v and v.startswith("#"):
                self.refs.append(v[1:])
    handle_startendtag = handle_starttag
    def check_ids(self):
        for i, n in self.ids.items():
            if n > 1:
                bad.append("%s: id %r %d times" % (self.name, i, n))
                break
        for r in self.refs:
            if r not in self.ids:
                bad.append("%s: #%s refers to no element" % (self.name, r))
                break
# A pipe not escaped by a backslash ends a Markdown table cell.
PIPE = re.compile(r"(?<!\\)(?:\\\\)*\|")
# Code spans and fenced blocks are literal: markup counts outside them.
SPAN = re.compile(r"(?<!`)(`+)(?!`).*?(?<!`)\1(?!`)")
def check_md(name, text):
    fence, prose = None, []
    for line in text.splitlines():
        m = re.match(r"^(`{3,})\s*$", line)
        if fence and m and len(m.group(1)) >= len(fence):
            fence = None
        elif not fence and m:
            fence = m.group(1)
        elif not fence:
            prose.append(SPAN.sub("", line))
    prose = "\n".join(prose)
    if re.search(r"(?<!\\)<pwned", prose):
        bad.append(name + ": a raw <pwned> from a name")
    if re.search(r"(?<!\\)\[y\]\(javascript", prose):
        bad.append(name + ": a link from a name")
    cols = None
    for n, line in enumerate(text.splitlines(), 1):
        if not line.startswith("|"):
            cols = None
            continue
        k = len(PIPE.findall(line))
        if cols is None:
            cols = k
        elif k != cols:
            bad.append("%s:%d: %d cells in a table of %d" % (name, n, k - 1,
                                                               cols - 1))
            break
for top in sys.argv[1:]:
    for d, _, files in os.walk(os.fsencode(top)):
        for f in files:
            path = os.path.join(d, f)
            name = path.decode("utf-8", "replace")
            data = open(path, "rb").read()
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError as e:
                bad.append(name + ": not UTF-8: " + str(e))
                continue
            if f.endswith(b".json"):
                try:
                    json.loads(text)
                except ValueError as e:
                    bad.append(name + ": not JSON: " + str(e))
            elif f.endswith((b".xml", b".svg")):
                r = subprocess.run(["xmllint", "--noout", path],
                                   capture_output=True)
                if r.returncode:
                    bad.append(name + ": " + r.stderr.decode("utf-8", "replace"))
                if f.endswith(b".svg"):
                    p = P()
                    p.name = name
                    p.feed(text)
                    p.check_ids()
            elif f.endswith(b".md"):
                check_md(name, text)
            elif f.endswith(b".html"):
                p = P()
                p.name = name
                p.feed(text)
                p.check_ids()
                r = subprocess.run(["xmllint", "--html", "--noout", path],
                                   capture_output=True)
                # libxml2 knows no HTML5 tags; duplicate ids of inlined
                # SVGs are validity, not well-formedness.
                errs = [l for l in r.stderr.decode("utf-8", "replace").splitlines()
                        if "error" in l and "invalid" not in l
                        and "validity error" not in l]
                if errs:
                    bad.append(name + ": " + errs[0])
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
EOF
	local rc=$?
	[ $rc -eq 0 ] || diag "$(head -5 "$T/valid.log")"
	ok $rc "$desc"
}
nothing_ran() {	# nothing_ran DESCRIPTION
	[ ! -e "$PWNED" ]
	ok $? "$1: nothing ran"
	rm -f "$PWNED"
}
