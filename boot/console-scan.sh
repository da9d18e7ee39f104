#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# console-scan.sh - find the first kernel error report in a console log:
# panic, Oops, BUG (including KASAN and "sleeping function called from
# invalid context"), WARNING (including every lockdep splat), stalls.
# Prints that report's first line and exits 1; exits 0 on a clean log.
#
# usage: console-scan.sh LOG
set -euo pipefail
PROG=console-scan
. "$(dirname "$0")/lib-boot.sh"

[ $# -eq 1 ] || die "usage: console-scan.sh LOG"
[ -f "$1" ] || die "no console log $1"

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
line=$(grep -a -m1 -E "$re" "$1" | tr -d '\r') || exit 0
# Drop the timestamp.
line=$(printf '%s' "$line" | sed -E 's/^\[ *[0-9]+\.[0-9]+\] //')
printf '%s\n' "$line"
exit 1
