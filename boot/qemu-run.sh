#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# qemu-run.sh - boot KERNEL with INITRD under QEMU, console to LOG, with
# the QEMU, QEMU_PARAMS and CONSOLE of boot/arch/$ARCH.conf.
# Exits 0 when the guest rebooted (QEMU exits: -no-reboot) and 124 when it
# was still running after TIMEOUT seconds; the log is kept either way.
#
# usage: qemu-run.sh KERNEL INITRD LOG TIMEOUT [EXTRA-CMDLINE]
set -euo pipefail
PROG=qemu-run
. "$(dirname "$0")/lib-boot.sh"

[ $# -ge 4 ] || die "usage: qemu-run.sh KERNEL INITRD LOG TIMEOUT [CMDLINE]"
kernel=$1 initrd=$2 log=$3 secs=$4 extra=${5:-}
[ -f "$kernel" ] || die "no kernel image $kernel"
[ -f "$initrd" ] || die "no initramfs $initrd"
command -v "$QEMU" >/dev/null ||
	die "$QEMU not found (run 'make deps')"
# PATH is the user's: their QEMU must have the accelerator asked for, and
# the -accel option itself (older QEMU only took -machine accel=).
"$QEMU" -accel help 2>/dev/null | grep -qx -- "${QEMU_ACCEL:-tcg}" ||
	die "$QEMU ($("$QEMU" --version 2>/dev/null | head -n 1)) has no '-accel ${QEMU_ACCEL:-tcg}', which this boot asks for"

# QEMU_ACCEL: kvm or tcg, as boot.sh chose it (lib-boot.sh choose_accel);
# QEMU_MEM (MiB) and QEMU_SMP size the guest.
# panic=-1: reboot at once on a panic, so QEMU exits and the log says why.
rc=0
# shellcheck disable=SC2086 # QEMU_PARAMS is a list of words
timeout -k 5 "$secs" "$QEMU" $QEMU_PARAMS -accel "${QEMU_ACCEL:-tcg}" \
	-m "${QEMU_MEM:-512}" -smp "${QEMU_SMP:-2}" \
	-nodefaults -no-reboot -display none -monitor none \
	-serial "file:$log" -kernel "$kernel" -initrd "$initrd" \
	-append "console=$CONSOLE panic=-1 $extra" </dev/null || rc=$?
case $rc in
0 | 124) exit "$rc" ;;
*) die "$QEMU failed (exit $rc), see $log" ;;
esac
