#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kbuild.sh - configure (kconfig.sh) and build the kernel image of $ARCH
# (boot/arch/$ARCH.conf: KERNEL_TARGET, KERNEL_IMAGE) for CONFIG out of
# tree, with ccache, under the machine-wide build lock. Incremental.
#
# Also installs the uapi headers in BUILD/usr/include for the guest tests.
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
# shellcheck disable=SC2031 # set by a caller holding the lock, if any
if [ -z "${SAFER_FPUT_KBUILD_LOCKED:-}" ]; then
	# Say why nothing happens while another build has the machine.
	flock -n "$KBUILD_LOCK" true ||
		note "waiting for the kernel build running on this machine ($KBUILD_LOCK)"
	SAFER_FPUT_KBUILD_LOCKED=1 exec flock "$KBUILD_LOCK" "$0" "$@"
fi

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
