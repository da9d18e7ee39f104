#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# trailers.sh - take the trailers reviewers sent to the list (Reviewed-by,
# Acked-by, Tested-by, ... in replies to a sent revision of the series) onto
# the commits of branch b4/safer-fput with `b4 trailers -u`, then write the
# branch back to series/$KVER/$REV (make export). b4 finds the threads by the
# series' change-id through the local list's HTTP server (mail/httpd.sh,
# started for the run if it is not up). Ends with one verdict line:
#   trailers vN: PASS (...)  |  trailers vN: FAIL: reason
# b4 0.12 takes a trailer only from an address whose domain has a dot.
set -euo pipefail
PROG=trailers
# shellcheck source=lib-mail.sh
. "$(dirname "$0")/lib-mail.sh"
workdir_lock

check_rev
require_tree
require_clean_tree
branch_exists || die "no branch $BRANCH in $TREE (run 'make series')"
[ "$REV" = "$SERIES_CURRENT" ] ||
	die "REV=$REV is not the current revision $SERIES_CURRENT: trailers go on the revision being prepared"
[ "$(tgit symbolic-ref -q HEAD)" = "refs/heads/$BRANCH" ] ||
	die "$TREE is not on branch $BRANCH (run 'make series')"
tmp=$(mktemp -d)
started=
cleanup() {
	[ -z "$started" ] || "$MAIL/httpd.sh" stop >/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
export_branch "$tmp"
series_matches "$tmp" ||
	die "$BRANCH differs from $(repo_path "$SERIES_DIR/$REV"); run 'make export' (or 'make series') first"
n=$(rev_number "$REV")
sent=
for k in $(seq "$n"); do
	[ -z "$(msgid_of "$k" <"$tmp/cover.txt")" ] || sent="$sent v$k"
done
[ -n "$sent" ] || die "no revision of the series was sent yet (b4's tracking history is empty)"

# trailers: per patch of the branch, its review trailers, one line each.
trailers() {
	local c
	for c in $(tgit rev-list --reverse "$(cover_commit)..$BRANCH"); do
		tgit log -1 --format=%B "$c" |
			grep -E '^(Reviewed|Acked|Tested|Reported|Suggested)-by: ' |
			awk -v s="$(tgit log -1 --format=%s "$c" | tr '|' '/')" '{ print s "|" $0 }' || true
	done
}

mail_config
if ! "$MAIL/httpd.sh" status >/dev/null; then
	"$MAIL/httpd.sh" start >&2
	started=1
fi
trailers | sort >"$tmp/before"
note "b4 trailers -u: replies to${sent} on $LIST_URL/"
if ! (cd "$TREE" && b4 trailers -u) >"$tmp/b4.log" 2>&1; then
	sed 's/^/       /' "$tmp/b4.log" | tail -n 5 >&2
	printf 'trailers %s: FAIL: b4 trailers -u failed: %s\n' "$REV" "$(tail -n 1 "$tmp/b4.log")"
	exit 1
fi
trailers | sort >"$tmp/after"
comm -13 "$tmp/before" "$tmp/after" >"$tmp/new"
# Whatever b4 changed (a trailer kind not counted above too) goes to
# series/$KVER/: the branch must not be left ahead of the repository.
mkdir "$tmp/now"
export_branch "$tmp/now"
if ! series_matches "$tmp/now" && ! "$TOP/scripts/export.sh"; then
	printf 'trailers %s: FAIL: %s has the trailers but %s could not be written; run make export\n' \
		"$REV" "$BRANCH" "$(repo_path "$SERIES_DIR/$REV")"
	exit 1
fi
if [ ! -s "$tmp/new" ]; then
	printf 'trailers %s: PASS (no new trailers on the list for%s)\n' "$REV" "$sent"
	exit 0
fi
sed 's/^/  + /; s/|/: /' "$tmp/new" >&2
printf 'trailers %s: PASS (%d trailers added to %d patches from replies to%s; %s exported)\n' \
	"$REV" "$(wc -l <"$tmp/new")" "$(cut -d'|' -f1 "$tmp/new" | sort -u | wc -l)" "$sent" "$(repo_path "$SERIES_DIR/$REV")"
