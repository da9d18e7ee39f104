#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# report.sh - `make cocci-report`: run each semantic patch in report mode over
# $COCCI_TREE; print every site as "file:line: converted" or "file:line:
# rejected: reason", then per script the number of sites, conversions,
# rejections by reason, and the scan time.
set -euo pipefail
PROG="cocci-report"
# shellcheck source=../scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

wt=${COCCI_TREE:-$TREE}
[ -e "$wt/.git" ] || die "no kernel tree at $wt"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for s in ${COCCI_SCRIPTS:-fdget fput_nodefer}; do
	t0=$(date +%s.%N)
	(cd "$wt" && spatch --very-quiet --sp-file "$TOP/coccinelle/$s.cocci" \
		--macro-file "$TOP/coccinelle/macros.h" -D report --dir . \
		--use-gitgrep --jobs "${COCCI_JOBS:-2}") >"$tmp/$s" 2>"$tmp/$s.err" ||
		die "spatch $s.cocci failed: $(tail -n 1 "$tmp/$s.err")"
	t1=$(date +%s.%N)
	sed 's,^\./,,' "$tmp/$s"
	printf '%s.cocci: %d sites, %d converted, %d rejected, scan %.1f s\n' "$s" \
		"$(grep -c ': \(converted\|rejected\)' "$tmp/$s" || true)" \
		"$(grep -c ': converted$' "$tmp/$s" || true)" \
		"$(grep -c ': rejected: ' "$tmp/$s" || true)" \
		"$(echo "$t1 - $t0" | bc)"
	# First reason of each rejected site, line numbers and names folded.
	sed -n 's/^[^ ]*: rejected: //p' "$tmp/$s" | sed 's/;.*//; s/ at line [0-9]*//; s/ (line [0-9]*)//; s/[A-Za-z0-9_]*()/X()/g' |
		sort | uniq -c | sort -rn | sed "s/^/  $s rejected: /"
done
