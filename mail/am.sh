#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# am.sh - take a sent revision back from the local list and prove it is what
# was sent: the thread is read straight from the inbox's git epochs
# (mail/inbox-thread), `b4 am` makes it an am-ready mbox, `git am` applies it
# in a scratch worktree at the base, and the result must equal tag
# sent/safer-fput-vN: same tree, and per patch the same author, message and
# diff. No server, no network. Ends with one verdict line:
#   am vN: PASS (...)  |  am vN: FAIL: reason
#
# usage: am.sh [vN]   default: the newest revision with a sent/ tag
set -euo pipefail
PROG=am
# shellcheck source=lib-mail.sh
. "$(dirname "$0")/lib-mail.sh"
workdir_lock

require_tree
base=$(series_base)
if [ $# -gt 0 ]; then
	n=$(rev_number "$1")
else
	n=$(tgit tag -l "$(sent_tag '*')" | sed -n "s|^$(sent_tag '')\([0-9]*\)$|\1|p" | sort -n | tail -n 1)
	[ -n "$n" ] || die "no revision was sent yet (no tag $(sent_tag N)); run 'make send'"
fi
tag=$(sent_tag "$n")
tgit rev-parse -q --verify "refs/tags/$tag" >/dev/null || die "v$n was not sent (no tag $tag)"
label="am v$n"
fail() {
	printf '%s: FAIL: %s\n' "$label" "$*"
	exit 1
}

msgid=
if branch_exists; then
	msgid=$(tgit cat-file commit "$(cover_commit)" | sed '1,/^$/d' | msgid_of "$n" || true)
fi
if [ -z "$msgid" ] && [ -f "$COVER_DIR/v$((n + 1)).txt" ]; then
	msgid=$(msgid_of "$n" <"$COVER_DIR/v$((n + 1)).txt" || true)
fi
[ -n "$msgid" ] || die "no message-id of v$n in b4's tracking history (branch cover or $(repo_path "$COVER_DIR/v$((n + 1)).txt"))"

lists=$(lists_dir)
tmp=$(mktemp -d)
wt=$WORKDIR/mail/$KVER/am-wt
cleanup() {
	git -C "$wt" am --abort >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT

"$MAIL/inbox-thread" "$lists/all" "$msgid" >"$tmp/thread.mbox" 2>"$tmp/err" ||
	fail "$(tail -n 1 "$tmp/err")"
count=$(grep -c '^From mboxrd@z ' "$tmp/thread.mbox")

# The scratch worktree, detached at the base: the tree's checkout and
# branches are never touched.
scratch_worktree "$wt" "$base"
mkdir -p "$tmp/am"
require_b4
(cd "$wt" && b4 --offline-mode am -m - -o "$tmp/am" "$msgid") <"$tmp/thread.mbox" >"$tmp/b4.log" 2>&1 ||
	{ sed 's/^/  /' "$tmp/b4.log" >&2; fail "b4 am of <$msgid> failed"; }
mbx=$(find "$tmp/am" -name '*.mbx' | head -n 1)
[ -n "$mbx" ] || fail "b4 am wrote no mbox for <$msgid>"
git -C "$wt" -c user.name=safer-fput -c user.email=safer-fput@localhost \
	am -q "$mbx" >"$tmp/gitam.log" 2>&1 ||
	{ sed 's/^/  /' "$tmp/gitam.log" >&2; fail "the patches from the list do not apply on $base"; }

got=$(git -C "$wt" rev-parse HEAD)
sent_n=$(tgit rev-list --count "$base..$tag")
got_n=$(git -C "$wt" rev-list --count "$base..$got")
[ "$got_n" = "$sent_n" ] || fail "$got_n patches from the list, $sent_n sent"
tree=$(tgit rev-parse "$tag^{tree}")
[ "$(git -C "$wt" rev-parse "$got^{tree}")" = "$tree" ] ||
	fail "the applied tree differs from $tag ($(git -C "$wt" diff --stat "$tag" "$got" | tail -n 1))"
# Same tree is not enough: same patches, one by one.
each() {
	git -C "$wt" log --reverse --format='commit %an <%ae>%n%B' -p --no-color "$base..$1"
}
each "$tag" >"$tmp/sent"
each "$got" >"$tmp/got"
cmp -s "$tmp/sent" "$tmp/got" ||
	fail "a patch from the list differs from $tag: $(diff "$tmp/sent" "$tmp/got" | grep -m 1 '^[<>] .')"
printf '%s: PASS (%d messages in the local list, %d patches applied on %s = %s, tree %s)\n' \
	"$label" "$count" "$got_n" "$base" "$tag" "${tree:0:12}"
