#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# sparse.sh - the revision adds no sparse warning.
#
# sparse 0.6.4 exits 0 even when it warns, and the tree already warns in
# places, so this compares: `make C=2` over the directories the series
# touches, at the base and at the head, line numbers stripped; a warning
# that only the head has fails the check.
set -euo pipefail
PROG=sparse
# shellcheck source=lib-checks.sh
. "$(dirname "$0")/lib-checks.sh"

check_rev
require_tree
command -v sparse >/dev/null || die "sparse not found (run 'make deps')"
config=${SPARSE_CONFIG:-lockdep}
# sparse checks what the arch builds: ARCH's (SPARSE_ARCH overrides it),
# over the directories of the series outside other arches' arch/ dirs.
load_arch "${SPARSE_ARCH:-$ARCH}"
range=$(check_range)
base=${range%%..*}
head=${range##*..}
# Directories holding the .c files the series touches (tools/ is userspace).
mapfile -t dirs < <(tgit diff --name-only "$range" -- '*.c' ':!tools' ':!Documentation' |
	own_files |
	xargs -r -n1 dirname | sort -u | sed 's|$|/|')
if [ "${#dirs[@]}" -eq 0 ]; then
	verdict sparse 0 "no kernel .c file touched"
	exit 0
fi
build=$(build_dir sparse "$WORKDIR/check")
out=$WORKDIR/check/sparse-$ARCH
mkdir -p "$out"

# A pass is kept per base and head tree, directories, arch, kconfig
# fragments, sparse and these scripts, and reused while that key holds
# (the warm gate, a rebuild that changed only the cover letter).
key=$({
	tgit rev-parse "$base^{tree}" "$head^{tree}"
	printf '%s\n' "${dirs[@]}"
	config_fragments "$config" | xargs cat
	cat "$BOOT/arch/$ARCH.conf" "$0" "$TOP/checks/lib-checks.sh" "$BOOT/kconfig.sh" "$BOOT/lib-boot.sh"
	sparse --version 2>&1
} | sha256sum | cut -c1-24)
res=$WORKDIR/results/$REV/sparse/$ARCH-$config-$key
if [ -f "$res" ]; then
	stage "sparse: base and head unchanged since $res"
	verdict sparse 0 "$(cat "$res"), reused"
	exit 0
fi

# sparse_run REF FILE: the sparse lines of a C=2 pass over dirs at REF.
sparse_run() {
	check_worktree "$1"
	"$BOOT/kconfig.sh" "$CHECK_WT" "$build" "$config" >/dev/null
	locked kmake "$CHECK_WT" "$build" -j"$(nproc)" \
		C=2 CF=-fdiagnostic-prefix prepare "${dirs[@]}" >"$2.log" 2>&1 ||
		die "sparse build of ${1:0:12} failed, see $2.log"
	grep 'sparse:' "$2.log" | sed -E 's/:[0-9]+:[0-9]+:/:/' | sort >"$2" || true
}

stage "sparse at base: ${dirs[*]}"
sparse_run "$base" "$out/base"
stage "sparse at head: ${dirs[*]}"
sparse_run "$head" "$out/head"
# comm -13: lines only the head has (a multiset difference on sorted input).
new=$(comm -13 "$out/base" "$out/head")
if [ -z "$new" ]; then
	mkdir -p "${res%/*}"
	printf '%s warnings at head, none new in %s' "$(wc -l <"$out/head")" "${dirs[*]}" >"$res"
	verdict sparse 0 "$(cat "$res")"
else
	printf '%s\n' "$new" | sed 's/^/       /'
	verdict sparse "$(printf '%s\n' "$new" | wc -l)" "$(printf '%s\n' "$new" | wc -l) new sparse warnings"
fi
