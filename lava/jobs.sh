#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# jobs.sh - `make lava-jobs`: a LAVA job and device file per cell of
# boot/gate-matrix (or of LAVA_CELLS, ARCH/CONFIG words), each with the
# artifacts of that cell's gate build (lava/job.sh), all validated with
# LAVA's own schemas (lava/validate). Ends with one verdict line:
#   lava-jobs vN: PASS (n jobs, n devices valid, lava-common strict) in DIR
#   lava-jobs vN: FAIL: reason
#
# LAVA_DIR (default $WORKDIR/lava/$REV) gets one directory per cell;
# LAVA_URL (default file://$LAVA_DIR) is where a lab downloads them from.
set -euo pipefail
PROG=lava-jobs
. "$(dirname "$0")/../boot/lib-boot.sh"

check_rev
dir=${LAVA_DIR:-$WORKDIR/lava/$REV}
url=${LAVA_URL:-file://$dir}
url=${url%/}
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
	"$TOP/lava/job.sh" "$config" "$(build_dir "$config")" \
		"$dir/$ARCH-$config" "$url/$ARCH-$config"
	files+=("$dir/$ARCH-$config/job.yaml" "$dir/$ARCH-$config/device.yaml")
done
stage "validate: lava_common.schemas, strict"
if ! "$TOP/lava/validate" "${files[@]}" >"$dir/validate.log"; then
	grep ': invalid' "$dir/validate.log" | sed 's/^/       /'
	printf 'lava-jobs %s: FAIL: %s\n' "$REV" "$(grep -c ': invalid' "$dir/validate.log") of ${#files[@]} files invalid (see $dir/validate.log)"
	exit 1
fi
printf 'lava-jobs %s: PASS (%d jobs, %d devices valid, lava-common strict) in %s\n' \
	"$REV" $# $# "$dir"
