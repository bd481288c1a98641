#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Hostile names arriving the other ways (issue 35, beside bad_names.sh):
# timerlat's further side (S.irq) in a hostile folder; a nightly that
# imports a run from a hostile folder and writes its summary (text, HTML,
# junit.xml), its database and its dashboard; and `lava fetch` from a LAVA
# server (a local stand-in speaking its REST API) whose jobs name a
# hostile board, carry a hostile reason, a guest run id that climbs out
# of the results directory, or an archive holding a link. Nothing may
# run, every file written must be valid, a name that cannot be a name is
# refused where it enters (exit 3) and nothing is written for it.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/lib-bad-names.bash"
command -v xmllint >/dev/null || { skip "xmllint not installed" "bad names"; done_testing; }
"$TOP/tests/fixtures/nightly/make-week.py" \
	"$TOP/tests/fixtures/nightly/recorded" "$T/week" >/dev/null
D=$T/$BAD
mkdir -p "$D"

# ---- timerlat's S.irq in a hostile folder -----------------------------------
cp -r "$TOP/tests/fixtures/lab/timerlat-7.2-rt" "$D/tl"
"$RTGATE" report -q --report all "$D/tl" >/dev/null 2>&1
rc=$?
ok $((rc > 2)) "report of a timerlat run in a hostile folder (exit $rc)"
jq -e '.comparisons[] | select(.candidate == "inject.irq")' \
	"$D/tl/report.json" >/dev/null
ok $? "... judged its .irq side"
nothing_ran "timerlat report"
valid_outputs "timerlat report: every file valid" "$D/tl"
"$RTGATE" compare -q --report all -o "$T/tlc" "$D/tl:idle.irq" \
	"$D/tl:inject.irq" >/dev/null 2>&1
rc=$?
ok $((rc > 2)) "compare DIR:idle.irq DIR:inject.irq (exit $rc)"
nothing_ran "compare of .irq sides"
valid_outputs "compare of .irq sides: every file valid" "$T/tlc"
mkdir -p "$T/tlx" "$T/tldb"
"$RTGATE" history import --db "$T/tldb/h.db" "$D/tl" >/dev/null 2>&1
is "$?" 0 "history import of it"
"$RTGATE" export kcidb -o "$T/tlx/k.json" "$D/tl" >/dev/null 2>&1
is "$?" 0 "export kcidb of it"
"$RTGATE" lava report --print "$D/tl" >"$T/tlx/lava.txt" 2>/dev/null
rc=$?
ok $((rc > 2)) "lava report of it (exit $rc)"
check "... a case of its own for the .irq comparison" -- \
	grep -q '^lava-test-case rtgate.timerlat.inject.irq --result' "$T/tlx/lava.txt"
"$RTGATE" dashboard --db "$T/tldb/h.db" --out "$T/tlx/dash" >/dev/null 2>&1
is "$?" 0 "dashboard of it"
nothing_ran "timerlat exports"
valid_outputs "timerlat exports and dashboard: every file valid" "$T/tlx"

# ---- a nightly importing a run from a hostile folder ------------------------
mkdir -p "$T/incoming"
cp -r "$T/week/20261123-020000-quick" "$T/week/20261124-020000-quick" \
	"$T/incoming/"
cp -r "$T/week/20261125-020000-quick" "$T/incoming/$BADNAME"
cat >"$T/n.conf" <<CONF
[nightly]
results   = $T/nres
summary   = $T/nsum
dashboard = $T/ndash
lock      = $T/n.lock
[suite quick]
import = $T/incoming
CONF
mkdir -p "$T/nout"
"$RTGATE" nightly --config "$T/n.conf" >"$T/nout/out.txt" 2>"$T/n.err"
rc=$?
ok $((rc > 2 && rc != 5)) "nightly of three runs, one in a hostile folder (exit $rc)"
nothing_ran "nightly"
is "$(sqlite3 "$T/nres/rtgate.db" 'SELECT count(*) FROM runs')" 3 \
	"... all three stored"
