#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# report.sh - `make cocci-report`: compute the summaries of $COCCI_TREE, run
# each semantic patch in report mode over it, and account for every line
# that `git grep` finds calling the script's function (fget( for fdget.cocci,
# fput( for fput_nodefer.cocci):
#   file:line: converted
#   file:line: converted to struct fd, not CLASS(fd): <reason>  (a tree
#                                      whose idiom is fd_class, data/idioms)
#   file:line: rejected: <reason>
#   file:line: not analysed: <why>    (a declaration, a comment, a macro
#                                      body, a function spatch cannot parse,
#                                      a file it gave up on after
#                                      COCCI_TIMEOUT seconds)
# then per script the counts, which must add up to the git grep count, the
# rejection reasons folded, and the scan time. Ends with one verdict line;
# exits non-zero when a script lost a site or found one git grep does not.
#
# COCCI_PATHS=DIR...: report on these directories of the tree only (the
# summaries stay the whole tree's: a callee may live anywhere).
#
# Then the audit of every synchronous final put (coccinelle/audit.sh): one
# row per site, "file:line  function()  context  locks", every other git
# grep line of a synchronous put, and the verdict line
#   cocci-report: audit: N synchronous puts: A lock-free, B under a lock
#   (file: lock, ...), C unknown; git grep "...": L lines, ...
# which fails the report when a git grep line is not accounted for.
# COCCI_AUDIT=table prints the rows as a markdown table (a cover letter's),
# COCCI_AUDIT=no leaves the audit out. `report.sh audit` (make cocci-audit)
# runs the audit alone: no summaries, no scripts, and not under WORKDIR's
# lock (it only reads the tree; it fails if the tree's HEAD moves meanwhile).
set -euo pipefail
PROG="cocci-report"
# shellcheck source=../scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"
# shellcheck source=lib-cocci.sh
. "$(dirname "$0")/lib-cocci.sh"

