#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ktap.sh - parse the two KTAP documents of a gate console log with the
# tree's own parser (tools/testing/kunit/kunit.py parse): the built-in KUnit
# suites (everything before init.sh's "guest tests begin" marker) and the
# guest tests (between the markers). Writes OUT/{kunit,guest}.{log,json,parse}
# and prints one line per test case: PART SUITE CASE STATUS (PASS, SKIP,
# FAIL, ERROR), a case-less suite as PART SUITE - STATUS.
# Exits 1 if a part has no KTAP at all.
#
# usage: ktap.sh SRC LOG OUT
set -euo pipefail
PROG=ktap
. "$(dirname "$0")/lib-boot.sh"

[ $# -eq 3 ] || die "usage: ktap.sh SRC LOG OUT"
src=$1 log=$2 out=$3
kunit=$src/tools/testing/kunit/kunit.py
[ -f "$kunit" ] || die "no $kunit in the gated tree"
mkdir -p "$out"
out=$(cd "$out" && pwd)

begin='safer-fput: guest tests begin'
end='safer-fput: guest tests end'
tr -d '\r' <"$log" | sed -n "/^$begin\$/q;p" >"$out/kunit.log"
tr -d '\r' <"$log" | sed -n "/^$begin\$/,/^$end\$/{/^$begin\$/d;/^$end\$/d;p}" \
	>"$out/guest.log"

status=0
for part in kunit guest; do
	# kunit.py exits 1 on failed tests: the JSON tells which.
	PYTHONDONTWRITEBYTECODE=1 python3 "$kunit" parse \
		--json="$out/$part.json" "$out/$part.log" >"$out/$part.parse" 2>&1 || :
	if [ ! -s "$out/$part.json" ] ||
		grep -q 'could not find any KTAP output' "$out/$part.parse"; then
		note "no KTAP output from the $part tests"
		status=1
		continue
	fi
	# One TSV line per leaf of kunit_json's tree (suite, case, status).
	python3 - "$part" "$out/$part.json" <<-'PY'
		import json, sys
		part, path = sys.argv[1], sys.argv[2]
		def leaves(group, suite):
		    for case in group["test_cases"]:
		        print(part, suite, case["name"], case["status"], sep="\t")
		    for sub in group["sub_groups"]:
		        leaves(sub, suite + "." + sub["name"])
		top = json.load(open(path))
		for suite in top["sub_groups"]:
		    leaves(suite, suite["name"])
		for case in top["test_cases"]:
		    print(part, case["name"], "-", case["status"], sep="\t")
	PY
done
exit "$status"
