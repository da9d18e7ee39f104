#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# faults.sh - run the boot gate on the head of b4/safer-fput with one seeded
# fault applied (tests/fixtures/faults/[KVER/]NAME.patch, or none), in the gate's
# worktree and build dirs (GATE_WT, gate_build_dir): the branch and $TREE's
# checkout are never touched. The worktree is reset to the head first, so a
# fault's rebuild is incremental from the gate's build of the head.
#
# usage: faults.sh CONFIG [FIXTURE]   (prints boot.sh's output)
set -euo pipefail
PROG=faults
. "$(dirname "$0")/lib-boot.sh"
workdir_lock

case $# in
1 | 2) ;;
*) die "usage: faults.sh CONFIG [FIXTURE]" ;;
esac
config=$1 fixture=${2:-}
check_config "$config"
require_tree
head=$(tgit rev-parse -q --verify "refs/heads/$BRANCH^{commit}") ||
	die "no branch $BRANCH in $TREE (run 'make series')"
# A fault is one patch; a base whose code differs has its own form of it
# in tests/fixtures/faults/KVER/, used in place of the common one.
patch=
if [ -n "$fixture" ]; then
	faults=$TOP/tests/fixtures/faults
	patch=$faults/$KVER/$fixture.patch
	[ -f "$patch" ] || patch=$faults/$fixture.patch
	[ -f "$patch" ] || die "no fixture $fixture in $faults/$KVER or $faults (have: $(find "$faults" -maxdepth 1 -name '*.patch' -printf '%f ' | sed 's/\.patch//g'))"
fi

wt=$GATE_WT
# Fault runs had a worktree and build dirs of their own before they shared
# the gate's: drop them (several GB) once.
if [ -d "$WORKDIR/faults" ]; then
	tgit worktree remove --force "$WORKDIR/faults/linux-$KVER" 2>/dev/null || true
	rm -rf "$WORKDIR/faults"
	tgit worktree prune
fi
# Back to the pristine head: drop the previous fixture, keep mtimes of
# unchanged files (incremental rebuild).
scratch_worktree "$wt" "$head"
if [ -n "$patch" ]; then
	git -C "$wt" apply --index "$patch" ||
		die "fixture $fixture does not apply on $BRANCH at ${head:0:12}"
fi
stage "faults: ${fixture:-no fixture} on $BRANCH at ${head:0:12} in $wt"
BOOT_REPRODUCE=$(reproduce fault "CONFIG=$config" ${fixture:+"FIXTURE=$fixture"})
export BOOT_REPRODUCE
"$BOOT/boot.sh" "$config" "$wt" "$(gate_build_dir "$config")"
