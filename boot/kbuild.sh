#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kbuild.sh - configure (kconfig.sh) and build the kernel image of $ARCH
# (boot/arch/$ARCH.conf: KERNEL_TARGET, KERNEL_IMAGE) for CONFIG out of
# tree, with ccache, under the machine-wide build lock. Incremental.
#
# Also installs the uapi headers in BUILD/usr/include for the guest tests.
#
# KBUILD_REUSE=1 (sparse and the boot, which need a built tree, not a build
# log): skip kconfig and make when BUILD was last built, to the end, from
# the commit SRC has checked out, with SRC clean, the same config fragments,
# compiler and these scripts. The per-commit check builds the gate's head
# in the same BUILD just before; kbuild's own no-op pass over the tree
# costs about 40 s. Callers that read the build log (checks/build.sh) never
# reuse.
# The build's output goes to BUILD/build.log; every KBUILD_PROGRESS seconds
# (15) a line on stderr says how many objects it has compiled so far. V=1
# shows the whole output as well.
#
# usage: kbuild.sh SRC BUILD CONFIG
set -euo pipefail
PROG=kbuild
. "$(dirname "$0")/lib-boot.sh"

[ $# -eq 3 ] || die "usage: kbuild.sh SRC BUILD CONFIG"
src=$1 build=$2 config=$3
# Hold the lock once for configure + build: other helpers queue on it too.
hold_kbuild_lock "$0" "$@"

# built_from: what BUILD would hold if built now, or nothing if SRC has
# uncommitted changes (a seeded fault, a developer's edit). kconfig.sh
# makes .config from the commit's Kconfig and the fragments, so they stand
# for it (and the reuse skips kconfig.sh's 20 s too).
stamp=$build/.safer-fput-built
built_from() {
	[ -z "$(git -C "$src" status --porcelain --untracked-files=no 2>/dev/null)" ] || return 0
	{
		git -C "$src" rev-parse HEAD
		echo "$config"
		config_fragments "$config" | xargs cat
		cat "$BOOT/arch/$ARCH.conf" "$0" "$BOOT/kconfig.sh" "$BOOT/lib-boot.sh"
		"${CROSS_COMPILE}gcc" --version | head -n 1
	} | sha256sum | cut -d' ' -f1
}
from=$(built_from)
if [ "${KBUILD_REUSE:-0}" = 1 ] && [ -n "$from" ] && [ -f "$build/$KERNEL_IMAGE" ] &&
	[ "$(cat "$stamp" 2>/dev/null)" = "$from" ]; then
	stage "kbuild: $build is built from $(git -C "$src" rev-parse --short=12 HEAD) already: reused"
	exit 0
fi
# A build that stops half way leaves no stamp behind.
rm -f "$stamp"

"$BOOT/kconfig.sh" "$src" "$build" "$config"
log=$build/build.log
every=${KBUILD_PROGRESS:-15}
case $every in '' | *[!0-9]* | 0) die "KBUILD_PROGRESS=$every is not a number of seconds" ;; esac
rc=0
if [ "${V:-0}" = 1 ]; then
	kmake "$src" "$build" -j"$(nproc)" "$KERNEL_TARGET" headers 2>&1 | tee "$log" >&2 ||
		rc=$?
else
	# The reporter runs beside the build, which stays in the foreground
	# (an interrupt stops it as usual), and goes with this script; its
	# sleep holds no output open for a caller to wait on.
	: >"$log"
	(
		# Nor any lock: a sleep still running when this script ends
		# would keep $WORKDIR's lock (fd 7) taken for up to $every s,
		# and the next check of the same make would wait for it.
		exec 7>&-
		t=0
		while sleep "$every" >/dev/null 2>&1; do
			t=$((t + every))
			# kbuild's quiet lines: "  CC      fs/file_table.o".
			stage "kbuild: $(grep -c '^  CC ' "$log" || :) objects compiled in $t s ($build)"
		done
	) &
	reporter=$!
	trap 'kill "$reporter" 2>/dev/null || :' EXIT
	kmake "$src" "$build" -j"$(nproc)" "$KERNEL_TARGET" headers >"$log" 2>&1 || rc=$?
	kill "$reporter" 2>/dev/null || :
fi
[ "$rc" = 0 ] || {
	grep -m5 -E 'error|Error' "$log" >&2 || tail -n 5 "$log" >&2
	die "kernel build failed, see $log"
}
[ -f "$build/$KERNEL_IMAGE" ] || die "no $KERNEL_IMAGE in $build"
# Only if SRC did not change while make ran.
[ -z "$from" ] || [ "$(built_from)" != "$from" ] || printf '%s\n' "$from" >"$stamp"
