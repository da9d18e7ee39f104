#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# chroot.sh - a Debian bookworm chroot holding lava-dispatcher and the QEMU
# of every arch in boot/arch/, for a local lava-run (lava/run.sh).
# Installing lava-dispatcher on the machine itself would pull in systemd-sysv
# and a few hundred packages: in a chroot it touches nothing outside.
# Made once, with debootstrap from the machine's own Debian mirror; a
# half-made chroot (an interrupted run) is made again. Prints its path.
#
# usage: chroot.sh        (LAVA_CHROOT, default $WORKDIR/lava/chroot)
set -euo pipefail
PROG=lava-chroot
. "$(dirname "$0")/lib-lava.sh"

dir=$(lava_chroot)
if [ -f "$dir/.safer-fput-ready" ]; then
	printf '%s\n' "$dir"
	exit 0
fi
[ "$(id -u)" -eq 0 ] || die "making $dir needs root (debootstrap, chroot)"
command -v debootstrap >/dev/null || die "debootstrap missing (run 'make deps')"
mirror=$(apt_mirror)
[ -n "$mirror" ] || die "no Debian mirror in /etc/apt/sources.list*"
qemus=$(for f in "$BOOT"/arch/*.conf; do printf '%s ' "$(arch_field "$f" QEMU_PACKAGE)"; done)

lava_lock
if [ -f "$dir/.safer-fput-ready" ]; then
	printf '%s\n' "$dir"
	exit 0
fi
tmp=$dir.tmp
chroot_remove "$tmp"
mkdir -p "${tmp%/*}"
t0=$SECONDS
stage "debootstrap --variant=minbase bookworm $tmp $mirror"
debootstrap --variant=minbase bookworm "$tmp" "$mirror" >"$tmp.log" 2>&1 ||
	die "debootstrap failed, see $tmp.log"
# No service may start inside (policy-rc.d, exit 101: "action forbidden").
printf '#!/bin/sh\nexit 101\n' >"$tmp/usr/sbin/policy-rc.d"
chmod 755 "$tmp/usr/sbin/policy-rc.d"
trap 'chroot_umount "$tmp"' EXIT
chroot_mount "$tmp"
stage "apt-get install lava-dispatcher $qemus(no recommends)"
# shellcheck disable=SC2086 # a list of packages
chroot "$tmp" env DEBIAN_FRONTEND=noninteractive sh -c \
	"apt-get update -q && apt-get install -y -q --no-install-recommends lava-dispatcher $qemus" \
	>>"$tmp.log" 2>&1 || die "apt-get install in $tmp failed, see $tmp.log"
chroot "$tmp" lava-run --help >/dev/null 2>&1 || die "lava-run does not run in $tmp"
chroot "$tmp" apt-get clean
chroot_umount "$tmp"
trap - EXIT
touch "$tmp/.safer-fput-ready"
mv "$tmp" "$dir"
mv "$tmp.log" "$dir.log"
note "made $dir in $((SECONDS - t0)) s, $(du -sh "$dir" | cut -f1) on disk (log: $dir.log)"
printf '%s\n' "$dir"
