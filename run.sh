#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# rtgate's front door: installs what is missing, builds, dispatches.
#   ./run.sh              install, build, run suites/quick.suite, print verdicts
#   ./run.sh test         install, build, run every test: "N passed, N failed"
#   ./run.sh help         every command, one line each
# Everything else is passed to bin/rtgate after the install and the build;
# the commands that build kernels or boot the lab (lab, bisect, kernel,
# patches, reproduce) install the lab tier too (deps/*-lab.txt).
set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$top" || exit 4

die() { echo "run.sh: $*" >&2; exit "${code:-4}"; }

# Packages listed in deps/<distro>-<tier>.txt, one per line.
dep_list() {
	local distro=$1 tier f
	shift
	for tier in "$@"; do
		f=deps/$distro-$tier.txt
		[ -f "$f" ] && sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$f"
	done
}

deps_debian() {
	local missing=() p
	for p in $(dep_list debian "$@"); do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q 'install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		echo "run.sh: missing packages: ${missing[*]}" >&2
		die "run as root (sudo ./run.sh ...) to install them, or install them yourself"
	fi
	echo "run.sh: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	# A fresh machine's package lists can be stale: update, then install.
	if ! apt-get install -y -qq -o DPkg::Lock::Timeout=600 --no-install-recommends "${missing[@]}" \
		>/tmp/rtgate-apt.log 2>&1; then
		apt-get update -qq -o DPkg::Lock::Timeout=600 >>/tmp/rtgate-apt.log 2>&1
		apt-get install -y -qq -o DPkg::Lock::Timeout=600 --no-install-recommends "${missing[@]}" \
			>>/tmp/rtgate-apt.log 2>&1 ||
			{ tail -20 /tmp/rtgate-apt.log >&2; die "apt-get install failed"; }
	fi
}

deps_fedora() {
	local missing=() p
	for p in $(dep_list fedora "$@"); do
		rpm -q "$p" >/dev/null 2>&1 || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	[ "$(id -u)" -eq 0 ] ||
		die "missing packages: ${missing[*]} (run as root to install them)"
	echo "run.sh: installing ${missing[*]}"
	dnf install -y -q "${missing[@]}" || die "dnf install failed"
}

deps() {
	if command -v dpkg-query >/dev/null 2>&1 && command -v apt-get >/dev/null; then
		deps_debian "$@"
	elif command -v dnf >/dev/null 2>&1; then
		deps_fedora "$@"
	else
		echo "run.sh: unknown distribution; install the equivalent of:" >&2
		dep_list debian "$@" | sed 's/^/  /' >&2
		exit 4
	fi
}

build() {
	local log=build/make.log
	mkdir -p build
	if ! make -j"$(nproc)" all >"$log" 2>&1; then
		grep -E 'error|Error' "$log" | head -30 >&2
		code=4 die "build failed (full log: $log)"
	fi
}

usage() {
	cat <<USAGE
usage: ./run.sh [COMMAND [ARGS]]

  (no command)        install, build, calibrate this machine once, run the
                      quick suite, print the verdicts
  test [--slow] [PAT] install, build, run the tests (PAT: only tests matching it)
  deps [--lab|--test] install the packages rtgate needs, nothing else
                      (--lab: and the kernel builds' and QEMU lab's;
                      --test: and the tests')
  build               build bin/ only
  help                this list

bin/rtgate commands (./run.sh passes them through):
USAGE
	[ -x bin/rtgate ] && bin/rtgate help | sed -n '/^Commands:/,/^$/p' | sed 1d
}

cmd=${1:-}
case "$cmd" in
help | -h | --help)
	# A missing library must not hide the list: build if it can.
	(build) >/dev/null 2>&1
	usage
	;;
deps)
	shift
	case "${1:-}" in
	--test) deps run lab test ;;
	--lab) deps run lab ;;
	"") deps run ;;
	*) code=3 die "deps: unknown option '$1' (--lab or --test)" ;;
	esac
	;;
build)
	deps run && build
	;;
test)
	shift
	tiers=(run lab test)
	for a in "$@"; do [ "$a" = --slow ] && tiers+=(slow); done
	deps "${tiers[@]}" && build || exit 4
	exec tests/run-tests.sh "$@"
	;;
"")
	deps run && build || exit 4
	# The first run on a machine records its noise (about 3 minutes),
	# so the verdicts can say what the quick suite sees here.
	bin/rtgate calibrate --suite quick --duration 3m --if-missing ||
		exit $?
	exec bin/rtgate run suites/quick.suite
	;;
lab | bisect | kernel | patches | reproduce)
	deps run lab && build || exit 4
	exec bin/rtgate "$@"
	;;
*)
	deps run && build || exit 4
	exec bin/rtgate "$@"
	;;
esac
