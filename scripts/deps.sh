#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# deps.sh - install the Debian packages safer-fput needs; cheap when all are there.
set -eu
PROG=deps
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# A base from a suite the machine does not use (SERIES_PKG_SUITE in its
# series.conf) is fetched, not installed; the others come from the
# machine's own suites.
src_pkg=linux-source-$KVER
if [ -n "${SERIES_PKG_SUITE:-}" ]; then
	src_pkg=
elif ! dpkg-query -W "linux-source-$KVER" >/dev/null 2>&1 &&
	! apt-cache show "linux-source-$KVER" >/dev/null 2>&1; then
	die "unknown KVER '$KVER': no package linux-source-$KVER (installed: $(list_kvers))"
fi
pkgs="$src_pkg b4 coccinelle sparse busybox-static ccache
bats shellcheck git make gcc flex bison bc libelf-dev libssl-dev cpio kmod dwarves
python3 python3-ply python3-git git-filter-repo xz-utils public-inbox bsdextrautils
lava-common python3-voluptuous python3-yaml debootstrap dpkg-dev"

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

# fetch_source: linux-source-$KVER from SERIES_PKG_SUITE, unpacked (not
# installed) into $WORKDIR/deb/linux-source-$KVER, with its version beside.
fetch_source() {
	local dir tmp deb
	[ -n "${SERIES_PKG_SUITE:-}" ] || return 0
	dir=$(fetched_dir "$KVER")
	[ -f "$dir/version" ] && [ -f "$(source_tarball)" ] && return 0
	[ "$(id -u)" -eq 0 ] || die "no linux-source-$KVER in $dir (run 'make deps KVER=$KVER' as root)"
	tmp=$(mktemp -d)
	note "fetching linux-source-$KVER from $SERIES_PKG_SUITE (about 170 MB)"
	(cd "$tmp" && suite_apt "$SERIES_PKG_SUITE" download "linux-source-$KVER" >/dev/null) ||
		die "apt-get download linux-source-$KVER from $SERIES_PKG_SUITE failed"
	deb=$(find "$tmp" -name "linux-source-${KVER}_*.deb" | head -n 1)
	[ -n "$deb" ] || die "apt-get download left no linux-source-$KVER .deb"
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp"
	dpkg-deb -x "$deb" "$dir.tmp" || die "cannot unpack $deb"
	dpkg-deb -f "$deb" Version >"$dir.tmp/version"
	[ -f "$dir.tmp/usr/src/linux-source-$KVER.tar.xz" ] ||
		die "$deb holds no usr/src/linux-source-$KVER.tar.xz"
	rm -rf "$tmp" "$dir"
	mv "$dir.tmp" "$dir"
	note "linux-source-$KVER $(cat "$dir/version") unpacked into $dir"
}

# build_sparse: a base whose Makefile refuses the machine's sparse names a
# suite whose sparse it accepts (SERIES_SPARSE_SUITE); its Debian source
# package is built into $WORKDIR/tools/sparse-SUITE (checks/sparse.sh).
build_sparse() {
	local dir tmp src
	[ -n "${SERIES_SPARSE_SUITE:-}" ] || return 0
	dir=$WORKDIR/tools/sparse-$SERIES_SPARSE_SUITE
	[ -x "$dir/sparse" ] && return 0
	[ "$(id -u)" -eq 0 ] || die "no sparse of $SERIES_SPARSE_SUITE in $dir (run 'make deps KVER=$KVER' as root)"
	tmp=$(mktemp -d)
	note "building sparse from $SERIES_SPARSE_SUITE's source package (about 1 min)"
	(cd "$tmp" && suite_apt "$SERIES_SPARSE_SUITE" source --download-only sparse >/dev/null 2>&1) ||
		die "apt-get source sparse from $SERIES_SPARSE_SUITE failed"
	(cd "$tmp" && dpkg-source -x ./*.dsc src >"$tmp/unpack.log" 2>&1) ||
		die "cannot unpack sparse's source, see $tmp/unpack.log"
	src=$tmp/src
	# CC: Debian's use-gcc-16.patch names sid's compiler; sparse takes
	# its compiler's builtin include path from whichever builds it.
	make -C "$src" -j"$(nproc)" CC=gcc sparse >"$tmp/build.log" 2>&1 ||
		die "sparse from $SERIES_SPARSE_SUITE does not build, see $tmp/build.log"
	rm -rf "$dir"
	mkdir -p "${dir%/*}"
	mv "$src" "$dir"
	rm -rf "$tmp"
	note "sparse $("$dir/sparse" --version) built in $dir"
}

missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
if [ -z "$missing" ]; then
	busybox_foreign
	fetch_source
	build_sparse
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
fetch_source
build_sparse
