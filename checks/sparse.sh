#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# sparse.sh - the revision adds no sparse warning.
#
# sparse 0.6.4 exits 0 even when it warns, and the tree already warns in
# places, so this compares: `make C=2` on each .c file the series adds or
# changes that the config compiles, at the base and at the head, line
# numbers stripped; a warning that only the head has fails the check.
# Warnings in headers show up through the files that include them; a file
# the series does not touch is not checked (as the kernel test robot does).
#
# The head is checked in the gate's build (gate_build_dir: the per-commit
# build leaves it at the head, so only sparse runs there); its objects also
# tell which files the config compiles. The base is checked in a worktree
# and build dir of its own ($WORKDIR/sparse), so the gate's are not moved
# away from the head.
set -euo pipefail
PROG=sparse
# shellcheck source=lib-checks.sh
. "$(dirname "$0")/lib-checks.sh"

check_rev
require_tree
# A base whose Makefile refuses the machine's sparse names the suite whose
# sparse it takes (SERIES_SPARSE_SUITE); make deps builds that one. SPARSE
# names another checker (a test gives the one the tree refuses).
if [ -n "${SPARSE:-}" ]; then
	[ -x "$SPARSE" ] || die "SPARSE=$SPARSE is not an executable"
elif [ -n "${SERIES_SPARSE_SUITE:-}" ]; then
	SPARSE=$WORKDIR/tools/sparse-$SERIES_SPARSE_SUITE/sparse
	[ -x "$SPARSE" ] || die "no sparse of $SERIES_SPARSE_SUITE at $SPARSE (run 'make deps KVER=$KVER')"
else
	SPARSE=$(command -v sparse) || die "sparse not found (run 'make deps')"
fi
config=${SPARSE_CONFIG:-lockdep}
check_config "$config"
# sparse checks what the arch builds: ARCH's (SPARSE_ARCH overrides it).
load_arch "${SPARSE_ARCH:-$ARCH}"
range=$(check_range)
base=${range%%..*}
head=${range##*..}
base=$(tgit rev-parse "$base^{commit}")
head=$(tgit rev-parse "$head^{commit}")
mapfile -t files < <(tgit diff --no-renames --name-only --diff-filter=AM "$base" "$head" -- '*.c' \
	':!tools/' ':!scripts/' ':!samples/' ':!Documentation/' | own_files)
if [ "${#files[@]}" -eq 0 ]; then
	verdict sparse 0 "no kernel .c file touched"
	exit 0
fi
# The tree's own test of the checker (scripts/checker-valid.sh, in 7.3, not
# in 6.1 or 6.12), run at the head before anything is built: kbuild runs
# it too, but only after the whole kernel is built does its refusal show.
if valid=$(tgit show "$head:scripts/checker-valid.sh" 2>/dev/null); then
	t=$(mktemp)
	printf '%s\n' "$valid" >"$t"
	ok=$(sh "$t" "$SPARSE" 2>/dev/null) || ok=
	rm -f "$t"
	[ "$ok" = 1 ] ||
		verdict sparse 1 "the tree refuses $SPARSE ($("$SPARSE" --version 2>&1)): its scripts/checker-valid.sh fails, kbuild would turn C=2 off"
fi
out=$WORKDIR/check/sparse-$KVER-$ARCH
mkdir -p "$out"
# The build dir of the directory-wide passes this check used to make.
rm -rf "$WORKDIR/check/build-$ARCH-sparse"

# A pass is kept per base and head tree, files, arch, kconfig fragments,
# sparse and these scripts, and reused while that key holds (the warm gate,
# a rebuild that changed only the cover letter).
# tool_key: what every result of this check depends on besides the trees.
tool_key() {
	config_fragments "$config" | xargs cat
	cat "$BOOT/arch/$ARCH.conf" "$0" "$TOP/checks/lib-checks.sh" "$BOOT/kbuild.sh" \
		"$BOOT/kconfig.sh" "$BOOT/lib-boot.sh" "$TOP/scripts/lib.sh"
	"$SPARSE" --version 2>&1
	cksum <"$SPARSE"
}
key=$({
	tgit rev-parse "$base^{tree}" "$head^{tree}"
	printf '%s\n' "${files[@]}"
	tool_key
} | sha256sum | cut -c1-24)
res=$WORKDIR/results/$KVER/$REV/sparse/$ARCH-$config-$key
if [ -f "$res" ]; then
	stage "sparse: base and head unchanged since $res"
	verdict sparse 0 "$(cat "$res"), reused"
	exit 0
fi

# sparse_run SRC BUILD FILE OBJS...: the sparse lines of `make C=2` on OBJS,
# source paths relative to the tree (kbuild hands sparse the real path of
# the tree), line numbers stripped.
sparse_run() {
	local src build res=$3
	src=$(cd "$1" && pwd -P) build=$(cd "$2" && pwd -P)
	shift 3
	locked kmake "$src" "$build" -j"$(nproc)" C=2 CHECK="$SPARSE" CF=-fdiagnostic-prefix \
		"$@" >"$res.log" 2>&1 ||
		die "sparse build in $src failed, see $res.log"
	# The kernel's Makefile turns C=2 off with a warning when
	# scripts/checker-valid.sh refuses the checker: no line of sparse
	# then is no pass.
	if grep -q 'specified, but .* is not available or not up to date' "$res.log"; then
		verdict sparse 1 "the tree refuses $SPARSE ($("$SPARSE" --version 2>&1)): $(grep -m1 'not available or not up to date' "$res.log" | sed 's/^[^ ]*: //')"
	fi
	grep 'sparse:' "$res.log" |
		awk -v s="$src/" -v b="$build/" '{
			while ((i = index($0, s)) > 0) $0 = substr($0, 1, i - 1) substr($0, i + length(s))
			while ((i = index($0, b)) > 0) $0 = substr($0, 1, i - 1) substr($0, i + length(b))
			print }' |
		sed -E 's/:[0-9]+:[0-9]+:/:/' | sort >"$res" || true
}

