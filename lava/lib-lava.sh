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

# chroot_remove DIR: delete a chroot, never what is mounted in it (the
# machine's /dev): refuse while anything is mounted below DIR.
chroot_remove() {
	[ -e "$1" ] || return 0
	chroot_umount "$1"
	if findmnt -rn -o TARGET | grep -q "^$1/"; then
		die "$1 still has mounts ($(findmnt -rn -o TARGET | grep "^$1/" | head -n 1)): not removing it"
	fi
	rm -rf --one-file-system "$1"
}

# lava_lock: one lava-run or chroot build at a time (they share the
# chroot, its mounts and its lava-job dir); held until the script exits.
lava_lock() {
	mkdir -p "$WORKDIR/lava"
	exec 8>>"$WORKDIR/lava/.lock"
	flock -n 8 || { note "waiting for another lava-run ($WORKDIR/lava/.lock)"; flock 8; }
}
