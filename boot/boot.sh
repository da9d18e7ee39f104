#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# boot.sh - the boot gate for one cell (ARCH from the environment, CONFIG):
# build (kbuild.sh), initramfs (initramfs.sh), boot in QEMU (qemu-run.sh),
# tests (verdict.sh). Prints a progress line per stage and ends with one
# verdict line:
#   gate vN ARCH CONFIG: PASS (k suites, n tests, ACCEL)
#   gate vN ARCH CONFIG: FAIL: reason; reproduce: make ... [ACCEL=...]
# ACCEL is kvm or tcg (lib-boot.sh choose_accel).
# With --record (`make gate`), it boots the committed head of $BRANCH in
# the gate's worktree (GATE_WT, boot/lib-boot.sh), and a pass writes the gate
# record (gate-check).
#
# usage: boot.sh [--record] CONFIG [SRC [BUILD]]
#   SRC defaults to $WORKDIR/linux-$KVER, BUILD to $WORKDIR/build-KVER-ARCH-CONFIG;
#   with --record they are the gate's worktree and gate_build_dir CONFIG.
set -euo pipefail
PROG=boot
. "$(dirname "$0")/lib-boot.sh"
workdir_lock

record=
if [ "${1:-}" = --record ]; then
	record=1
	shift
fi
case $# in
1 | 2 | 3) ;;
*) die "usage: boot.sh [--record] CONFIG [SRC [BUILD]]" ;;
esac
config=$1
check_config "$config"
# Test selection (kunit.py's filter_glob, a subset of the guest tests) is
# for a developer's boot: a gate record says every test ran and passed.
if [ -n "$record" ] && [ -n "${KUNIT:-}${SELFTESTS:-}" ]; then
	die "a gate runs every test: KUNIT=${KUNIT:-} SELFTESTS=${SELFTESTS:-} are for 'make boot'"
fi
check_selftests
# A gate is of a revision; `make boot` of a tree whose KVER has no series
# yet (series/KVER/) boots it all the same, as a gate of no revision.
if [ -n "$record" ] || [ -f "$SERIES_CONF" ]; then
	check_rev
fi
if [ -n "$record" ]; then
	[ $# -eq 1 ] || die "usage: boot.sh --record CONFIG (it boots $BRANCH in $GATE_WT)"
	require_tree
	head=$(tgit rev-parse -q --verify "refs/heads/$BRANCH^{commit}") ||
		die "no branch $BRANCH in $TREE (run 'make series')"
	scratch_worktree "$GATE_WT" "$head"
	set -- "$config" "$GATE_WT" "$(gate_build_dir "$config")"
fi
src=${2:-$TREE}
build=${3:-$(build_dir "$config")}
[ -f "$src/Makefile" ] || die "no kernel tree at $src (run 'make tree' and 'make series')"
src=$(cd "$src" && pwd)
mkdir -p "$build"
build=$(cd "$build" && pwd)
run=$build/boot
label="gate ${REV:+$REV }$ARCH $config"

# The command that redoes this boot from a fresh shell, for a FAIL verdict:
# the caller's (boot/faults.sh), else `make gate` or `make boot`, else this
# script as it was called.
if [ -n "${BOOT_REPRODUCE:-}" ]; then
	repro=$BOOT_REPRODUCE
elif [ -n "$record" ]; then
	repro=$(reproduce gate "CONFIG=$config")
elif [ "$src" = "$(cd "$TREE" 2>/dev/null && pwd)" ] && [ $# -lt 3 ]; then
	repro=$(reproduce boot "CONFIG=$config")
else
	repro="KVER=$KVER ARCH=$ARCH WORKDIR=$(printf '%q' "$WORKDIR") $(printf '%q ' "$0" "$@")"
	repro=${repro% }
fi
unset BOOT_REPRODUCE

# The verdict line, also kept with the build (with the head it is of) for
# boot/bisect.sh, which starts from a failed gate's reason. A FAIL ends
# with the command that reproduces it.
verdict() {
	local dirty=
	case $* in
	FAIL:*)
		# A failed gate of a series of several patches: which one is
		# the first bad is `make bisect`'s question, asked by BISECT=1.
		if [ -n "$record" ] && [ "${BISECT:-0}" = 0 ] &&
			[ "$(git -C "$src" rev-list --count "$base..$head" 2>/dev/null || echo 0)" -gt 2 ]; then
			note "the first bad patch: $(reproduce bisect "CONFIG=$config") (BISECT=1 runs it)"
		fi
		printf '%s: %s; reproduce: %s%s\n' "$label" "$*" "$repro" "${accel:+ ACCEL=$accel}" ;;
	*)
		if [ -n "$accel" ]; then
			printf '%s: %s, %s)\n' "$label" "${1%)}" "$accel"
		else
			printf '%s: %s\n' "$label" "$*"
		fi
		;;
	esac
	# A dirty tree's verdict is not the head's.
	[ -z "$(git -C "$src" status --porcelain --untracked-files=no 2>/dev/null)" ] || dirty=+dirty
	printf 'head %s%s\n%s: %s\n' "${head:-}" "$dirty" "$label" "$*" >"$build/safer-fput.verdict" 2>/dev/null || true
}

accel=
base_ref=$(gate_base_tag)
base=$(git -C "$src" rev-parse -q --verify "$base_ref^{commit}") ||
	missing_base "$base_ref"
