#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# audit.sh TREE OUT [FILE...] - the audit of every synchronous final put
# (data/sync-puts, and the variables of a DEFINE_FREE() class whose
# destructor is one): one row per site,
#   file:line  function()  context  locks
# context: how the function is reached: user task (a system call, or a
# file_operations method of one: data/entries), kthread, workqueue, or
# unknown and why (mixed, or a way in the walk cannot see). locks: the locks
# of data/locks and the cleanup.h lock guards held at the put on some path,
# flow-sensitively, in the function and, through every caller the walk
# finds, at the call in each caller ("LOCK in caller()"); none only when the
# walk sees every way in and no lock on any; otherwise unknown and why. A
# callee is taken to return with the locks it was called with: the
# summaries' "may return with a lock held" is a may-analysis over every
# architecture (kfree() is one by it), so it never names a lock here; with
# COCCI_AUDIT_CALLEES=1 a call of such a callee (or an indirect call) before
# the put makes the locks unknown. Then every other line git grep finds (a
# definition, a comment, the DEFINE_FREE()) and the verdict line; exits 1
# when a git grep line is unaccounted for (2 on an error).
#
# Round 0 runs audit.cocci over the files with a site; each next round looks
# for the callers and the other uses of the functions the last round added to
# the walk (a static one in its own file, a global one wherever git grep -w
# finds its name), up to COCCI_AUDIT_DEPTH (5) levels. With FILEs (the
# tests), only those files are read. COCCI_AUDIT=table prints the rows as a
# markdown table; AUDIT_PATHS (git pathspecs) limits the sites, not the
# callers.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
PROG=audit
# shellcheck source=lib-cocci.sh
. "$here/lib-cocci.sh"
die() { printf '%s: error: %s\n' "$PROG" "$*" >&2; exit 2; }

[ $# -ge 2 ] || die "usage: audit.sh TREE OUT [FILE...]"
tree=$1
out=$2
shift 2
files=("$@")
depth=${COCCI_AUDIT_DEPTH:-5}
jobs=${COCCI_JOBS:-2}
timeout=${COCCI_TIMEOUT:-120}
[ -d "$tree" ] || die "no tree at $tree"
case $depth in '' | *[!0-9]*) die "COCCI_AUDIT_DEPTH='$depth' is not a number" ;; esac
case ${COCCI_AUDIT:-plain} in plain | table) ;; *) die "COCCI_AUDIT='$COCCI_AUDIT': say plain or table" ;; esac
command -v spatch >/dev/null || die "spatch not found (apt-get install coccinelle)"
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -rf "$out/facts" "$out/grep" "$out/sum" "$out/walk" "$out/scanned" "$out/gaveup"
mkdir -p "$out/facts" "$out/grep"
: >"$out/walk"
: >"$out/scanned"
: >"$out/gaveup"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export SAFER_FPUT_DATA=$here/data COCCI_AUDIT_DEPTH=$depth COCCI_AUDIT_CALLEES=${COCCI_AUDIT_CALLEES:-0}
cat "$here/macros.h" "$here/audit-macros.h" >"$out/macros.h"
callees=()
[ "${COCCI_AUDIT_CALLEES:-0}" != 1 ] || callees=(-D callees)
sed 's/#.*//' "$here/data/sync-puts" | awk 'NF { print $1 }' >"$out/puts"

