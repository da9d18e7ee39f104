#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# job.sh - the LAVA job and device files of one cell (ARCH from the
# environment, CONFIG): lava/job.yaml.in and lava/device.yaml.in filled in
# from boot/arch/$ARCH.conf, with the kernel image and initramfs of the last
# boot in BUILD (BUILD/boot/: what boot.sh booted, of the head it names)
# staged next to them and named with their sha256 in the job.
#
# usage: job.sh CONFIG BUILD OUT URL
#   OUT gets job.yaml, device.yaml, the kernel image and initramfs.cpio.gz;
#   URL is where a lab's dispatcher downloads OUT's files from (file://OUT
#   for a local lava-run).
set -euo pipefail
PROG=lava-jobs
. "$(dirname "$0")/../boot/lib-boot.sh"

[ $# -eq 4 ] || die "usage: job.sh CONFIG BUILD OUT URL"
config=$1 build=$2 out=$3 url=${4%/}
check_config "$config"
check_rev
[ -n "$LAVA_ARCH" ] || die "boot/arch/$ARCH.conf has no LAVA_ARCH (the job's context arch)"
kernel=$build/boot/${KERNEL_IMAGE##*/}
ramdisk=$build/boot/initramfs.cpio.gz
if [ ! -f "$kernel" ] || [ ! -f "$ramdisk" ]; then
	die "$ARCH $config: no booted build in $build (run 'make gate ARCH=$ARCH CONFIG=$config')"
fi
[ -f "$build/boot/head" ] || die "$ARCH $config: $build/boot/head missing: boot it again"
head=$(cat "$build/boot/head")
base=$(tgit rev-parse -q --verify "$(gate_base_tag)^{commit}" || echo unknown)

mkdir -p "$out"
kfile=${KERNEL_IMAGE##*/}
cp "$kernel" "$out/$kfile"
cp "$ramdisk" "$out/initramfs.cpio.gz"
sha() { sha256sum "$1" | cut -d' ' -f1; }

# The job's timeouts: the gate's QEMU timeout of the config, in minutes.
secs=$(boot_timeout "$config")
test_min=$(((secs + 59) / 60))
context=
[ -z "$LAVA_CPU" ] || context="  cpu: $LAVA_CPU"
[ -z "$LAVA_MACHINE" ] || context="$context${context:+
}  machine: $LAVA_MACHINE"
qemu_opts=
[ -z "$QEMU_PARAMS" ] || qemu_opts="          - $QEMU_PARAMS"

# fill TEMPLATE: replace every @NAME@ with the value of T_NAME in the
# environment (taken as is: no awk escapes, no gsub replacement syntax); a
# line that is just @NAME@ with an empty value goes away. A placeholder
# with no value set is an error.
fill() {
	T_REV=$REV T_ARCH=$ARCH T_CONFIG=$config T_HEAD=$head T_BASE=$base \
	T_LAVA_ARCH=$LAVA_ARCH T_LAVA_CONTEXT=$context T_CONSOLE=$CONSOLE \
	T_URL=$url T_KERNEL_FILE=$kfile T_KERNEL_SHA256=$(sha "$out/$kfile") \
	T_RAMDISK_SHA256=$(sha "$out/initramfs.cpio.gz") T_QEMU=$QEMU \
	T_QEMU_OPTIONS=$qemu_opts T_JOB_MINUTES=$((test_min + 15)) \
	T_TEST_MINUTES=$test_min awk '
	/^@[A-Z_0-9]+@$/ { n = "T_" substr($0, 2, length($0) - 2); if (n in ENVIRON && ENVIRON[n] == "") next }
	{
		out = ""; rest = $0
		while (match(rest, /@[A-Z_0-9]+@/)) {
			n = "T_" substr(rest, RSTART + 1, RLENGTH - 2)
			if (!(n in ENVIRON)) {
				print FILENAME ": no value for " substr(rest, RSTART, RLENGTH) > "/dev/stderr"
				exit 1
			}
			out = out substr(rest, 1, RSTART - 1) ENVIRON[n]
			rest = substr(rest, RSTART + RLENGTH)
		}
		print out rest
	}' "$1"
}
fill "$TOP/lava/job.yaml.in" >"$out/job.yaml"
fill "$TOP/lava/device.yaml.in" >"$out/device.yaml"
note "$ARCH $config: $out/job.yaml ($kfile ${head:0:12}), $out/device.yaml"
