#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build.sh - every commit of the revision builds on its own, warning-free.
#
# Builds each commit in turn, for each arch of CHECK_ARCHS (boot/arch names,
# default $ARCH) and each config of CHECK_CONFIGS (boot/configs names;
# KUNIT_ALL_TESTS is on, so the tests build too), in the gate's worktree
# (GATE_WT: the gate then boots the head this leaves built) with one
# incremental build dir per arch and config. An arch builds the
# commits that touch generic code or its own arch/ directory; a commit that
# only touches other arches' directories is skipped there, and says so.
# The base is built first (once: its warnings are kept): a
# compiler warning fails a commit unless the base already had it (file and
# message compared, line numbers stripped; KUNIT_ALL_TESTS builds of 6.1
# already warn, e.g. fs/binfmt_elf_test.c's frame size).
#
# A commit that builds proves nothing about a file the config leaves out:
# every kernel .c file a commit adds or changes must have been compiled
# by that commit's build (its object, or the object of the file that
# #includes it, no older than the source that check_worktree just
# wrote), else the commit fails as "not compiled".
#
# A pass is kept in $WORKDIR/results/KVER/vN/build/ARCH-CONFIG/ and reused while
# its key (below) holds; failures are always built again.
set -euo pipefail
PROG=build
# shellcheck source=lib-checks.sh
. "$(dirname "$0")/lib-checks.sh"

check_rev
require_tree
configs=${CHECK_CONFIGS:-lockdep}
arches=${CHECK_ARCHS:-$ARCH}
for config in $configs; do
	check_config "$config"
done
for arch in $arches; do
	(load_arch "$arch")
done
mapfile -t commits < <(check_commits)
[ "${#commits[@]}" -gt 0 ] || die "no commits to check in $(check_range)"

# warnings FILE: a build log's compiler warnings, line numbers stripped.
warnings() {
	grep 'warning:' "$1" | sed -E 's/:[0-9]+:[0-9]+: /: /' | sort -u || true
}

# not_compiled COMMIT BUILD: the kernel .c files COMMIT adds or changes that
# the build in BUILD did not compile (tools/ is user space: the boot builds
# it; another arch's directory is that arch's build's business).
not_compiled() {
	local f obj
	tgit diff --no-renames --name-only --diff-filter=AM "$1^" "$1" -- '*.c' \
		':!tools/' ':!scripts/' ':!samples/' ':!Documentation/' |
		own_files |
	while IFS= read -r f; do
		obj=$(compiled_as "$2" "$f")
		[ -n "$obj" ] && [ ! "$CHECK_WT/$f" -nt "$2/$obj" ] ||
			printf '%s ' "$f"
	done
}

# for_arch COMMIT: does COMMIT touch anything $SRCARCH builds: a file
# outside arch/, or one under arch/$SRCARCH/?
for_arch() {
	[ -n "$(tgit diff --name-only "$1^" "$1" | own_files)" ]
}

# Results are kept per commit and cell, keyed by what decides them: the
# trees of the commit, its parent and the base, the cell's kconfig fragments and arch file,
# the compiler, and these scripts. A later run (the warm gate, a rebuild
# of the branch that changed only the cover letter or a later patch)
# reuses a pass whose key did not change instead of building again.
# cell_key: the part of the key shared by every commit of the cell.
cell_key() {
	{
		config_fragments "$config" | xargs cat
		cat "$BOOT/arch/$ARCH.conf"
		"${CROSS_COMPILE:-}gcc" --version | head -n 1
		cat "$0" "$TOP/checks/lib-checks.sh" "$BOOT/kbuild.sh" "$BOOT/kconfig.sh" \
			"$BOOT/lib-boot.sh" "$TOP/scripts/lib.sh"
	} | sha256sum | cut -c1-16
}
results=$WORKDIR/results/$KVER/$REV/build

