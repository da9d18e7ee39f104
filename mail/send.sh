#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# send.sh - b4 send the current revision to the local list, only if gated.
#
# Refused (one line, exit 1) unless: REV is the current revision, the branch
# equals series/$KVER/$REV and cover-letters/$KVER/$REV.txt, the cover has no EDITME and
# a current results block (make cover), and boot/gate-check accepts the head.
# The kernel tree's git config is pointed at mail/deliver every time (and
# checked): whatever the recipients, mail lands in the local inbox only.
#
# b4 0.12 then tags sent/safer-fput-vN and rerolls the branch to v(N+1) (new
# tracking revision, the v(N) message-id in its history, a "Changes in
# v(N+1)" template). The repo follows: the branch is exported as
# series/$KVER/v(N+1) and cover-letters/$KVER/v(N+1).txt, and
# series/$KVER/series.conf names v(N+1) current, as after `make revision`.
#
# usage: send.sh [--dry-run]   --dry-run: b4 send -o $WORKDIR/mail/$KVER/$REV-dry/
set -euo pipefail
PROG=send
# shellcheck source=lib-mail.sh
. "$(dirname "$0")/lib-mail.sh"
workdir_lock

dry=
[ "${1:-}" = --dry-run ] && dry=1
check_rev
[ "$REV" = "$SERIES_CURRENT" ] ||
	die "REV=$REV is not the current revision $SERIES_CURRENT; only the current one is sent"
require_tree
branch_exists || die "no branch $BRANCH in $TREE (run 'make series')"
require_clean_tree
[ "$(tgit symbolic-ref -q HEAD)" = "refs/heads/$BRANCH" ] ||
	die "$TREE is not on branch $BRANCH (run 'make series')"
n=$(rev_number "$REV")
tag=$(sent_tag "$n")
tgit rev-parse -q --verify "refs/tags/$tag" >/dev/null &&
	die "$REV was already sent (tag $tag exists)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export_branch "$tmp"
series_matches "$tmp" ||
	die "$BRANCH differs from $(repo_path "$SERIES_DIR/$REV") or $(repo_path "$COVER_DIR/$REV.txt"); run 'make export' or 'make series' first"
line=$(grep -v '^#' "$COVER_DIR/$REV.txt" | grep -n -m 1 EDITME || true)
[ -z "$line" ] ||
	die "$(repo_path "$COVER_DIR/$REV.txt") still contains EDITME (\"${line#*:}\"); edit it, then 'make cover'"
"$MAIL/cover.sh" --check 2>"$tmp/err" || die "$(sed 's/^cover: error: //' "$tmp/err" | tail -n 1)"
if ! "$TOP/boot/gate-check" >/dev/null 2>"$tmp/err"; then
	why=$(sed 's/^gate-check: error: //' "$tmp/err" | tail -n 1)
	[ -n "$dry" ] || die "not gated: $why"
	note "not gated ($why): a dry run only"
fi

mail_config
if [ -n "$dry" ]; then
	out=$WORKDIR/mail/$KVER/$REV-dry
	rm -rf "$out"
	mkdir -p "$out"
	(cd "$TREE" && b4 send -o "$out") >"$tmp/b4.log" 2>&1 || {
		cat "$tmp/b4.log" >&2
		die "b4 send -o $out failed"
	}
	printf 'send %s: PASS (dry run: %d messages written to %s, nothing sent)\n' \
		"$REV" "$(find "$out" -name '*.eml' | wc -l)" "$out"
	exit 0
fi

head=$(tgit rev-parse "$BRANCH")
base=$(series_base)
mkdir -p "$WORKDIR/mail/$KVER"
log=$WORKDIR/mail/$KVER/send-$REV.log
lists=$(lists_dir)
# b4 asks for confirmation even without a terminal (stdin at EOF crashes
# it): answer Enter.
if ! (cd "$TREE" && printf '\n' | b4 send) >"$log" 2>&1; then
	sed 's/^/  /' "$log" >&2
	die "b4 send failed (log: $log)"
fi
tgit rev-parse -q --verify "refs/tags/$tag" >/dev/null ||
	die "b4 send did not tag $tag (log: $log)"
[ "$(tgit rev-parse "$tag^{tree}")" = "$(tgit rev-parse "$head^{tree}")" ] ||
	die "tag $tag does not hold the tree of the gated head ${head:0:12}"
npatch=$(tgit rev-list --count "$base..$tag")

# Follow b4's reroll: the branch is now at v(N+1).
export_branch "$tmp/next"
got=$(cover_revision "$tmp/next/cover.txt")
next=v$((n + 1))
[ "$got" = "$((n + 1))" ] ||
	die "after b4 send, $BRANCH is at v$got, not $next; repo left at $REV (log: $log)"
if [ -e "$SERIES_DIR/$next" ] || [ -e "$COVER_DIR/$next.txt" ]; then
	die "$(repo_path "$SERIES_DIR/$next") or $(repo_path "$COVER_DIR/$next.txt") already exists; export the branch by hand (REV=$next make export KVER=$KVER)"
fi
mkdir -p "$SERIES_DIR/$next"
REV=$next "$TOP/scripts/export.sh"
sed -i "s/^SERIES_CURRENT=.*/SERIES_CURRENT=$next/" "$SERIES_CONF"
# The message-id b4 recorded for vN; its thread must be in the inbox.
msgid=$(msgid_of "$n" <"$COVER_DIR/$next.txt")
[ -n "$msgid" ] || die "b4 recorded no message-id for $REV in $(repo_path "$COVER_DIR/$next.txt")"
got=$("$MAIL/inbox-thread" --count "$lists/all" "$msgid")
[ "$got" = $((npatch + 1)) ] ||
	die "the local list holds $got messages of $REV <$msgid>, not cover + $npatch patches"
note "b4 rerolled $BRANCH to $next: exported as $(repo_path "$SERIES_DIR/$next") and $(repo_path "$COVER_DIR/$next.txt"); current revision is now $next"
printf 'send %s: PASS (cover + %d patches in the local list %s, <%s>, tag %s)\n' \
	"$REV" "$npatch" "$LIST_ADDR" "$msgid" "$tag"
