#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Preemption models on 7.x x86 trees: the tree's kernel/Kconfig.preempt
# makes PREEMPT_NONE depend on ARCH_NO_PREEMPT and PREEMPT_VOLUNTARY on
# !ARCH_HAS_PREEMPT_LAZY, which x86 selects, so the preempt-none model
# cannot be built there. rtgate refuses it before any kconfig run, with
# the tree's reason. On small fake trees (no compiler needed: the refusal
# comes first), then on Debian's real 7.x tree when the cache holds one
# (tests/slow/kernel_debian_73.sh fetches it).
source "$(dirname "$0")/../lib.sh"

export RTGATE_OUT_DIR=$T/out
export RTGATE_CACHE_DIR=${RTGATE_CACHE_DIR:-$TOP/out/cache}
cfg() { "$RTGATE" kernel build --config-only --name t "$@" >"$T/out.txt" 2>"$T/err"; }
has() { grep -q -- "$1" "$2"; }

# fake_tree DIR VERSION NONE_DEPENDS X86_SELECTS...
fake_tree() {
	local d=$1 v=$2 dep=$3 s
	shift 3
	mkdir -p "$d/scripts/kconfig" "$d/kernel/configs" "$d/arch/x86"
	printf 'kernelversion:\n\t@echo %s\n' "$v" >"$d/Makefile"
	printf '#!/bin/sh\nexit 1\n' >"$d/scripts/kconfig/merge_config.sh"
	chmod +x "$d/scripts/kconfig/merge_config.sh"
	: >"$d/kernel/configs/kvm_guest.config"
	{
		printf 'config ARCH_HAS_PREEMPT_LAZY\n\tbool\n\nchoice\n'
		printf '\tprompt "Preemption Model"\n\n'
		printf 'config PREEMPT_NONE\n\tbool "No Forced Preemption"\n'
		printf '\tdepends on !PREEMPT_RT\n'
		[ -n "$dep" ] && printf '\tdepends on %s\n' "$dep"
		printf '\thelp\n\t  depends on ARCH_NOT_THIS_ONE\n\n'
		printf 'config PREEMPT_VOLUNTARY\n\tbool "Voluntary"\n'
		printf '\tdepends on !ARCH_HAS_PREEMPT_LAZY\n'
		printf '\tdepends on !ARCH_NO_PREEMPT\n\n'
		printf 'config PREEMPT\n\tbool "Preemptible"\n'
		printf '\tdepends on !ARCH_NO_PREEMPT\n\nendchoice\n'
	} >"$d/kernel/Kconfig.preempt"
	{
		printf 'config X86\n\tdef_bool y\n'
		for s in "$@"; do printf '\tselect %s\n' "$s"; done
	} >"$d/arch/x86/Kconfig"
}

fake_tree "$T/k73" 7.3.0 ARCH_NO_PREEMPT ARCH_HAS_PREEMPT_LAZY ARCH_HAS_FOO
cfg --src "$T/k73" --model none
is $? 3 "model none on an x86 7.x tree: exit 3"
check "names the fragment and line" -- \
	has 'kconfigs/preempt-none.config:2: CONFIG_PREEMPT_NONE=y cannot be built on this tree (7.3.0, x86)' "$T/err"
check "says why, from the tree's Kconfig.preempt" -- \
	has "PREEMPT_NONE 'depends on ARCH_NO_PREEMPT', and arch/x86/Kconfig does not select ARCH_NO_PREEMPT" "$T/err"
check "and why voluntary preemption is no way out" -- \
	has "PREEMPT_VOLUNTARY 'depends on !ARCH_HAS_PREEMPT_LAZY', and arch/x86/Kconfig selects ARCH_HAS_PREEMPT_LAZY" "$T/err"
check "refused before any kconfig run (no .config)" -- \
	test ! -e "$RTGATE_OUT_DIR/kernels/t/.config"

# The full model's dependencies hold: not refused (the fake merge then fails).
cfg --src "$T/k73" --model full
check "model full on the same tree is not refused" -- \
	bash -c "! grep -q 'cannot be built' '$T/err'"

# An architecture that has ARCH_NO_PREEMPT: PREEMPT_NONE is possible.
fake_tree "$T/knp" 7.3.0 ARCH_NO_PREEMPT ARCH_NO_PREEMPT
cfg --src "$T/knp" --model none
check "not refused where x86/Kconfig selects ARCH_NO_PREEMPT" -- \
	bash -c "! grep -q 'cannot be built' '$T/err'"
# A 6.x tree: PREEMPT_NONE depends on no ARCH_* property.
fake_tree "$T/k612" 6.12.0 "" ARCH_HAS_PREEMPT_LAZY
cfg --src "$T/k612" --model none
check "not refused on a 6.12-style Kconfig.preempt" -- \
	bash -c "! grep -q 'cannot be built' '$T/err'"

# Debian's real 7.x tree, when a slow test or a build left one in the cache.
real=$(find "$RTGATE_CACHE_DIR/src" -maxdepth 1 -type d -name "linux-source-7.*_*" 2>/dev/null | sort | tail -1)
if [ -z "$real" ]; then
	skip "no linux-source-7.x in $RTGATE_CACHE_DIR/src" "model none on Debian's 7.x tree"
else
	cfg --src "$real" --model none
	is $? 3 "model none on $(basename "$real"): exit 3"
	check "... for the reason the tree gives" -- \
		has "PREEMPT_NONE 'depends on ARCH_NO_PREEMPT', and arch/x86/Kconfig does not select" "$T/err"
fi

done_testing
