#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# console-scan.sh - find the first kernel error report in a console log:
# panic, Oops, BUG (including KASAN and "sleeping function called from
# invalid context"), WARNING (including every lockdep splat), stalls.
# Prints that report's first line and exits 1; exits 0 on a clean log.
#
# A report that boot/known-issues lists for this KVER, ARCH and CONFIG,
# inside the KUnit suite it names, is skipped: stderr says how many per
# suite, and the first of them.
#
# usage: console-scan.sh LOG [CONFIG]
set -euo pipefail
PROG=console-scan
. "$(dirname "$0")/lib-boot.sh"

case $# in 1 | 2) ;; *) die "usage: console-scan.sh LOG [CONFIG]" ;; esac
[ -f "$1" ] || die "no console log $1"
log=$1 config=${2:-}

# Kernel reports start a line (guest test output is indented by init.sh).
# Lockdep reports are "WARNING: possible circular locking dependency
# detected", "WARNING: inconsistent lock state", "WARNING: possible recursive
# locking detected", ...; KASAN's are "BUG: KASAN: use-after-free in ...".
re='^(\[ *[0-9]+\.[0-9]+\] )?'
re+='(Kernel panic - not syncing|BUG: |WARNING: |Oops|kernel BUG at |'
re+='general protection fault|Unable to handle kernel|UBSAN: |'
re+='INFO: task .* blocked for more than|'
re+='INFO: trying to register non-static key|DEBUG_LOCKS_WARN_ON|'
re+='.*rcu.* detected stalls|watchdog: BUG: soft lockup)'

# The known issues of this cell: SUITE<TAB>REGEX lines.
known=$(awk -F'\t+' -v k="$KVER" -v a="$ARCH" -v c="$config" \
	'/^#/ || NF < 5 { next } $1 == k && $2 == a && $3 == c { print $4 "\t" $5 }' \
	"$BOOT/known-issues")

# Each report with the KUnit suite it came in (from its "# Subtest:" line
# to its own "ok N" / "not ok N" line), timestamps dropped.
result=$(tr -d '\r' <"$log" | sed -E 's/^\[ *[0-9]+\.[0-9]+\] //' |
	KNOWN=$known awk -v re="$re" '
	BEGIN { n = split(ENVIRON["KNOWN"], k, "\n")
		for (i = 1; i <= n; i++) { split(k[i], f, "\t"); ks[i] = f[1]; kr[i] = f[2] } }
	# Read to the end after the first report: an early exit would kill
	# tr and sed with SIGPIPE, and pipefail would make that the status.
	done { next }
	/^    # Subtest: / { suite = substr($0, 16) }
	/^(not )?ok [0-9]+ / { suite = "" }
	$0 ~ re {
		for (i = 1; i <= n; i++)
			if (ks[i] != "" && suite == ks[i] && $0 ~ kr[i]) {
				print "known\t" suite "\t" $0; next }
		print "report\t" $0; done = 1 }')
printf '%s\n' "$result" | awk -F'\t' '$1 == "known" { if (!n[$2]++) first[$2] = $3 }
	END { for (s in n) printf "console-scan: skipped %d report(s) boot/known-issues lists in %s, first: %s\n",
		n[s], s, first[s] }' | sort >&2
line=$(printf '%s\n' "$result" | sed -n 's/^report\t//p')
[ -n "$line" ] || exit 0
printf '%s\n' "$line"
exit 1
