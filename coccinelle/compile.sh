#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# compile.sh TREE FILE... - compile each kernel .c FILE of TREE as the work
# tree has it (uncommitted changes included): generate.sh runs it on what
# the semantic patches wrote before it commits anything, so a conversion
# that does not compile is never committed.
#
# Builds FILE's object alone ("make fs/coda/inode.o") in TREE's own build
# dir for $ARCH and COCCI_CONFIG (boot/configs name, default lockdep):
# build_dir beside TREE, configured by boot/kconfig.sh, which keeps its
# .config while no Kconfig file, Makefile or script changed. kbuild
# compiles a single object even where the config leaves it out, and there
# it may fail for reasons of its own (6.1's fs/affs without CONFIG_BLOCK):
# a file whose object fails is compiled again as HEAD has it, and if that
# fails too the config is what is wrong, and the message says so.
#
# A header or a file of another arch cannot be compiled alone: refused.
# Fails with the compiler's first error; prints one verdict line.
set -euo pipefail
PROG=compile
# shellcheck source=../boot/lib-boot.sh
. "$(dirname "$0")/../boot/lib-boot.sh"

[ $# -ge 2 ] || die "usage: compile.sh TREE FILE..."
src=$1
shift
config=${COCCI_CONFIG:-lockdep}
check_config "$config"
if [ ! -f "$src/Makefile" ] || [ ! -f "$src/Kconfig" ]; then
	die "$src is not a kernel tree: cannot compile $*"
fi
build=$(build_dir "$config" "$(cd "$src/.." && pwd)")

objs=()
for f; do
	case $f in
	*.c) ;;
	*) die "$f is not a .c file: a conversion there cannot be compiled alone (refused)" ;;
	esac
	[ -n "$(printf '%s\n' "$f" | own_files)" ] ||
		die "$f is not built on $ARCH: compile it with ARCH=<its arch> (refused)"
	[ -f "$src/$f" ] || die "no $f in $src"
	objs+=("${f%.c}.o")
done

hold_kbuild_lock "$0" "$src" "$@"

"$BOOT/kconfig.sh" "$src" "$build" "$config"
log=$build/compile.log
stage "compile: ${#objs[@]} objects in $build"
if kmake "$src" "$build" -j"$(nproc)" "${objs[@]}" >"$log" 2>&1; then
	printf 'compile: PASS (%d files of %s, %s %s)\n' "${#objs[@]}" "$src" "$ARCH" "$config"
	exit 0
fi

# first_error FILE: the compiler's first error in FILE, as kbuild logged it
# building FILE alone.
first_error() {
	grep -m1 -E "^(.*/)?$1:[0-9]+:([0-9]+:)? (fatal )?error: " "$log.one" || :
}

# Which file failed: the first whose own error is logged, else each again
# alone. A file that fails as HEAD has it too is the config's fault.
tmp=$(mktemp -d)
# The converted file goes back in place, however this ends.
restore=
trap '[ -z "$restore" ] || cp "$tmp/new.c" "$src/$restore"; rm -rf "$tmp"' EXIT
for f; do
	if kmake "$src" "$build" "${f%.c}.o" >"$log.one" 2>&1; then
		continue
	fi
	err=$(first_error "$f")
	git -C "$src" show "HEAD:$f" >"$tmp/orig.c" 2>/dev/null ||
		die "$f does not compile: ${err:-$(grep -m1 -E 'error|Error' "$log.one")}"
	cp "$src/$f" "$tmp/new.c"
	restore=$f
	cp "$tmp/orig.c" "$src/$f"
	rc=0
	kmake "$src" "$build" "${f%.c}.o" >"$tmp/orig.log" 2>&1 || rc=$?
	cp "$tmp/new.c" "$src/$f"
	restore=
	[ "$rc" = 0 ] ||
		die "$f does not compile as HEAD has it either, with the $config config of $ARCH: enable it in boot/configs/series.config"
	die "$f does not compile: ${err:-$(grep -m1 -E 'error|Error' "$log.one")}"
done
# Together they failed, alone each compiles: a make error of its own, in
# the log of the build of them all.
die "make failed on ${objs[*]}: $(grep -m1 -E 'error|Error' "$log" || tail -n 1 "$log")"
