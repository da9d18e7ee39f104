#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kbuild.sh - configure (kconfig.sh) and build the kernel image of $ARCH
# (boot/arch/$ARCH.conf: KERNEL_TARGET, KERNEL_IMAGE) for CONFIG out of
# tree, with ccache, under the machine-wide build lock. Incremental.
#
# Also installs the uapi headers in BUILD/usr/include for the guest tests.
#
# usage: kbuild.sh SRC BUILD CONFIG
set -euo pipefail
PROG=kbuild
. "$(dirname "$0")/lib-boot.sh"

[ $# -eq 3 ] || die "usage: kbuild.sh SRC BUILD CONFIG"
src=$1 build=$2 config=$3
# Hold the lock once for configure + build: other helpers queue on it too.
# shellcheck disable=SC2031 # set by a caller holding the lock, if any
[ -n "${SAFER_FPUT_KBUILD_LOCKED:-}" ] ||
	SAFER_FPUT_KBUILD_LOCKED=1 exec flock "$KBUILD_LOCK" "$0" "$@"

"$BOOT/kconfig.sh" "$src" "$build" "$config"
log=$build/build.log
kmake "$src" "$build" -j"$(nproc)" "$KERNEL_TARGET" headers >"$log" 2>&1 || {
	grep -m5 -E 'error|Error' "$log" >&2 || tail -n 5 "$log" >&2
	die "kernel build failed, see $log"
}
[ -f "$build/$KERNEL_IMAGE" ] || die "no $KERNEL_IMAGE in $build"
