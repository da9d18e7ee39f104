#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# deps.sh - install the Debian packages safer-fput needs; cheap when all are there.
set -eu

KVER=${KVER:-6.1}

installed() {
	out=
	for t in /usr/src/linux-source-*.tar.xz; do
		[ -e "$t" ] || continue
		t=${t#/usr/src/linux-source-}
		out="$out ${t%.tar.xz}"
	done
	printf '%s' "${out# }"
}
if ! dpkg-query -W "linux-source-$KVER" >/dev/null 2>&1 &&
	! apt-cache show "linux-source-$KVER" >/dev/null 2>&1; then
	echo "deps: error: unknown KVER '$KVER': no package linux-source-$KVER (installed: $(installed))" >&2
	exit 1
fi
pkgs="linux-source-$KVER b4 coccinelle sparse qemu-system-x86 busybox-static ccache
bats shellcheck git make gcc flex bison bc libelf-dev libssl-dev cpio kmod dwarves
python3 python3-ply python3-git git-filter-repo xz-utils public-inbox bsdextrautils"

missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

[ "$(id -u)" -eq 0 ] || {
	echo "deps: error: missing packages:$missing (run 'make deps' as root)" >&2
	exit 1
}
echo "deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
# shellcheck disable=SC2086 # word splitting of the package list is intended
apt-get install -y -q --no-install-recommends $missing >/dev/null ||
	{ echo "deps: error: apt-get install$missing failed" >&2; exit 1; }
