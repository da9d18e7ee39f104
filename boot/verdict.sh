#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# verdict.sh - turn one boot into "PASS (k suites, n tests)" or "FAIL: reason"
# (one line on stdout, exit 0 or 1), in this order of precedence:
#   a kernel report on the console (console-scan.sh), a boot hang (QEMU still
#   running at the timeout), a not-ok test (ktap.sh), tests a KTAP plan
#   announced that never reported, an expected suite (boot/expected-suites)
#   that did not run at all (of those a KUNIT/SELFTESTS selection selects),
#   no KTAP at all.
#
# usage: verdict.sh SRC CONFIG LOG QEMU-RC TIMEOUT OUT
set -euo pipefail
PROG=verdict
. "$(dirname "$0")/lib-boot.sh"

[ $# -eq 6 ] || die "usage: verdict.sh SRC CONFIG LOG QEMU-RC TIMEOUT OUT"
src=$1 config=$2 log=$3 qrc=$4 secs=$5 out=$6

fail() {
	printf 'FAIL: %s\n' "$*"
	exit 1
}

if ! report=$("$BOOT/console-scan.sh" "$log" "$config"); then
	fail "$report"
fi
[ "$qrc" != 124 ] || fail "boot hang after $secs s"

ktap_ok=1
"$BOOT/ktap.sh" "$src" "$log" "$out" >"$out/results.tsv" || ktap_ok=0

# kunit.py stands in a nameless ERROR test for each one a plan announced
# that never reported (the log ends early): those are counted apart, as
# such, after the tests that did report and failed.
bad=$(awk -F'\t' '$4 != "PASS" && $4 != "SKIP" && $2 != "" {
	n++; if (n == 1) first = $2 ($3 == "-" ? "" : "." $3) }
	END { if (n) printf "%s%s", first, (n > 1 ? " (and " n - 1 " more)" : "") }' \
	"$out/results.tsv")
[ -z "$bad" ] || fail "not ok: $bad"
lost=$(awk -F'\t' '$2 == "" { n[$1]++ }
	END { for (p in n) { printf "%s%d %s", s, n[p], p; s = " and " } }' "$out/results.tsv")
[ -z "$lost" ] || fail "KTAP ends early: $lost planned test(s) never reported"

# A boot with a test selection (KUNIT: kunit.filter_glob, SELFTESTS: guest
# tests) expects only the suites it selected.
guests=$'\n'$(guest_tests)$'\n'
selected() { # SUITE
	local g
	if [[ $guests == *$'\n'"$1"$'\n'* ]]; then
		guest_selected "$1"
	else
		# kunit.filter_glob is one SUITE[.CASE] glob.
		g=${KUNIT:-*}
		# shellcheck disable=SC2053 # the glob is the point
		[[ "$1" == ${g%%.*} ]]
	fi
}

# Expected suites: "SUITE CONFIGS [PATH]"; CONFIGS is "all" or a comma
# list; with PATH the suite is expected only when the gated tree has PATH
# (suites that the series itself adds).
missing=
while read -r suite configs path; do
	case $suite in '' | '#'*) continue ;; esac
	case ",$configs," in ",all," | *",$config,"*) ;; *) continue ;; esac
	[ -z "$path" ] || [ -e "$src/$path" ] || continue
	selected "$suite" || continue
	awk -F'\t' -v s="$suite" '$2 == s || index($2, s ".") == 1 { f = 1 }
		END { exit !f }' "$out/results.tsv" || missing="$missing $suite"
done <"$BOOT/expected-suites"
[ -z "$missing" ] || fail "expected suite(s) did not run:$missing"
[ "$ktap_ok" = 1 ] || fail "no KTAP output (see $out)"

suites=$(awk -F'\t' '{ print $1 "/" $2 }' "$out/results.tsv" |
	sed 's/\..*//' | sort -u | wc -l)
tests=$(wc -l <"$out/results.tsv")
sel=${KUNIT:+, KUNIT=$KUNIT}${SELFTESTS:+, SELFTESTS=$SELFTESTS}
printf 'PASS (%d suites, %d tests%s)\n' "$suites" "$tests" "$sel"