# search ARGS...: grep -n in the FILEs, or git grep -n in the tree's C files.
search() {
	if [ ${#files[@]} -gt 0 ]; then
		(cd "$tree" && grep -n -H "$@" -- "${files[@]}") || true
	else
		git -C "$tree" grep -n "$@" -- "${pathspec[@]}" || true
	fi
}

# scan ROUND TARGETS FILE...: audit.cocci over FILEs, one file a group (the
# rules inherit positions: a group of several would mix their files), with
# the names of TARGETS as targets.
scan() {
	local r=$1 targets=$2
	shift 2
	mkdir -p "$out/facts/$r"
	printf '%s\n' "$@" >>"$out/scanned"
	[ $# -gt 0 ] || return 0
	printf '%s\n\n' "$@" >"$tmp/groups.$r"
	(cd "$tree" && AUDIT_FACTS="$out/facts/$r" AUDIT_TARGETS="$targets" AUDIT_FREE="$out/free" \
		spatch --very-quiet --sp-file "$here/audit.cocci" --macro-file "$out/macros.h" \
		-D audit "${callees[@]}" --no-includes --include-headers --timeout "$timeout" --jobs "$jobs" \
		--file-groups "$tmp/groups.$r") >"$tmp/scan.$r.log" 2>&1 || {
		tail -n 5 "$tmp/scan.$r.log" >&2
		die "spatch audit.cocci failed in round $r"
	}
	spatch_gave_up "$tmp/scan.$r.log" >>"$out/gaveup"
}

t0=$(date +%s)
# The sites: the calls of data/sync-puts, and the __free() variables of the
# DEFINE_FREE() classes whose destructor calls one.
pathspec=('*.c' '*.h')
[ -z "${AUDIT_PATHS:-}" ] || read -r -a pathspec <<<"$AUDIT_PATHS"
alt=$(paste -sd '|' "$out/puts")
search -P "\\b($alt)\\s*\\(" >"$out/grep.puts"
python3 "$here/audit.py" classes "$out/grep.puts" "$tree" >"$out/free"
cp "$out/grep.puts" "$out/grep.sites"
if [ -s "$out/free" ]; then
	search -P "__free\\(\\s*($(paste -sd '|' "$out/free"))\\s*\\)" >"$out/grep.free"
	sort -t: -k1,1 -k2,2n -u "$out/grep.puts" "$out/grep.free" >"$out/grep.sites"
fi
pathspec=('*.c' '*.h')
mapfile -t sitefiles < <(cut -d: -f1 "$out/grep.sites" | sort -u)
scan 0 "$out/puts" "${sitefiles[@]}"
printf 'audit: round 0: %d files with a site (at %d s)\n' "${#sitefiles[@]}" "$(($(date +%s) - t0))" >&2

# The walk up the callers.
r=1
while [ "$r" -le "$depth" ]; do
	python3 "$here/audit.py" next "$out" >"$tmp/next"
	[ -s "$tmp/next" ] || break
	cut -f1 "$tmp/next" | sort -u >"$tmp/names.$r"
	# A static function is called in its own file only; a global one
	# wherever its name is.
	{
		awk -F '\t' '$2 != "*" { print $1 "\t" $2 }' "$tmp/next" | while IFS=$'\t' read -r n f; do
			if [ ${#files[@]} -gt 0 ]; then
				(cd "$tree" && grep -n -H -w -F -e "$n" -- "$f") || true
			else
				git -C "$tree" grep -n -w -F -e "$n" -- "$f" || true
			fi
		done
		awk -F '\t' '$2 == "*" { print $1 }' "$tmp/next" >"$tmp/global"
		if [ -s "$tmp/global" ]; then
			search -w -F -f "$tmp/global"
		fi
	} | sort -u >"$out/grep/$r"
	mapfile -t rfiles < <(cut -d: -f1 "$out/grep/$r" | sort -u)
	printf 'audit: round %d: callers of %d functions, %d files (at %d s)\n' \
		"$r" "$(wc -l <"$tmp/next")" "${#rfiles[@]}" "$(($(date +%s) - t0))" >&2
	scan "$r" "$tmp/names.$r" "${rfiles[@]}"
	r=$((r + 1))
done

# The lock guards the tree defines (cleanup.h's DEFINE_*GUARD*()).
gpat='DEFINE_(LOCK_)?GUARD(_[012])?(_COND(_[34])?)?[[:space:]]*\('
if [ ${#files[@]} -gt 0 ]; then
	(cd "$tree" && grep -h -E -A4 "$gpat" -- "${files[@]}") >"$tmp/guards" || true
else
	git -C "$tree" grep -h -E -A4 "$gpat" -- '*.c' '*.h' >"$tmp/guards" || true
fi
python3 "$here/audit.py" guards "$tree" "$tmp/guards" >"$out/guards"

# With COCCI_AUDIT_CALLEES=1, the summaries of the callees before a site or
# a call on the walk: a call of one that may return with a lock held makes
# the locks there unknown.
if [ "${COCCI_AUDIT_CALLEES:-0}" = 1 ]; then
	python3 "$here/audit.py" callees "$out" >"$out/callees"
	sort -u "$out/scanned" | sed '/^$/d' >"$tmp/scanned"
	if [ ${#files[@]} -gt 0 ]; then
		(cd "$tree" && COCCI_CACHE='' "$here/summaries.sh" . "$out/sum" "${files[@]}") >"$tmp/sum.log" 2>&1 ||
			{ tail -n 5 "$tmp/sum.log" >&2; die "the summaries could not be computed"; }
	else
		COCCI_SUMMARY_ROOTS="$out/callees" COCCI_SUMMARY_FILES="$tmp/scanned" \
			"$here/summaries.sh" "$tree" "$out/sum" >"$tmp/sum.log" 2>&1 ||
			{ tail -n 5 "$tmp/sum.log" >&2; die "the summaries could not be computed"; }
	fi
	printf 'audit: %s (the locked summaries of %d callees)\n' "$(tail -n 1 "$tmp/sum.log")" "$(wc -l <"$out/callees")" >&2
fi

rc=0
python3 "$here/audit.py" rows "$out" "$tree" || rc=$?
[ "$rc" -le 1 ] || die "audit.py could not decide the rows"
printf 'audit: %d rounds, %d files read, %d s\n' "$r" "$(sort -u "$out/scanned" | sed '/^$/d' | wc -l)" "$(($(date +%s) - t0))" >&2
exit "$rc"