wt=${COCCI_TREE:-$TREE}
only=
case ${1:-} in
'') ;;
audit) only=audit ;;
*) die "usage: report.sh [audit]" ;;
esac
audit=${COCCI_AUDIT:-plain}
case $audit in
plain | table | no) ;;
*) die "COCCI_AUDIT='$audit': say plain, table or no" ;;
esac
[ "$only$audit" != auditno ] || die "COCCI_AUDIT=no leaves make cocci-audit nothing to do"
[ "${COCCI_PATHS-unset}" != "" ] || die "COCCI_PATHS is empty (unset it for the whole tree)"
# Blanks and newlines both separate directories (read -a alone stops at the
# first newline).
read -r -d '' -a paths <<<"${COCCI_PATHS:-.}" || true
[ "${#paths[@]}" -gt 0 ] || die "COCCI_PATHS has no directory (unset it for the whole tree)"
specs=() dirs=()
for p in "${paths[@]}"; do
	case /$p/ in
	//*) die "COCCI_PATHS: $p is absolute; name directories of the tree, like fs or drivers/vfio" ;;
	*/../*) die "COCCI_PATHS: $p leaves the tree" ;;
	*[][*?:\\]*) die "COCCI_PATHS: $p is a pattern; name directories of the tree, like fs or drivers/vfio" ;;
	esac
	# fs//, ./fs/ and fs name the same directory (and git's pathspec).
	p=$(printf '%s' "$p" | sed -E 's|/+|/|g; s|^(\./)+||; s|(/\.)+$||; s|/$||')
	[ -n "$p" ] || p=.
	dirs+=("$p")
	if [ "$p" = . ]; then
		specs+=('*.c' '*.h')
	else
		specs+=("$p/*.c" "$p/*.h")
	fi
done
[ -e "$wt/.git" ] || die "no kernel tree at $wt (run 'make tree')"
for p in "${dirs[@]}"; do
	[ -d "$wt/$p" ] || die "COCCI_PATHS: no directory $p in $wt"
done
[ -n "$only" ] || workdir_lock
command -v spatch >/dev/null || die "spatch not found (apt-get install coccinelle)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

t0=$(date +%s)
if [ -z "$only" ]; then
	use_summaries "$wt"
	printf 'summaries: %d s\n' "$(($(date +%s) - t0))"
fi

# why_not FILE LINE NAME: why spatch reports no site at a git grep hit.
why_not() {
	local f=$1 n=$2 name=$3 text prev
	text=$(sed -n "${n}p" "$wt/$f")
	prev=$(sed -n "$((n > 1 ? n - 1 : 1))p" "$wt/$f")
	if [[ $text =~ ^[[:space:]]*#[[:space:]]*define ]] || { [ "$n" -gt 1 ] && [[ $prev =~ \\$ ]]; }; then
		echo "not analysed: in a macro definition (macro bodies are not parsed)"
	elif [[ $text =~ ^[[:space:]]*(\*|/\*|//) ]] || [[ ${text%%"$name"*} =~ (/\*|//) ]]; then
		echo "not a call: in a comment"
	elif [[ $text =~ ^[A-Za-z_].*[^A-Za-z0-9_]${name}[[:space:]]*\( ]]; then
		echo "not a call: the declaration or definition of $name()"
	elif gave_up "$f"; then
		echo "not analysed: spatch gave up on $f after ${COCCI_TIMEOUT:-120} s (COCCI_TIMEOUT)"
	elif grep -q '^BAD:\|ERROR-RECOV\|nb bad = [1-9]' "$tmp/parse.$(echo "$f" | tr / _)"; then
		echo "not analysed: spatch cannot parse all of $f (spatch --parse-c $f)"
	elif fn=$(blind_spot "$f" "$n") && [ -n "$fn" ]; then
		echo "not analysed: spatch does not match in $fn() (data/blind-spots)"
	else
		echo "unaccounted: spatch did not see this call"
	fi
}

# gave_up FILE: spatch timed out on FILE.
gave_up() {
	local files
	files=$(spatch_gave_up "$tmp/$s" "$tmp/$s.err")
	grep -qxF -e "$1" <<<"$files"
}

# blind_spot FILE LINE: the data/blind-spots function of FILE that encloses
# LINE (the last of them defined above it), if any.
blind_spot() {
	local fn
	awk -v f="$1" '$0 !~ /^#/ && $1 == f { print $2 }' "$TOP/coccinelle/data/blind-spots" |
		while IFS= read -r fn; do
			# Its definition line: the name at the start of a line, or
			# after the return type, before the call.
			if head -n "$2" "$wt/$1" | grep -q -E "^[A-Za-z_].*[^A-Za-z0-9_]$fn\(|^$fn\("; then
				printf '%s\n' "$fn"
			fi
		done | tail -n 1
}

bad=0
failed=()
scripts=${COCCI_SCRIPTS:-fdget fput_nodefer}
[ -z "$only" ] || scripts=
for s in $scripts; do
	case $s in
	fdget) name=fget ;;
	fput_nodefer) name=fput ;;
	*) die "no site function known for $s.cocci" ;;
	esac
	t1=$(date +%s)
	: >"$tmp/$s"
	: >"$tmp/$s.err"
	# The tree's idiom (data/idioms): which form a conversion would take.
	mapfile -t defs < <(cocci_defines "$TOP/coccinelle/$s.cocci" "$wt")
	for p in "${dirs[@]}"; do
		(cd "$wt" && spatch --very-quiet --sp-file "$TOP/coccinelle/$s.cocci" \
			--macro-file "$TOP/coccinelle/macros.h" "${defs[@]}" -D report --dir "$p" --include-headers \
			--use-gitgrep --jobs "${COCCI_JOBS:-2}" --timeout "${COCCI_TIMEOUT:-120}") >>"$tmp/$s" 2>>"$tmp/$s.err" ||
			die "spatch $s.cocci failed on $p: $(tail -n 1 "$tmp/$s.err")"
	done
	t2=$(date +%s)
	sed -n 's,^\./,,; /^[^ ]*:[0-9]*: \(converted\|rejected\)/p' "$tmp/$s" | sort -u >"$tmp/$s.sites"
	git -C "$wt" grep -n -P "\\b$name\\s*\\(" -- "${specs[@]}" | cut -d: -f1,2 | sort -u >"$tmp/$s.grep"
	: >"$tmp/$s.lines"
	while IFS= read -r loc; do
		v=$(grep -m1 -F "$loc: " "$tmp/$s.sites" || true)
		if [ -n "$v" ]; then
			printf '%s\n' "$v" >>"$tmp/$s.lines"
			continue
		fi
		f=${loc%%:*}
		p=$tmp/parse.$(echo "$f" | tr / _)
		if [ ! -e "$p" ]; then
			(cd "$wt" && spatch --parse-c "$f" --macro-file "$TOP/coccinelle/macros.h" \
				--no-includes) >"$p" 2>&1 || true
		fi
		printf '%s: %s\n' "$loc" "$(why_not "$f" "${loc#*:}" "$name")" >>"$tmp/$s.lines"
	done <"$tmp/$s.grep"
	# A site spatch reports that git grep does not find (a macro use).
	cut -d: -f1,2 "$tmp/$s.sites" | sort -u | comm -23 - "$tmp/$s.grep" >"$tmp/$s.extra"
	while IFS= read -r loc; do
		grep -m1 -F "$loc: " "$tmp/$s.sites" >>"$tmp/$s.lines"
	done <"$tmp/$s.extra"
	sort -t: -k1,1 -k2,2n "$tmp/$s.lines"
	total=$(wc -l <"$tmp/$s.lines")
	ngrep=$(wc -l <"$tmp/$s.grep")
	conv=$(grep -c ': converted\($\| \)' "$tmp/$s.lines" || true)
	rej=$(grep -c ': rejected: ' "$tmp/$s.lines" || true)
	na=$(grep -c ': not \(analysed\|a call\)' "$tmp/$s.lines" || true)
	lost=$(grep -c ': unaccounted: ' "$tmp/$s.lines" || true)
	printf '%s.cocci: %d sites: %d converted, %d rejected, %d not analysed or not calls, %d unaccounted; git grep "%s(": %d lines; scan %d s\n' \
		"$s" "$total" "$conv" "$rej" "$na" "$lost" "$name" "$ngrep" "$((t2 - t1))"
	# First reason of each rejected site, line numbers and names folded.
	sed -n 's/^[^ ]*: rejected: //p' "$tmp/$s.lines" |
		sed 's/;.*//; s/ at line [0-9]*//; s/ (line [0-9]*)//; s/ -> .*//; s/[A-Za-z0-9_]*()/X()/g' |
		sort | uniq -c | sort -rn | sed "s/^/  $s rejected: /"
	if [ "$total" -ne "$ngrep" ] || [ "$lost" -ne 0 ]; then
		printf '%s.cocci: %d sites are not git grep lines, %d git grep lines unaccounted for\n' \
			"$s" "$(wc -l <"$tmp/$s.extra")" "$lost"
		bad=$((bad + 1))
		failed+=("$s.cocci")
	fi
