#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run-tests.sh [TESTDIR] - run every TESTDIR/NAME-CASE.c through NAME.cocci in
# patch mode and compare with NAME-CASE.res (an audit-CASE.c through
# audit.sh, whose output audit-CASE.res holds: the rows, the lines git grep
# finds that are no site, the verdict); when the case's first line is
# "// expect: converted", "// expect: converted TEXT" (the rest of the verdict)
# or "// expect: rejected: TEXT", also check that report mode says so for its
# site. The cases of a subdirectory TESTDIR/SUB/ (SUB/NAME-CASE) run as in a
# tree like SUB: its own files choose the idiom the scripts write
# (data/idioms), as the kernel tree's do for make cocci. One line per case,
# then "cocci-test: N passed, N failed"; exits non-zero if any case failed or
# a script has under 12 cases.
#
# (spatch --test exits 0 on a mismatch, so the comparison is done here.)
# COCCI_TEST_JOBS cases run at a time (default: one per CPU).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib-cocci.sh
. "$here/lib-cocci.sh"
dir=${1:-${COCCI_TESTDIR:-$here/tests}}
min=12
[ -d "$dir" ] || { echo "cocci-test: error: no test directory $dir" >&2; exit 1; }
command -v spatch >/dev/null || { echo "cocci-test: error: spatch not found (apt-get install coccinelle)" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

# spatch_in CASE.c SUMMARIES ARGS...: run the case's script on it from its directory
# (the summaries name files as the scan saw them), with its summaries and the
# idiom of the directory.
spatch_in() {
	local c=$1 sum=$2 defs
	shift 2
	mapfile -t defs < <(cocci_defines "$sp" "${c%/*}")
	(cd "${c%/*}" && SAFER_FPUT_SUMMARIES=$sum/summaries.json SAFER_FPUT_DATA=$here/data \
		spatch --very-quiet --macro-file "$here/macros.h" --sp-file "$sp" "${defs[@]}" "$@" "${c##*/}")
}
declare -A count=()

# case_of CASE.c: the case's name, SUB/NAME-CASE in a subdirectory.
case_of() {
	local rel=${1#"$dir"/}
	printf '%s\n' "${rel%.c}"
}

# Every semantic patch with a patch mode needs its cases.
for sp in "$here"/*.cocci; do
	grep -q '^virtual patch' "$sp" || continue
	name=${sp##*/}
	count[${name%.cocci}]=0
done

# run_case CASE.c: check one case; writes its verdict (PASS/FAIL line and
# any diff) to $tmp/CASE.result. Cases are independent: they run in parallel.
run_case() {
	local c=$1 case script sp res out why expect got callees
	case=$(case_of "$c")
	script=${c##*/}
	script=${script%%-*}
	sp=$here/$script.cocci
	res=${c%.c}.res
	case=${case//\//_}
	out=$tmp/$case.out
	why=
	if [ ! -f "$sp" ]; then
		why="no $script.cocci"
	elif [ ! -f "$res" ]; then
		why="no ${res##*/}"
	elif [ "$script" = audit ]; then
		# An audit case: the rows, the other git grep lines and the
		# verdict of audit.sh run on the case alone are the .res file.
		# (audit-callees-CASE: with the callees' summaries.)
		callees=0
		case ${c##*/} in audit-callees-*) callees=1 ;; esac
		(cd "${c%/*}" && COCCI_CACHE='' COCCI_AUDIT=plain COCCI_JOBS=1 COCCI_AUDIT_CALLEES=$callees \
			"$here/audit.sh" . "$tmp/$case.audit" "${c##*/}") >"$out" 2>"$tmp/$case.log" || true
		if ! grep -q '^cocci-report: audit: ' "$out"; then
			why="audit.sh failed: $(tail -n 1 "$tmp/$case.log")"
		elif ! diff -u "$res" "$out" >"$tmp/$case.diff"; then
			why="output differs from ${res##*/}"
		fi
	elif ! (cd "${c%/*}" && COCCI_CACHE='' "$here/summaries.sh" . "$tmp/$case.sum" "${c##*/}") \
		>"$tmp/$case.log" 2>&1; then
		why="summaries failed: $(tail -n 1 "$tmp/$case.log")"
	elif ! spatch_in "$c" "$tmp/$case.sum" -D patch -o "$out" >"$tmp/$case.log" 2>&1; then
		why="spatch failed: $(tail -n 1 "$tmp/$case.log")"
	else
		# spatch writes no output file when nothing changes.
		[ -f "$out" ] || cp "$c" "$out"
		if ! diff -u "$res" "$out" >"$tmp/$case.diff"; then
			why="output differs from ${res##*/}"
		fi
	fi
	expect=$(sed -n '1s,^// expect: ,,p' "$c")
	if [ -z "$why" ] && [ -n "$expect" ]; then
		got=$(spatch_in "$c" "$tmp/$case.sum" -D report 2>/dev/null | grep -F "${c##*/}:" || true)
		got=${got#"${c##*/}":}
		case $expect in
		converted)
			[ "$(printf '%s\n' "$got" | grep -c ': converted$')" -ge 1 ] &&
				! printf '%s\n' "$got" | grep -q ': rejected:' ||
				why="report says '$got', expected converted"
			;;
		rejected:*)
			printf '%s\n' "$got" | grep ': rejected: ' | grep -qF -- "${expect#rejected: }" ||
				why="report says '$got', expected $expect"
			;;
		'converted '*)
			printf '%s\n' "$got" | grep -qF -- ": $expect" &&
				! printf '%s\n' "$got" | grep -q ': rejected:' ||
				why="report says '$got', expected $expect"
			;;
		*) why="bad expect line: $expect" ;;
		esac
	fi
	if [ -z "$why" ]; then
		printf 'PASS %s\n' "$(case_of "$c")"
	else
		printf 'FAIL %s: %s\n' "$(case_of "$c")" "$why"
		[ -s "$tmp/$case.diff" ] && sed 's/^/    /' "$tmp/$case.diff"
	fi >"$tmp/$case.result"
}

jobs=${COCCI_TEST_JOBS:-$(nproc)}
[ "$jobs" -ge 1 ] 2>/dev/null || { echo "cocci-test: error: COCCI_TEST_JOBS='$jobs' is not a positive number" >&2; exit 1; }
cases=()
for c in "$dir"/*.c "$dir"/*/*.c; do
	[ -e "$c" ] || continue
	cases+=("$c")
	while [ "$(jobs -pr | wc -l)" -ge "$jobs" ]; do
		wait -n || true
	done
	run_case "$c" &
done
wait
for c in "${cases[@]}"; do
	case=$(case_of "$c")
	script=${c##*/}
	script=${script%%-*}
	[ -n "${count[$script]+x}" ] && count[$script]=$((count[$script] + 1))
	case=${case//\//_}
	[ -s "$tmp/$case.result" ] || printf 'FAIL %s: the case died before its verdict\n' "$(case_of "$c")" >"$tmp/$case.result"
	cat "$tmp/$case.result"
	if grep -q '^PASS ' "$tmp/$case.result"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
	fi
done

for s in "${!count[@]}"; do
	if [ "${count[$s]}" -lt "$min" ]; then
		fail=$((fail + 1))
		printf 'FAIL %s.cocci: only %d test cases (need %d)\n' "$s" "${count[$s]}" "$min"
	fi
done
if [ "$fail" -eq 0 ]; then
	printf 'cocci-test: PASS (%d cases)\n' "$pass"
else
	printf 'cocci-test: FAIL: %d of %d cases\n' "$fail" "$((pass + fail))"
fi
[ "$fail" -eq 0 ]
