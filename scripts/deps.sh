#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# deps.sh - install the Debian packages safer-fput needs; cheap when all are there.
set -eu
PROG=deps
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

if ! dpkg-query -W "linux-source-$KVER" >/dev/null 2>&1 &&
	! apt-cache show "linux-source-$KVER" >/dev/null 2>&1; then
	die "unknown KVER '$KVER': no package linux-source-$KVER (installed: $(list_kvers))"
fi
pkgs="linux-source-$KVER b4 coccinelle sparse busybox-static ccache
bats shellcheck git make gcc flex bison bc libelf-dev libssl-dev cpio kmod dwarves
python3 python3-ply python3-git git-filter-repo xz-utils public-inbox bsdextrautils
lava-common python3-voluptuous python3-yaml debootstrap"

# Each arch of boot/arch/ brings its QEMU and, when it is not the machine's
# own, its cross compiler and the Debian architecture of its busybox.
host_arch=$(dpkg --print-architecture)
foreign=
for conf in "$TOP"/boot/arch/*.conf; do
	pkgs="$pkgs $(arch_field "$conf" QEMU_PACKAGE) $(arch_field "$conf" CROSS_PACKAGES)"
	deb=$(arch_field "$conf" DEB_ARCH)
	[ "$deb" = "$host_arch" ] || foreign="$foreign $deb"
done

# busybox_foreign: the static busybox of each foreign DEB_ARCH, unpacked
# (not installed: it would replace the machine's own /bin/busybox) into
# $WORKDIR/deb/busybox-static-DEB_ARCH, where boot/lib-boot.sh finds it.
busybox_foreign() {
	local a dir tmp
	for a in $foreign; do
		dir=$WORKDIR/deb/busybox-static-$a
		[ -x "$dir/bin/busybox" ] && continue
		[ "$(id -u)" -eq 0 ] || die "no $a busybox in $dir (run 'make deps' as root)"
		if ! dpkg --print-foreign-architectures | grep -qx "$a"; then
			# Machine-wide, but only a list of what apt may fetch:
			# nothing of arch $a is installed, its .deb is unpacked.
			note "adding Debian architecture $a (for busybox-static:$a)"
			dpkg --add-architecture "$a" || die "dpkg --add-architecture $a failed"
			apt-get update -q >/dev/null || die "apt-get update failed"
		fi
		tmp=$(mktemp -d)
		(cd "$tmp" && apt-get download -q -o APT::Sandbox::User=root "busybox-static:$a" >/dev/null) ||
			{ apt-get update -q >/dev/null &&
				(cd "$tmp" && apt-get download -q -o APT::Sandbox::User=root "busybox-static:$a" >/dev/null); } ||
			die "apt-get download busybox-static:$a failed"
		mkdir -p "$dir.tmp"
		dpkg-deb -x "$tmp"/busybox-static_*_"$a".deb "$dir.tmp" ||
			die "cannot unpack busybox-static:$a"
		rm -rf "$tmp" "$dir"
		mv "$dir.tmp" "$dir"
		note "busybox-static:$a unpacked into $dir"
	done
}

missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
if [ -z "$missing" ]; then
	busybox_foreign
	exit 0
fi

[ "$(id -u)" -eq 0 ] || die "missing packages:$missing (run 'make deps' as root)"
note "installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
# shellcheck disable=SC2086 # word splitting of the package list is intended
apt-get install -y -q --no-install-recommends $missing >/dev/null ||
	die "apt-get install$missing failed"
busybox_foreign
