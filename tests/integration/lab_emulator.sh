#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The turn quantum (docs/kernels.md, "The lab's emulator"): with several
# vCPUs under --clock icount the lab asks its QEMU for
# `-accel tcg,thread=single,icount-quantum=NS`, and only a QEMU that takes
# the property (lab/qemu/icount-quantum.patch) is asked; one that does not
# is run as it is, with a warning, and lab.json says 0. One vCPU, or no
# icount, never asks. Nothing boots: RTGATE_QEMU is a stand-in that
# answers the lab's questions like QEMU and records the command line it
# was started with. The real build and boots: tests/slow/lab_noise_floor.sh.
source "$(dirname "$0")/../lib.sh"

export RTGATE_OUT_DIR=$T/out
export RTGATE_CACHE_DIR=${RTGATE_CACHE_DIR:-$TOP/out/cache}

# fake NAME QUANTUM: a stand-in QEMU that takes icount-quantum (yes) or
# does not (no), as QEMU 10.0.2 with and without the patch answer.
fake() {
	cat >"$T/$1" <<-EOF
	#!/bin/sh
	case "\$*" in
	*--version*) echo "QEMU emulator version 10.0.2 (stand-in)"; exit 0 ;;
	*icount-quantum=none*)
		if [ $2 = yes ]; then
			echo "qemu-system-x86_64: -accel tcg,icount-quantum=none: Parameter 'icount-quantum' expects uint64" >&2
		else
			echo "qemu-system-x86_64: -accel tcg,icount-quantum=none: Property 'tcg-accel.icount-quantum' not found" >&2
		fi
		exit 1 ;;
	esac
	echo "\$*" >"$T/$1.argv"
	exit 1
	EOF
	chmod +x "$T/$1"
}
fake patched yes
fake plain no

# boot QEMU LABEL ARGS...: one lab run whose QEMU is the stand-in.
boot() {
	local q=$1 label=$2
	shift 2
	rm -f "$T/$q.argv"
	RTGATE_QEMU=$T/$q "$RTGATE" lab run --debian-kernel rt --timeout 1m \
		--out "$T/res-$label" "$@" --exec -- true \
		>"$T/$label.out" 2>"$T/$label.err"
	lab=$(ls -d "$RTGATE_OUT_DIR"/lab/*/ | tail -1)
}

boot patched two --clock icount:3 --cpus 2
check "2 vCPUs under icount: the QEMU that takes it gets the quantum" -- \
	grep -q -- '-accel tcg,thread=single,icount-quantum=20000 ' "$T/patched.argv"
check "... said in lab.json" -- \
	jq -e '.qemu_icount_quantum_ns == 20000' "$lab/lab.json"
check "... with no warning" -- bash -c "! grep -q 'takes no icount-quantum' '$T/two.err'"

boot patched one --clock icount:3 --cpus 1
check "1 vCPU: no quantum asked (there are no turns)" -- \
	grep -q -- '-accel tcg,thread=single -cpu' "$T/patched.argv"
check "... lab.json says 0" -- jq -e '.qemu_icount_quantum_ns == 0' "$lab/lab.json"

boot patched host --cpus 2 --accel tcg
check "2 vCPUs without icount: multi-threaded TCG, no quantum" -- \
	grep -q -- '-accel tcg,thread=multi -cpu' "$T/patched.argv"

boot plain unpatched --clock icount:3 --cpus 2
check "a QEMU without the property is not asked for it" -- \
	grep -q -- '-accel tcg,thread=single -cpu' "$T/plain.argv"
check "... and the run warns that a wake-up can wait out a turn" -- \
	grep -q "takes no icount-quantum: with 2 vCPUs under -icount a wake-up can wait out another vCPU's whole turn" "$T/unpatched.err"
check "... lab.json says 0" -- jq -e '.qemu_icount_quantum_ns == 0' "$lab/lab.json"

# The patch the lab carries is a patch to the file the quantum lives in.
check "lab/qemu/icount-quantum.patch touches QEMU's icount budget" -- \
	grep -q '^+++ b/accel/tcg/tcg-accel-ops-icount.c' "$TOP/lab/qemu/icount-quantum.patch"
done_testing
