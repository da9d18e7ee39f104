#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# revision.sh - start v(N+1) from vN, as a b4 reroll does.
#
# Like `b4 send`'s reroll: vN is kept as tag sent/safer-fput-vN (its patches
# without the cover commit, the tag message carrying base-commit and change-id,
# so `b4 prep --compare-to vN` works), the cover's tracking block moves to
# revision N+1 and gains b4's "Changes in v(N+1)" template.
# series/KVER/v(N+1) starts as a copy of series/KVER/vN and becomes the
# current revision in series/KVER/series.conf.
set -euo pipefail
PROG=revision
# shellcheck source=../mail/lib-mail.sh
. "$(dirname "$0")/../mail/lib-mail.sh"
workdir_lock

check_rev
require_tree
require_clean_tree
branch_exists || die "no branch $BRANCH in $TREE (run 'make series')"
n=$(rev_number "$REV")
next=v$((n + 1))
[ "$REV" = "$SERIES_CURRENT" ] ||
	die "REV=$REV is not the current revision $SERIES_CURRENT; only the current one can be rerolled"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export_branch "$tmp"
# After `make send`, b4 has already rerolled: vN is the revision being
# prepared, not one to tag and move past. b4's tracking block records
# the message-id of each revision it sent (a reroll of an unsent
# revision by this script records none).
if [ "$n" -gt 1 ] && [ -n "$(msgid_of "$((n - 1))" <"$tmp/cover.txt")" ] &&
	! tgit rev-parse -q --verify "refs/tags/sent/$SERIES_NAME-$REV" >/dev/null; then
	die "$REV is not sent yet: b4 started it when v$((n - 1)) was sent; edit it, 'make export', 'make send'"
fi
[ -e "$SERIES_DIR/$next" ] || [ -e "$COVER_DIR/$next.txt" ] &&
	die "$(repo_path "$SERIES_DIR/$next") or $(repo_path "$COVER_DIR/$next.txt") already exists"
[ -z "$(git -C "$TOP" status --porcelain -- "$SERIES_DIR" "$COVER_DIR")" ] ||
	die "$(repo_path "$SERIES_DIR")/ or $(repo_path "$COVER_DIR")/ has uncommitted changes in this repo; commit them first"

series_matches "$tmp" ||
	die "$BRANCH differs from $(repo_path "$SERIES_DIR/$REV"); run 'make export' (or 'make series') first"

# Tag vN the way b4's reroll does for the 'commit' cover strategy.
tag=sent/$SERIES_NAME-$REV
base=$(series_base)
cover=$(cover_commit)
head=$(tgit rev-parse "$BRANCH")
if tgit rev-parse -q --verify "refs/tags/$tag" >/dev/null; then
	note "tag $tag exists (vN was sent): keeping it"
else
	change_id=$(sed -n 's/^ *"change-id": "\(.*\)",*$/\1/p' "$tmp/cover.txt")
	tgit checkout -q --detach "$base"
	if [ "$(tgit rev-list --count "$cover..$head")" -gt 0 ]; then
		tgit cherry-pick --allow-empty "$cover..$head" >/dev/null
	fi
	{
		sed -e '/^--- b4-submit-tracking ---$/,$d' -e '/^#/d' "$tmp/cover.txt"
		printf -- '---\nbase-commit: %s\nchange-id: %s\n' "$(tgit rev-parse "$base^{commit}")" "$change_id"
	} | tgit tag -a -F - "$tag"
	tgit checkout -q "$BRANCH"
	note "tagged $REV as $tag"
fi

# The new cover: b4's changelog template, revision N+1.
python3 - "$tmp/cover.txt" "$COVER_DIR/$next.txt" "$n" <<'PY'
import re, sys
src, dst, old = sys.argv[1], sys.argv[2], int(sys.argv[3])
text = open(src).read()
cover, marker, tracking = text.partition('--- b4-submit-tracking ---')
tracking = re.sub(r'"revision": %d' % old, '"revision": %d' % (old + 1), tracking)
entry = ('Changes in v%d:\n- EDITME: describe what is new in this series revision.\n'
         '- EDITME: use bulletpoints and terse descriptions.\n'
         '- Link to v%d: EDITME (not sent)\n\n') % (old + 1, old)
sections = cover.split('---\n')
for i, s in enumerate(sections):
    if re.search(r'^changes in v\d+', s, flags=re.I | re.M):
        sections[i] = entry + s
        cover = '---\n'.join(sections)
        break
else:
    cover = cover.rstrip('\n') + '\n\n---\n' + entry
open(dst, 'w').write(cover + marker + tracking)
PY
cp -r "$SERIES_DIR/$REV" "$SERIES_DIR/$next"
sed -i "s/^SERIES_CURRENT=.*/SERIES_CURRENT=$next/" "$SERIES_CONF"
note "created $(repo_path "$SERIES_DIR/$next") and $(repo_path "$COVER_DIR/$next.txt"); current revision is now $next"
REV=$next "$TOP/scripts/series.sh"
