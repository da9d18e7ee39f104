#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# initramfs.sh - build OUT/initramfs.cpio.gz for $ARCH (GUEST_CC, DEB_ARCH of
# boot/arch/$ARCH.conf): busybox-static, boot/init.sh as
# /init, and static test binaries in /tests: boot/tests/*.c and the
# selftests of the gated tree SRC that boot/selftests lists (SELFTESTS=a,b:
# only those guest tests), all built with SRC's kselftest harness
# and the uapi headers of BUILD (make headers).
#
# usage: initramfs.sh SRC BUILD OUT
set -euo pipefail
PROG=initramfs
. "$(dirname "$0")/lib-boot.sh"

[ $# -eq 3 ] || die "usage: initramfs.sh SRC BUILD OUT"
src=$1 build=$2 out=$3
busybox=$(busybox_path)
if [ ! -x "$busybox" ] || readelf -l "$busybox" | grep -q INTERP; then
	die "$busybox is not a static busybox of $DEB_ARCH (run 'make deps ARCH=$ARCH')"
fi
[ -d "$build/usr/include/linux" ] ||
	die "no uapi headers in $build/usr/include (kbuild.sh builds them)"

# The guest tests (lib-boot.sh): all, or those SELFTESTS names.
check_selftests
selftests=$(base_selftests)

rm -rf "$out/tests"
mkdir -p "$out/tests"
cflags=(-static -O2 -g0 -Wall -pthread
	-isystem "$build/usr/include" -I "$src/tools/testing/selftests")
compile() { # NAME SOURCE
	"$GUEST_CC" "${cflags[@]}" -I "$(dirname "$2")" -o "$out/tests/$1" "$2" \
		>>"$out/cc.log" 2>&1 ||
		die "cannot build test $1 from $2, see $out/cc.log"
}
: >"$out/cc.log"
for c in "$BOOT"/tests/*.c; do
	! guest_selected "$(basename "$c" .c)" || compile "$(basename "$c" .c)" "$c"
done
while read -r name path; do
	if [ -z "$name" ] || ! guest_selected "$name"; then
		continue
	fi
	if [ ! -f "$src/${path%\?}" ]; then
		[ "$path" != "${path%\?}" ] || die "selftest $path missing from $src"
		continue
	fi
	compile "$name" "$src/${path%\?}"
done <<<"$selftests"

# gen_init_cpio: the kernel's own cpio writer, so /dev/console needs no root.
gcc -O2 -o "$out/gen_init_cpio" "$src/usr/gen_init_cpio.c"
{
	printf '%s\n' 'dir /bin 755 0 0' 'dir /dev 755 0 0' \
		'nod /dev/console 600 0 0 c 5 1' 'dir /proc 755 0 0' \
		'dir /sys 755 0 0' 'dir /tmp 1777 0 0' 'dir /tests 755 0 0' \
		"file /bin/busybox $busybox 755 0 0" \
		'slink /bin/sh busybox 777 0 0' \
		"file /init $BOOT/init.sh 755 0 0"
	for t in "$out"/tests/*; do
		[ -e "$t" ] || continue
		printf 'file /tests/%s %s 755 0 0\n' "${t##*/}" "$t"
	done
} >"$out/initramfs.list"
"$out/gen_init_cpio" "$out/initramfs.list" | gzip -1 >"$out/initramfs.cpio.gz"
note "$(find "$out/tests" -type f | wc -l) test binaries: $(cd "$out/tests" && echo *)"