base=$(tgit rev-parse "${commits[0]}^")
failed=0 bad='' builds=0 skipped=0 reused=0
declare -A built=()
for arch in $arches; do
	load_arch "$arch"
	for config in $configs; do
		cell="$ARCH $config"
		build=$(gate_build_dir "$config")
		key=$(cell_key)
		dir=$results/$ARCH-$config
		mkdir -p "$dir"
		table_open "build-$ARCH-$config"
		# The base's warnings, kept like a pass: a later run that builds
		# one changed commit starts from the build dir as it is instead of
		# building the base again (on a file.h change, nearly all of it).
		basew=$dir/base-$(tgit rev-parse "$base^{tree}" | cut -c1-24)-$key.warnings
		based=
		[ ! -f "$basew" ] || based=1
		i=0
		for c in "${commits[@]}"; do
			i=$((i + 1))
			subj=$(tgit log -1 --format=%s "$c")
			if ! for_arch "$c"; then
				stage "build $cell [$i/${#commits[@]}] $subj: skipped, touches no file $ARCH builds"
				table_row "$i" skip "$subj"
				skipped=$((skipped + 1))
				continue
			fi
			built[$c]=1
			# The parent's tree too: what "not compiled" and the new
			# warnings see is the change from the parent to the commit.
			res=$dir/$(tgit rev-parse "$base^{tree}" "$c^^{tree}" "$c^{tree}" | sha256sum | cut -c1-24)-$key
			if [ -f "$res" ]; then
				stage "build $cell [$i/${#commits[@]}] $subj: PASS reused ($res)"
				table_row "$i" pass "$subj"
				reused=$((reused + 1))
				continue
			fi
			if [ -z "$based" ]; then
				stage "build $cell [base] ${base:0:12}"
				check_worktree "$base"
				"$BOOT/kbuild.sh" "$CHECK_WT" "$build" "$config" ||
					die "the base ${base:0:12} does not build ($cell)"
				warnings "$build/build.log" >"$basew.tmp"
				mv "$basew.tmp" "$basew"
				based=1
			fi
			stage "build $cell [$i/${#commits[@]}] $subj"
			builds=$((builds + 1))
			check_worktree "$c"
			# The build dir may be at any commit (the base is not built
			# again once its warnings are kept): what this commit changes
			# is compiled now, so its warnings are in this build's log.
			tgit diff --no-renames --name-only --diff-filter=AM "$c^" "$c" |
				(cd "$CHECK_WT" && xargs -r touch --)
			if ! "$BOOT/kbuild.sh" "$CHECK_WT" "$build" "$config" 2>"$build.err"; then
				failed=$((failed + 1))
				bad="$bad${bad:+, }'$subj' ($cell: does not build)"
				sed 's/^/       /' "$build.err"
				table_row "$i" fail "$subj"
				continue
			fi
			new=$(warnings "$build/build.log" | comm -23 - "$basew")
			if [ -n "$new" ]; then
				failed=$((failed + 1))
				bad="$bad${bad:+, }'$subj' ($cell: new warnings)"
				printf '%s\n' "$new" | sed 's/^/       /'
			fi
			left=$(not_compiled "$c" "$build")
			if [ -n "$left" ]; then
				failed=$((failed + 1))
				bad="$bad${bad:+, }'$subj' ($cell: not compiled: ${left% })"
				echo "       $cell leaves out ${left% }: enable it in boot/configs"
				table_row "$i" fail "$subj"
				continue
			fi
			if [ -n "$new" ]; then
				table_row "$i" fail "$subj"
			else
				printf '%s %s\n' "$c" "$subj" >"$res"
				table_row "$i" pass "$subj"
			fi
		done
		table_close
	done
done
# A commit skipped here is another arch's to build (make gate ARCH=...,
# gate-full builds them all); one that no arch of boot/arch/ builds would
# never be checked at all.
for c in "${commits[@]}"; do
	[ -z "${built[$c]:-}" ] || continue
	any=
	for a in $(list_arches); do
		if (load_arch "$a" && for_arch "$c"); then
			any=$a
			break
		fi
	done
	if [ -z "$any" ]; then
		failed=$((failed + 1))
		bad="$bad${bad:+, }'$(tgit log -1 --format=%s "$c")' (no arch of boot/arch builds it: $(list_arches))"
	fi
done
if [ "$failed" -eq 0 ]; then
	detail="${#commits[@]} commits x ${arches// /+} x ${configs// /+}: $builds builds"
	[ "$reused" = 0 ] || detail="$detail, $reused passes reused"
	[ "$skipped" = 0 ] || detail="$detail, $skipped skipped (other arch)"
	verdict build 0 "$detail, each with no new warning, compiling what it touches"
else
	verdict build "$failed" "$bad"
fi
