# SPDX-License-Identifier: GPL-2.0
# lib-lava.sh - what the lava/ scripts share; sourced, never run.
# shellcheck shell=bash

# shellcheck source=../boot/lib-boot.sh
. "$(dirname "${BASH_SOURCE[0]}")/../boot/lib-boot.sh"

lava_chroot() {
	printf '%s' "${LAVA_CHROOT:-$WORKDIR/lava/chroot}"
}

# apt_mirror: the machine's Debian mirror (deb822 "URIs:" or one-line "deb").
apt_mirror() {
	{ cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		/etc/apt/sources.list.d/*.sources 2>/dev/null || true; } |
		awk '/^URIs:/ && $2 !~ /security/ { print $2; exit }
			/^deb / && $0 !~ /security/ { for (i = 2; i <= NF; i++)
				if ($i ~ /^https?:/) { print $i; exit } }' || true
}

# chroot_mount DIR / chroot_umount DIR: /proc, and /dev bound recursively
# (rslave: nothing unmounted inside propagates back to the machine's /dev).
chroot_mount() {
	mount -t proc proc "$1/proc"
	mount --rbind /dev "$1/dev"
	mount --make-rslave "$1/dev"
}
chroot_umount() {
	local m
	[ -d "$1" ] || return 0
	for m in dev proc; do
		if mountpoint -q "$1/$m"; then
			umount -R "$1/$m" || umount -lR "$1/$m" || true
		fi
	done
}