stage "sparse at head: build ${head:0:12} (incremental, the gate's build)"
check_worktree "$head"
gbuild=$(gate_build_dir "$config")
KBUILD_REUSE=1 "$BOOT/kbuild.sh" "$CHECK_WT" "$gbuild" "$config" ||
	die "the head ${head:0:12} does not build ($ARCH $config, see $gbuild/build.log)"
objs=() left=''
for f in "${files[@]}"; do
	o=$(compiled_as "$gbuild" "$f")
	if [ -z "$o" ]; then
		left="$left $f"
	elif [[ " ${objs[*]} " != *" $o "* ]]; then
		# A file another one #includes is checked in its includer.
		objs+=("$o")
	fi
done
# A file the config leaves out is not checked, which is no pass (check-build
# fails its commit for the same reason).
[ -z "$left" ] ||
	verdict sparse 1 "the $config config does not compile:$left (enable it in boot/configs)"
stage "sparse at head: ${objs[*]}"
sparse_run "$CHECK_WT" "$gbuild" "$out/head" "${objs[@]}"

# At the base, the objects of the files it has.
sbuild=$(build_dir "$config" "$WORKDIR/sparse")
swt=$WORKDIR/sparse/linux-$KVER
bobjs=()
for o in "${objs[@]}"; do
	! tgit cat-file -e "$base:${o%.o}.c" 2>/dev/null || bobjs+=("$o")
done
: >"$out/base"
# The base's lines depend on neither the head nor the revision: kept per
# base tree and objects (and what the whole key holds but the head), so a
# re-gate after an edit of the series does not check the base again.
bkey=$({
	tgit rev-parse "$base^{tree}"
	printf '%s\n' "${bobjs[@]}"
	tool_key
} | sha256sum | cut -c1-24)
bres=$WORKDIR/results/$KVER/sparse-base/$ARCH-$config-$bkey
if [ "${#bobjs[@]}" -gt 0 ] && [ -f "$bres" ]; then
	stage "sparse at base ${base:0:12}: ${bobjs[*]}: reused ($bres)"
	cp "$bres" "$out/base"
elif [ "${#bobjs[@]}" -gt 0 ]; then
	stage "sparse at base ${base:0:12}: ${bobjs[*]}"
	scratch_worktree "$swt" "$base"
	"$BOOT/kconfig.sh" "$swt" "$sbuild" "$config" >/dev/null
	sparse_run "$swt" "$sbuild" "$out/base" prepare "${bobjs[@]}"
	mkdir -p "${bres%/*}"
	cp "$out/base" "$bres.tmp"
	mv "$bres.tmp" "$bres"
fi
# comm -13: lines only the head has (a multiset difference on sorted input).
new=$(comm -13 "$out/base" "$out/head")
detail="$(wc -l <"$out/head") warnings at head, none new in ${#objs[@]} files"
if [ -z "$new" ]; then
	mkdir -p "${res%/*}"
	printf '%s' "$detail" >"$res"
	verdict sparse 0 "$detail"
else
	printf '%s\n' "$new" | sed 's/^/       /'
	verdict sparse "$(printf '%s\n' "$new" | wc -l)" "$(printf '%s\n' "$new" | wc -l) new sparse warnings"
fi