check "... the summary written" -- test -s "$T/nsum/latest.html"
valid_outputs "nightly: summary, junit.xml, every file valid" "$T/nsum"
check "... the dashboard written" -- test -s "$T/ndash/index.html"
valid_outputs "nightly: dashboard, every file valid" "$T/ndash"
valid_outputs "nightly: its stdout" "$T/nout"
"$RTGATE" export kcidb --db "$T/nres/rtgate.db" -o "$T/nk.json" \
	"$T/incoming/$BADNAME" >/dev/null 2>&1
is "$?" 0 "export kcidb of the nightly's run from the database"
nothing_ran "nightly export"

# ---- lava fetch from a server whose jobs carry hostile names ----------------
# A stand-in for LAVA's REST API v0.2: jobs/ID/, jobs/ID/logs/ and
# jobs/ID/tests/ answered from files, as the recorded answers are
# (tests/fixtures/lava/README.md).
L=$T/lava
mkdir -p "$L/api"
good=$T/week/20261126-020000-quick
$PY - "$TOP/tests/fixtures/lava/job-complete.json" "$L/api" "$good" \
	"$H <pwned>" "$BAD" "$T" <<'EOF'
import base64, hashlib, io, json, os, sys, tarfile
fix, out, good, hostile, bad, top = sys.argv[1:]
job0 = json.load(open(fix))
bad = bad.encode("utf-8", "surrogateescape")

def tgz(extra=None):
    b = io.BytesIO()
    with tarfile.open(fileobj=b, mode="w:gz") as t:
        for d, _, fs in os.walk(good):
            for f in fs:
                p = os.path.join(d, f)
                t.add(p, "./" + os.path.relpath(p, good))
        if extra:
            extra(t)
    return b.getvalue()

def log(guest, data):
    lines = ['- {"dt": "2026-12-02T18:30:54", "lvl": "target", "msg": %s}'
             % json.dumps(m) for m in
             ["RTGATE-RESULTS-BEGIN %s %s"
              % (guest, hashlib.sha256(data).hexdigest())]
             + base64.encodebytes(data).decode().split()
             + ["RTGATE-RESULTS-END"]]
    # A console line of the board's: any bytes.
    return (b'- {"dt": "2026-12-02T18:30:53", "lvl": "target", "msg": "'
            + bad.replace(b'"', b"'").replace(b"\n", b" ")
            .replace(b"\\", b"/") + b'"}\n'
            + ("\n".join(lines) + "\n").encode())

def job(i, board="board-01", health="Complete", failure=None,
        guest="20261126-020000-quick", extra=None):
    j = dict(job0, id=i, health=health, actual_device="board-01",
             failure_comment=None)
    j["original_definition"] = ('metadata:\n  "rtgate.suite": '
        '"/opt/rtgate/suites/quick.suite"\n  "rtgate.board": "%s"\n'
        % board.replace('"', '\\"'))
    body = json.dumps(j).encode()
    if failure is not None:
        # Raw bytes, as a server could send them: not all UTF-8.
        body = body.replace(b'"failure_comment": null',
                            b'"failure_comment": "' + failure + b'"')
    os.makedirs("%s/jobs/%d/logs" % (out, i))
    os.makedirs("%s/jobs/%d/tests" % (out, i))
    open("%s/jobs/%d/index" % (out, i), "wb").write(body)
    # LAVA's test cases: names of any bytes.
    open("%s/jobs/%d/tests/index" % (out, i), "wb").write(
        b'[{"name": "' + bad.replace(b'"', b"'").replace(b"\n", b" ")
        .replace(b"\\", b"/") + b'", "result": "pass"}]')
    if health == "Complete":
        open("%s/jobs/%d/logs/index" % (out, i), "wb").write(
            log(guest, tgz(extra)))

def link(t):
    ti = tarfile.TarInfo("./idle/1/cyclictest.json.orig")
    ti.type = tarfile.SYMTYPE
    ti.linkname = "/etc/passwd"
    t.addfile(ti)

job(101, board=hostile)
job(102, health="Incomplete",
    failure=bad.replace(b'"', b"'").replace(b"\n", b" ")
    .replace(b"\\", b"/"))
