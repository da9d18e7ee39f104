#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# /init of the gate's initramfs (busybox sh): run every test binary in /tests
# and print one KTAP document, each binary a subtest, between two marker
# lines that boot/verdict.sh looks for; then reboot -f (QEMU runs with
# -no-reboot, so it exits).
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t tmpfs tmpfs /tmp

n=0
for t in /tests/*; do
	n=$((n + 1))
done
echo "safer-fput: guest tests begin"
echo "KTAP version 1"
echo "1..$n"
i=0
for t in /tests/*; do
	i=$((i + 1))
	name=${t##*/}
	cd /tmp || exit 1
	"$t" >/tmp/out 2>&1
	rc=$?
	echo "    KTAP version 1"
	echo "    # Subtest: $name"
	# The kselftest harness prints its own "TAP version 13" first.
	sed -e '/^TAP version/d' -e 's/^/    /' /tmp/out
	case $rc in
	0) echo "ok $i $name" ;;
	4) echo "ok $i $name # SKIP" ;;
	*) echo "not ok $i $name # exit status $rc" ;;
	esac
done
echo "safer-fput: guest tests end"
sync
reboot -f
