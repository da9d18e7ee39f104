#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# jobs.sh - `make lava-jobs`: a LAVA job and device file per cell of
# boot/gate-matrix (or of LAVA_CELLS, ARCH/CONFIG words), each with the
# artifacts of that cell's gate pass (lava/job.sh; the build dir must still
# hold the boot of the recorded head), all validated with
# LAVA's own schemas (lava/validate). Ends with one verdict line:
#   lava-jobs vN: PASS (n jobs, n devices valid, lava-common strict) in DIR
#   lava-jobs vN: FAIL: reason
#
# LAVA_DIR (default $WORKDIR/lava/$KVER/$REV) gets one directory per cell;
# LAVA_URL (default file://$LAVA_DIR) is where a lab downloads them from.
set -euo pipefail
PROG=lava-jobs
. "$(dirname "$0")/../boot/lib-boot.sh"
workdir_lock

check_rev
dir=${LAVA_DIR:-$WORKDIR/lava/$KVER/$REV}
url=${LAVA_URL:-file://$dir}
url=${url%/}
matrix_cells >/dev/null # a bad matrix line is an error of its own
# shellcheck disable=SC2046,SC2086 # one word per cell
set -- ${LAVA_CELLS:-$(matrix_cells | tr ' ' /)}
[ $# -gt 0 ] || die "no cells (boot/gate-matrix is empty)"
for cell; do
	case $cell in */*) ;; *) die "bad cell '$cell' (ARCH/CONFIG, e.g. arm64/lockdep)" ;; esac
	(load_arch "${cell%/*}" && check_config "${cell#*/}")
done
/usr/bin/python3 -c 'import lava_common' 2>/dev/null ||
	die "lava-common missing (run 'make deps')"

files=()
for cell; do
	load_arch "${cell%/*}"
	config=${cell#*/}
	stage "$ARCH $config: job and device"
	# The artifacts of the gate's pass, not of a later boot of that
	# build dir (boot/faults.sh with a fault applied, say).
	rec=$(record_file "$config")
	grep -q "^verdict gate $REV $ARCH $config: PASS" "$rec" 2>/dev/null ||
		die "$ARCH $config: no gate pass recorded ($rec); run 'make gate ARCH=$ARCH CONFIG=$config'"
	gated=$(sed -n 's/^head \([0-9a-f]*\)$/\1/p' "$rec")
	booted=$(cat "$(gate_build_dir "$config")/boot/head" 2>/dev/null || echo none)
	[ "$booted" = "$gated" ] ||
		die "$ARCH $config: $(gate_build_dir "$config") was booted at ${booted:0:12}, not at the gated ${gated:0:12}; run 'make gate ARCH=$ARCH CONFIG=$config'"
	"$TOP/lava/job.sh" "$config" "$(gate_build_dir "$config")" \
		"$dir/$ARCH-$config" "$url/$ARCH-$config"
	files+=("$dir/$ARCH-$config/job.yaml" "$dir/$ARCH-$config/device.yaml")
done
stage "validate: lava_common.schemas, strict"
if ! "$TOP/lava/validate" "${files[@]}" >"$dir/validate.log"; then
	grep ': invalid' "$dir/validate.log" | sed 's/^/       /'
	printf 'lava-jobs %s: FAIL: %s; reproduce: %s\n' "$REV" "$(grep -c ': invalid' "$dir/validate.log") of ${#files[@]} files invalid (see $dir/validate.log)" \
		"$(reproduce lava-jobs ${LAVA_URL:+"LAVA_URL=$LAVA_URL"} ${LAVA_CELLS:+"LAVA_CELLS=$LAVA_CELLS"})"
	exit 1
fi
printf 'lava-jobs %s: PASS (%d jobs, %d devices valid, lava-common strict, in %s)\n' \
	"$REV" $# $# "$dir"
