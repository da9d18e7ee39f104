#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh - `make lava-run`: boot one cell through LAVA itself and check
# that LAVA's per-test results equal the gate's own.
#
# The cell (ARCH from the environment, CONFIG) is booted by the gate in
# the gate's worktree (boot/faults.sh), with FIXTURE (tests/fixtures/faults/) applied
# or none; that boot gives our verdict and results.tsv. Then the same kernel
# and initramfs run through lava-dispatcher's lava-run in the chroot of
# lava/chroot.sh, with the job and device of lava/job.sh. lava-run exits 0
# even when a test case fails, so its results are read from its log (the
# "results" lines), not from its exit status, and compared case by case
# (LAVA's monitors cannot tell "ok ... # SKIP" from "ok": our SKIP counts
# as LAVA's pass). Ends with one verdict line:
#   lava-run vN ARCH CONFIG FIXTURE: PASS (LAVA = gate: n cases, p pass, f fail; gate: VERDICT)
#   lava-run vN ARCH CONFIG FIXTURE: FAIL: reason
# PASS says LAVA and the gate agree on every case, whatever the cases say:
# with a seeded fault both fail it, and the gate's own verdict is FAIL.
#
# usage: run.sh CONFIG [FIXTURE]
set -euo pipefail
PROG=lava-run
. "$(dirname "$0")/lib-lava.sh"
workdir_lock

case $# in 1 | 2) ;; *) die "usage: run.sh CONFIG [FIXTURE]" ;; esac
config=$1 fixture=${2:-}
check_config "$config"
check_rev
[ "$(id -u)" -eq 0 ] || die "lava-run runs in a chroot: run as root"
label="lava-run $REV $ARCH $config ${fixture:-clean}"
verdict() {
	case $* in
	FAIL:*) printf '%s: %s; reproduce: %s\n' "$label" "$*" \
		"$(reproduce lava-run "CONFIG=$config" ${fixture:+"FAULT=$fixture"})" ;;
	*) printf '%s: %s\n' "$label" "$*" ;;
	esac
}

root=$("$TOP/lava/chroot.sh")
lava_lock
build=$(gate_build_dir "$config")
mkdir -p "$WORKDIR/lava/$KVER"
stage "gate: $ARCH $config ${fixture:-no fixture} (boot/faults.sh)"
gate=$("$BOOT/faults.sh" "$config" ${fixture:+"$fixture"} 2>"$WORKDIR/lava/$KVER/gate.log" |
	tail -n 1) || true
case $gate in
"gate $REV $ARCH $config: "*)
	ours=${gate#gate "$REV $ARCH $config: "}
	# Its reproduce command is the gate's, not this run's.
	ours=${ours%%; reproduce: *}
	;;
*) die "the gate did not end with a verdict (see $WORKDIR/lava/$KVER/gate.log)" ;;
esac
[ -f "$build/boot/results.tsv" ] || die "the gate wrote no results ($build/boot)"

job=$root/lava-job
rm -rf "$job"
"$TOP/lava/job.sh" "$config" "$build" "$job" file:///lava-job
if ! valid=$("$TOP/lava/validate" "$job/job.yaml" "$job/device.yaml"); then
	die "$(printf '%s\n' "$valid" | grep -m 1 invalid)"
fi

out=$WORKDIR/lava/$KVER/run-$ARCH-$config-${fixture:-clean}
rm -rf "$out"
mkdir -p "$out"
trap 'chroot_umount "$root"' EXIT
chroot_mount "$root"
stage "lava-run: $ARCH $config in $root (log: $out/lava.log)"
rc=0
chroot "$root" lava-run --job-id 1 --output-dir /lava-job/out \
	--device /lava-job/device.yaml /lava-job/job.yaml >"$out/lava.log" 2>&1 || rc=$?
chroot_umount "$root"
trap - EXIT
cp -r "$job" "$out/job"

# LAVA's results, from its log (lava/results): the test cases of the two
# monitors, and the job's own result.
"$TOP/lava/results" "$out/lava.log" >"$out/lava.all"
awk '$1 == "kunit" || $1 == "guest" { print $1, $2, $3 }' "$out/lava.all" >"$out/lava.results"
job_result=$(awk '$1 == "lava" && $2 == "job" { $1 = $2 = ""; r = substr($0, 3) } END { print r ? r : "none" }' \
	"$out/lava.all")

# Ours, in the same shape: the test cases at one level of indent, which
# is what the monitors match. A parameterized case is one line there
# ("ok N case", its parameters one level deeper): its leaves, which
# results.tsv lists under SUITE.CASE, fold into it, failing if any fails.
# A case-less suite row has no case line for LAVA to match. Names as LAVA
# keeps them: lower case, each run of non-word characters one "_".
awk -F'\t' 'function id(s) { s = tolower(s); gsub(/[^a-z0-9_]+/, "_", s); return s }
	$3 != "-" { r = ($4 == "PASS" || $4 == "SKIP") ? "pass" : "fail"
		if (index($2, ".")) {
			c = substr($2, index($2, ".") + 1); sub(/\..*/, "", c)
			k = $1 " " id(c); if (!(k in p) || r == "fail") p[k] = r
		} else print $1, id($3), r }
	END { for (k in p) print k, p[k] }' "$build/boot/results.tsv" >"$out/gate.results"

sort "$out/lava.results" >"$out/lava.sorted"
sort "$out/gate.results" >"$out/gate.sorted"
n=$(wc -l <"$out/gate.sorted")
pass=$(grep -c ' pass$' "$out/gate.sorted" || true)
fail=$(grep -c ' fail$' "$out/gate.sorted" || true)
note "lava-run exit $rc, job $job_result; LAVA: $(wc -l <"$out/lava.sorted") results, gate: $n cases"
if [ "$n" -eq 0 ]; then
	verdict "FAIL: the gate parsed no test case"
	exit 1
fi
if ! cmp -s "$out/lava.sorted" "$out/gate.sorted"; then
	only_lava=$(comm -23 "$out/lava.sorted" "$out/gate.sorted" | wc -l)
	only_gate=$(comm -13 "$out/lava.sorted" "$out/gate.sorted" | wc -l)
	{ diff "$out/gate.sorted" "$out/lava.sorted" || true; } | grep '^[<>]' | head -n 10 | sed 's/^/       /' || true
	verdict "FAIL: LAVA and the gate differ: $only_gate results only in the gate's, $only_lava only in LAVA's (see $out)"
	exit 1
fi
verdict "PASS (LAVA = gate: $n cases, $pass pass, $fail fail; gate: $ours)"
