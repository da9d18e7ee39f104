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
pkgs="linux-source-$KVER b4 coccinelle sparse qemu-system-x86 busybox-static ccache
bats shellcheck git make gcc flex bison bc libelf-dev libssl-dev cpio kmod dwarves
python3 python3-ply python3-git git-filter-repo xz-utils public-inbox bsdextrautils"

missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

[ "$(id -u)" -eq 0 ] || die "missing packages:$missing (run 'make deps' as root)"
note "installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
# shellcheck disable=SC2086 # word splitting of the package list is intended
apt-get install -y -q --no-install-recommends $missing >/dev/null ||
	die "apt-get install$missing failed"