job(103, guest="../../escaped")
job(104, extra=link)
job(105)
EOF
$PY - "$L/api" "$L/port" <<'EOF' &
import http.server, os, sys
root, portfile = sys.argv[1:]
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        path = self.path.split("?")[0]
        if not path.startswith("/api/v0.2/") or ".." in path:
            self.send_error(404)
            return
        f = os.path.join(root, path[len("/api/v0.2/"):], "index")
        if not os.path.isfile(f):
            self.send_error(404)
            return
        data = open(f, "rb").read()
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
    def log_message(self, *a):
        pass
s = http.server.HTTPServer(("127.0.0.1", 0), H)
open(portfile + ".tmp", "w").write(str(s.server_port))
os.rename(portfile + ".tmp", portfile)
s.serve_forever()
EOF
server=$!
trap 'kill $server 2>/dev/null; _tap_cleanup' EXIT
for _ in $(seq 50); do [ -s "$L/port" ] && break; sleep 0.1; done
export RTGATE_LAVA_URL=http://127.0.0.1:$(cat "$L/port")/
export RTGATE_LAVA_TOKEN=not-a-secret
R=$T/lres
fetch() {	# fetch JOB: `lava fetch JOB` into $R; rc, $T/f.out, $T/f.err
	"$RTGATE" lava fetch --results "$R" "$1" >"$T/f.out" 2>"$T/f.err"
	rc=$?
}
fetch 105
is "$rc" 0 "lava fetch of a good job: exit 0"
check "... its run rebuilt and stored" -- bash -c \
	"ls -d '$R'/20261126-020000-quick-board-01-lava105 >/dev/null &&
	 sqlite3 '$R/rtgate.db' 'SELECT run_id FROM runs' | grep -q lava105"

fetch 101
is "$rc" 3 "a job whose board is no name: exit 3"
check "... the job and its board named" -- \
	grep -q "job 101: .*board .*not a board name" "$T/f.err"
check "... nothing written for it" -- bash -c "! ls '$R' | grep -q lava101"
nothing_ran "lava fetch of a hostile board"

fetch 103
is "$rc" 3 "a job whose guest run id climbs out (../../escaped): exit 3"
check "... nothing written outside the results" -- bash -c \
	"! ls -d '$T'/escaped* '$R'/../escaped* 2>/dev/null | grep -q ."
check "... nor inside" -- bash -c "! ls '$R' | grep -q lava103"

fetch 104
is "$rc" 3 "a job whose results hold a link: exit 3"
check "... saying so" -- grep -q "job 104: .*cyclictest.json.orig: .*link" "$T/f.err"
check "... nothing written for it" -- bash -c "! ls -A '$R' | grep -q lava104"
check "... its private folder gone (.lava-104-*)" -- \
	bash -c "! ls -A '$R' | grep -q '^\.lava-'"

fetch 102
is "$rc" 5 "an Incomplete job with a hostile reason: exit 5 (incomplete)"
nothing_ran "lava fetch of a hostile reason"
check "... stored as an incomplete run" -- bash -c \
	"sqlite3 '$R/rtgate.db' \"SELECT status FROM runs WHERE run_id LIKE '%lava102%'\" | grep -q incomplete"
check "... no temporary folder left" -- bash -c "! ls -A '$R' | grep -q '^\.lava-'"
valid_outputs "lava fetch: every file it wrote valid (the server's answers UTF-8)" \
	"$R"/*-lava10[25]*
check "... LAVA's test cases kept" -- bash -c "ls '$R'/*-lava105/lava-tests.json >/dev/null"

for d in "$R"/*-lava10[25]*; do
	"$RTGATE" lava report --print "$d" >"$T/lr.txt" 2>/dev/null
	rc=$?
	ok $((rc != 0)) "lava report of ${d##*/} (exit $rc)"
	check "... its cases" -- grep -q '^lava-test-case rtgate.quick ' "$T/lr.txt"
done
mkdir -p "$T/lk"
"$RTGATE" export kcidb --db "$R/rtgate.db" -o "$T/lk/k.json" \
	"$R"/*-lava105 >/dev/null 2>&1
is "$?" 0 "export kcidb of the fetched run"
"$RTGATE" dashboard --db "$R/rtgate.db" --out "$T/lk/dash" >/dev/null 2>&1
is "$?" 0 "dashboard of the fetched runs"
nothing_ran "lava exports"
valid_outputs "lava exports and dashboard: every file valid" "$T/lk"
done_testing