done

# The audit: its own walk over the tree, its facts under WORKDIR/cocci/audit
# (one directory per commit, one audit at a time in it).
if [ "$audit" != no ]; then
	head=$(git -C "$wt" rev-parse HEAD)
	adir=$WORKDIR/cocci/audit/$head
	mkdir -p "$adir"
	exec 8>>"$adir.lock"
	flock 8
	t1=$(date +%s)
	rc=0
	COCCI_AUDIT=$audit AUDIT_PATHS="${specs[*]}" "$TOP/coccinelle/audit.sh" "$wt" "$adir" || rc=$?
	[ "$rc" -le 1 ] || die "the audit of $wt did not complete"
	now=$(git -C "$wt" rev-parse HEAD)
	[ "$now" = "$head" ] || die "$wt moved from $head to $now during the audit: run it again"
	printf 'cocci-report: audit: scan %d s\n' "$(($(date +%s) - t1))"
	if [ "$rc" -ne 0 ]; then
		bad=$((bad + 1))
		failed+=(audit)
	fi
fi
if [ "$bad" -ne 0 ]; then
	printf 'cocci-report: FAIL: %s: not every git grep site accounted for\n' "${failed[*]}"
	exit 1
fi
printf 'cocci-report: PASS (every git grep site accounted for, %d s)\n' "$(($(date +%s) - t0))"