head=$(git -C "$src" rev-parse HEAD)
# What the record will say was gated, taken before the build reads it.
inputs=$(gate_inputs "$config")
stage "$label: $(git -C "$src" rev-list --count "$base..$head") commits on $base_ref at ${head:0:12} in $src"

# Nothing of an earlier boot may outlive a failed build: its results,
# head and initramfs would pass for this one's (lava/job.sh reuses them).
rm -rf "$run"
stage "build: $config kernel in $build"
if ! KBUILD_REUSE=1 "$BOOT/kbuild.sh" "$src" "$build" "$config"; then
	verdict "FAIL: kernel build failed (see $build/build.log)"
	exit 1
fi

stage "initramfs: busybox + tests"
rm -rf "$run"
mkdir -p "$run"
# What this boot is of, for whoever reuses its artifacts (lava/job.sh).
dirty=
[ -z "$(git -C "$src" status --porcelain --untracked-files=no)" ] || dirty=+dirty
printf '%s%s\n' "$head" "$dirty" >"$run/head"
# The image booted is a copy beside that head: the build dir is shared with
# the per-commit builds and sparse (GATE_WT), which rebuild it at other
# commits, and lava/job.sh must hand a lab the kernel this boot was of.
cp "$build/$KERNEL_IMAGE" "$run/${KERNEL_IMAGE##*/}"
if ! "$BOOT/initramfs.sh" "$src" "$build" "$run"; then
	verdict "FAIL: initramfs build failed (see $run/cc.log)"
	exit 1
fi

secs=$(boot_timeout "$config")
choose_accel "$run/${KERNEL_IMAGE##*/}" "$run/initramfs.cpio.gz"
accel=$ACCEL_USED
stage "boot: $QEMU -accel $accel ($ACCEL_WHY), timeout $secs s, console $run/console.log"
qrc=0
QEMU_ACCEL=$accel "$BOOT/qemu-run.sh" "$run/${KERNEL_IMAGE##*/}" "$run/initramfs.cpio.gz" \
	"$run/console.log" "$secs" ${KUNIT:+"kunit.filter_glob=$KUNIT"} || qrc=$?
[ "$qrc" = 0 ] || [ "$qrc" = 124 ] || { verdict "FAIL: QEMU did not run"; exit 1; }

stage "tests: KTAP of the KUnit suites and guest tests"
vrc=0
result=$("$BOOT/verdict.sh" "$src" "$config" "$run/console.log" "$qrc" "$secs" "$run") ||
	vrc=$?
[ -n "$result" ] || result="FAIL: verdict.sh failed"
if [ -f "$run/results.tsv" ]; then
	awk -F'\t' '{ split($2, s, "."); k = $1 " " s[1]; n[k]++; if ($4 == "PASS") p[k]++;
		if ($4 == "SKIP") sk[k]++ }
		END { for (k in n) printf "  %-40s %3d tests, %3d passed, %3d skipped\n",
			k, n[k], p[k], sk[k] }' "$run/results.tsv" | sort >&2
fi
stage "done"
if [ "$vrc" != 0 ]; then
	verdict "$result"
	exit 1
fi

# A pass is recorded before its verdict line, which stays the last line.
if [ -n "$record" ]; then
	# The build read the worktree and boot/: a change to either
	# meanwhile was built, and is not the head or the inputs the record
	# names.
	if [ "$(git -C "$src" rev-parse HEAD)" != "$head" ] ||
		[ -n "$(git -C "$src" status --porcelain --untracked-files=no)" ] ||
		[ -n "$(untracked "$src" | head -n 1)" ] ||
		[ "$(gate_inputs "$config")" != "$inputs" ]; then
		verdict "FAIL: $src or boot/ changed during the gate: nothing recorded"
		exit 1
	fi
	rec=$(record_file "$config")
	mkdir -p "${rec%/*}"
	{
		printf 'revision %s\narch %s\nconfig %s\nbranch %s\n' "$REV" "$ARCH" "$config" "$BRANCH"
		printf 'base %s %s\nhead %s\n' "$base" "$base_ref" "$head"
		git -C "$src" log --reverse --format='commit %H %s' "$base..$head"
		printf 'kconfig-sha256 %s\n' "$(sha256sum <"$build/.config" | cut -d' ' -f1)"
		printf 'accel %s (%s)\n' "$accel" "$ACCEL_WHY"
		printf 'inputs-sha256 %s\n' "$inputs"
		# The per-patch results of the checks of this head (checks/
		# checkpatch.sh, build.sh), for the cover letter's table.
		for t in "$WORKDIR/results/$KVER/$REV"/*.tsv; do
			if [ ! -f "$t" ] || [ "$(head -n 1 "$t")" != "# head $head" ]; then
				continue
			fi
			t=${t##*/}
			tail -n +2 "$WORKDIR/results/$KVER/$REV/$t" | sed "s/^/patch ${t%.tsv}\t/"
		done
		printf 'verdict %s: %s\n' "$label" "${result%)}, $accel)"
		printf 'date %s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
	} >"$rec.tmp"
	cp "$run/console.log" "${rec%.record}.console"
	mv "$rec.tmp" "$rec"
	# Keep the gated commits reachable: gate-check compares them with the
	# branch after a rebuild that only changed the cover letter.
	git -C "$src" update-ref "refs/safer-fput/gated/$REV-$ARCH-$config" "$head"
	note "gate record: $rec"
fi
verdict "$result"
