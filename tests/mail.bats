#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# mail.bats - make cover, send, am: the local list, the send refusals, a full
# send that b4 rerolls, and the sent series taken back from the list.
#
# Runs in a copy of this repo. The kernel tree is the test workdir's
# ($TEST_WORKDIR/linux-6.1, made by `make tree` if missing); everything else
# (list, gate records, b4 output) lives in a private workdir $MW whose
# linux-6.1 is a symlink to that tree, so no real gate record is touched.
# The branch and the tag b4 send creates are put back at the end.

load helpers

setup_file() {
	R=$BATS_FILE_TMPDIR/repo
	MW=$TEST_WORKDIR/mail-test
	export R MW
	copy_repo "$R"
	mkdir -p "$TEST_WORKDIR"
	[ -d "$TEST_WORKDIR/linux-6.1/.git" ] || mk "$R" tree >"$BATS_FILE_TMPDIR/tree.log" 2>&1
	rm -rf "$MW/lists" "$MW/gate" "$MW/mail/$DEF_KVER/send-$CUR_REV.log"
	mkdir -p "$MW"
	ln -sfn "$TEST_WORKDIR/linux-6.1" "$MW/linux-6.1"
	tgit tag -d "sent/safer-fput-$CUR_REV" >/dev/null 2>&1 || true
	# Start from the branch as series/$CUR_REV makes it (a branch left by
	# another run at another revision is saved in refs/safer-fput/).
	if tgit rev-parse -q --verify b4/safer-fput >/dev/null; then
		tgit update-ref refs/safer-fput/synced b4/safer-fput
	fi
	mm "$R" series >"$BATS_FILE_TMPDIR/series.log" 2>&1
	tgit rev-parse b4/safer-fput >"$BATS_FILE_TMPDIR/saved-head"
}

teardown_file() {
	local head
	head=$(cat "$BATS_FILE_TMPDIR/saved-head")
	tgit checkout -q -f b4/safer-fput
	tgit reset -q --hard "$head"
	tgit update-ref refs/safer-fput/synced "$head"
	tgit tag -d "sent/safer-fput-$CUR_REV" >/dev/null 2>&1 || true
	drop_scratch "$MW"
}

# mm DIR ARGS...: make in repo copy DIR with the private mail workdir.
mm() {
	local dir=$1
	shift
	make -s -C "$dir" WORKDIR="$MW" "$@"
}

# fake_gate_record HEAD [ARCH/CONFIG...]: gate records in the format
# boot/boot.sh --record writes, naming HEAD, one per cell (default: every
# cell of boot/gate-matrix). They stand in for real `make gate` runs
# (minutes of kernel build and QEMU boot, exercised by tests/gate.bats):
# what is tested here is that make send obeys boot/gate-check, not the gate.
fake_gate_record() {
	local head=$1 base cell arch config
	shift
	# shellcheck disable=SC2046 # one word per cell
	[ $# -gt 0 ] || set -- $(sed 's/#.*//' "$R/boot/gate-matrix" | awk 'NF == 2 { print $1 "/" $2 }')
	base=$(tgit rev-parse "base/linux-source-6.1.192-3^{commit}")
	mkdir -p "$MW/gate/$DEF_KVER"
	for cell; do
		arch=${cell%/*} config=${cell#*/}
		{
			printf 'revision %s\narch %s\nconfig %s\nbranch b4/safer-fput\n' "$CUR_REV" "$arch" "$config"
			printf 'base %s base/linux-source-6.1.192-3\nhead %s\n' "$base" "$head"
			tgit log --reverse --format='commit %H %s' "$base..$head"
			printf 'kconfig-sha256 %064d\n' 0
			printf 'inputs-sha256 %s\n' "$(cd "$R" && ARCH=$arch bash -c '. boot/lib-boot.sh && gate_inputs "$1"' _ "$config")"
			# The per-patch results of the checks (after the b4 cover commit).
			tgit log --reverse --format=%s "$base..$head" | tail -n +2 |
				awk -v cell="build-$arch-$config" '{
					printf "patch checkpatch\t%d\tpass\t%s\n", NR, $0
					printf "patch %s\t%d\t%s\t%s\n", cell, NR, NR == 3 ? "fail" : "pass", $0 }'
			printf 'verdict gate %s %s %s: PASS (fake record of mail.bats)\n' "$CUR_REV" "$arch" "$config"
			printf 'date 2026-01-01T00:00:00Z\n'
		} >"$MW/gate/$DEF_KVER/$CUR_REV-$arch-$config.record"
	done
}

# sent_revs: the revisions the local list gets replies to once the tests
# sent the current one: those b4's history in its cover records as sent
# for real (a revision b4 started on send records the earlier ones), then
# the current one; " vK vN", as trailers.sh prints them.
sent_revs() {
	python3 - "$TOP/$COV/$CUR_REV.txt" "$CUR_REV" <<'PY'
import json, sys
t = open(sys.argv[1]).read().partition("--- b4-submit-tracking ---")[2]
t = "\n".join(l for l in t.splitlines() if not l.startswith("#"))
h = json.loads(t)["series"].get("history", {})
revs = sorted((v for v in h if h[v]), key=lambda v: int(v[1:]))
print("".join(" " + v for v in revs + [sys.argv[2]]))
PY
}

# write_cover DIR: the prose of the current revision's cover, EDITME lines
# replaced: b4's cover template of a v1, and the changelog template a
# reroll (make revision, b4 send) adds to a later revision.
write_cover() {
	python3 - "$1/$COV/$CUR_REV.txt" <<'PY'
import re, sys
p = sys.argv[1]
t = open(p).read()
t = t.replace('EDITME: cover title for safer-fput',
              'safer fput(): FIFO task_work and a synchronous put in close(2)', 1)
t = re.sub(r'EDITME: describe the purpose.*?portion of the patch\.\n',
           'Test cover letter of mail.bats.\n', t, flags=re.S)
t = re.sub(r'^- EDITME: describe what is new in this series revision\.\n'
           r'- EDITME: use bulletpoints and terse descriptions\.\n',
           '- Test changelog of mail.bats.\n', t, flags=re.M)
t = re.sub(r'^(- Link to v[0-9]+): EDITME \((not sent|not found in tracking)\)$',
           r'\1: not sent', t, flags=re.M)
open(p, 'w').write(t)
PY
	! grep -v '^#' "$1/$COV/$CUR_REV.txt" | grep -q EDITME
}

# not_sent: b4 send did not run (it tags every revision it sends).
not_sent() {
	! tgit rev-parse -q --verify "refs/tags/sent/safer-fput-$CUR_REV" >/dev/null
}

list_count() {
	mm "$R" list | sed -n 's/.*: \([0-9]*\) messages in .*/\1/p'
}

@test "make send: refused without a valid gate record, nothing sent" {
	write_cover "$R"
	mm "$R" cover
	# No record at all.
	rm -rf "$MW/gate"
	run mm "$R" send
	[ "$status" -ne 0 ]
	[[ "$output" == *"send: error: not gated: $CUR_REV x86_64 lockdep: no gate record"* ]]
	[ "$(echo "$output" | grep -c 'error:')" -eq 1 ]
	# A stale record: it names another head (the base commit).
	fake_gate_record "$(tgit rev-parse 'base/linux-source-6.1.192-3^{commit}')"
	run mm "$R" send
	[ "$status" -ne 0 ]
	[[ "$output" == *"send: error: not gated: $CUR_REV x86_64 lockdep: stale gate record"* ]]
	# Valid records for the x86_64 cells only: the matrix wants arm64 too.
	rm -rf "$MW/gate"
	fake_gate_record "$(tgit rev-parse b4/safer-fput)" x86_64/lockdep x86_64/kasan
	mm "$R" cover
	run mm "$R" send
	[ "$status" -ne 0 ]
	[[ "$output" == *"send: error: not gated: $CUR_REV arm64 lockdep: no gate record ($MW/gate/$DEF_KVER/$CUR_REV-arm64-lockdep.record); run 'make gate ARCH=arm64 CONFIG=lockdep'"* ]]
	rm -rf "$MW/gate"
	mm "$R" cover
	[ "$(list_count)" -eq 0 ]
	not_sent
}

@test "make send: refused while the cover letter has EDITME, even when gated" {
	cp -a "$R" "$BATS_TEST_TMPDIR/r2"
	r2=$BATS_TEST_TMPDIR/r2
	# An EDITME left in the subject, as in b4's template.
	sed -i '1s/^/EDITME: /' "$r2/$COV/$CUR_REV.txt"
	mm "$r2" series
	fake_gate_record "$(tgit rev-parse b4/safer-fput)"
	mm "$r2" gate-check
	run mm "$r2" send
	[ "$status" -ne 0 ]
	[[ "$output" == *"send: error: $COV/$CUR_REV.txt still contains EDITME"* ]]
	[ "$(list_count)" -eq 0 ]
	not_sent
	# That record is of the same patches as R's branch: drop it.
	rm -rf "$MW/gate"
	mm "$R" series
}

@test "mail config: per command, never written to the tree; anything but mail/deliver is refused" {
	# Settings an older make send wrote, or a developer made, in the tree.
	tgit config sendemail.smtpServer smtp.kernel.org
	tgit config b4.send-endpoint-web https://x.example
	run bash -c "cd '$R' && WORKDIR='$MW' && . mail/lib-mail.sh && mail_config_check"
	[ "$status" -ne 0 ]
	[[ "$output" == *"sendemail.smtpServer is 'smtp.kernel.org', not $R/mail/deliver: refusing to send"* ]]
	# make send's own settings override them, for its commands only...
	before=$(tgit config --local --list | sort)
	run mm "$R" send DRY=1
	[ "$status" -eq 0 ]
	# ...and leave the tree's config as it was.
	[ "$(tgit config --local --list | sort)" = "$before" ]
	tgit config --unset-all sendemail.smtpServer
	tgit config --unset-all b4.send-endpoint-web
	# A developer's global smtpServer is overridden too.
	home=$BATS_TEST_TMPDIR/home
	mkdir -p "$home"
	cp "$HOME/.gitconfig" "$home/" 2>/dev/null || true
	HOME=$home git config --global sendemail.smtpServer /usr/bin/msmtp
	run env HOME="$home" make -s -C "$R" WORKDIR="$MW" KVER="$DEF_KVER" send DRY=1
	[ "$status" -eq 0 ]
	# Overrides in the environment are refused: they would win over ours.
	run env GIT_CONFIG_PARAMETERS="'sendemail.smtpserver'='/usr/bin/msmtp'" make -s -C "$R" WORKDIR="$MW" KVER="$DEF_KVER" send DRY=1
	[ "$status" -ne 0 ]
	[[ "$output" == *"git config overrides in the environment (GIT_CONFIG_PARAMETERS/GIT_CONFIG_COUNT): refusing to send"* ]]
	# mail_config's settings themselves pass the check.
	run bash -c "cd '$R' && WORKDIR='$MW' && . mail/lib-mail.sh && mail_config"
	[ "$status" -eq 0 ]
}

@test "make send DRY=1: .eml files only, nothing delivered, no tag" {
	run mm "$R" send DRY=1
	[ "$status" -eq 0 ]
	n=$(find "$R/$SER/$CUR_REV" -name '*.patch' | wc -l)
	echo "$output"
	[ "${lines[-1]}" = "send $CUR_REV: PASS (dry run: $((n + 1)) messages written to $MW/mail/$DEF_KVER/$CUR_REV-dry, nothing sent)" ]
	[ "$(find "$MW/mail/$DEF_KVER/$CUR_REV-dry" -name '*.eml' | wc -l)" -eq $((n + 1)) ]
	[ "$(list_count)" -eq 0 ]
	not_sent
}

@test "make cover: every cell's verdict in the cover; a second run changes nothing" {
	# One cell not gated: the cover says so, by name.
	fake_gate_record "$(tgit rev-parse b4/safer-fput)" x86_64/lockdep
	mm "$R" cover
	grep -q "^  gate $CUR_REV x86_64 lockdep: PASS (fake record of mail.bats)\$" "$R/$COV/$CUR_REV.txt"
	grep -q "^  gate $CUR_REV arm64 lockdep: not gated yet (make gate ARCH=arm64 CONFIG=lockdep)\$" "$R/$COV/$CUR_REV.txt"
	grep -q '^  (1 of 3 cells gated: ' "$R/$COV/$CUR_REV.txt"
	# The per-patch table: a row per patch, a column per check the
	# records carry.
	grep -qx 'Per-patch checks (make check) of the gated patches:' "$R/$COV/$CUR_REV.txt"
	grep -qE '^ {9}build-x86_64-lockdep  checkpatch$' "$R/$COV/$CUR_REV.txt"
	grep -qE '^   3/[0-9]+  fail {16}  pass {6}  fs: add fput_nodefer\(\)$' "$R/$COV/$CUR_REV.txt"
	fake_gate_record "$(tgit rev-parse b4/safer-fput)"
	mm "$R" cover
	for cell in 'x86_64 lockdep' 'x86_64 kasan' 'arm64 lockdep'; do
		grep -q "^  gate $CUR_REV $cell: PASS (fake record of mail.bats)\$" "$R/$COV/$CUR_REV.txt"
	done
	! grep -q 'not gated yet\|cells gated' "$R/$COV/$CUR_REV.txt"
	grep -qE '^   1/[0-9]+  pass {15}  pass {14}  pass {16}  pass {6}  task_work: run works in FIFO order$' "$R/$COV/$CUR_REV.txt"
	grep -q '^To: ' "$R/$COV/$CUR_REV.txt"
	grep -q '^Cc: safer-fput@lists.localhost$' "$R/$COV/$CUR_REV.txt"
	# The cover commit changed, so the branch head did, but the gated
	# patches did not: the record still holds (the flow: gate, cover, send).
	run mm "$R" gate-check
	[ "$status" -eq 0 ]
	[[ "$output" == *"only the cover letter changed since the gate"* ]]
	head=$(tgit rev-parse b4/safer-fput)
	sum=$(sha256sum <"$R/$COV/$CUR_REV.txt")
	run mm "$R" cover
	[ "$status" -eq 0 ]
	[[ "$output" == *"results block already current"* ]]
	[ "$(tgit rev-parse b4/safer-fput)" = "$head" ]
	[ "$(sha256sum <"$R/$COV/$CUR_REV.txt")" = "$sum" ]
	mm "$R" gate-check
	# A results block edited by hand is not what the records say.
	cp -a "$R" "$BATS_TEST_TMPDIR/r3"
	sed -i "s/^  gate $CUR_REV x86_64 lockdep: PASS .*/  gate $CUR_REV x86_64 lockdep: PASS (by hand)/" \
		"$BATS_TEST_TMPDIR/r3/$COV/$CUR_REV.txt"
	run mm "$BATS_TEST_TMPDIR/r3" send DRY=1
	[ "$status" -ne 0 ]
	[[ "$output" == *"send: error: b4/safer-fput differs from $SER/$CUR_REV"* ]]
	mm "$BATS_TEST_TMPDIR/r3" series
	run mm "$BATS_TEST_TMPDIR/r3" send DRY=1
	[ "$status" -ne 0 ]
	[[ "$output" == *"send: error: the results block of $COV/$CUR_REV.txt is not current; run 'make cover'"* ]]
	# Back to R's branch: rebuilt, so a new head, which "make gate"
	# would record again.
	mm "$R" series
	fake_gate_record "$(tgit rev-parse b4/safer-fput)"
	mm "$R" gate-check
}

@test "make send: the gated current revision lands in the local list only, and the repo follows b4's reroll" {
	n=$(find "$R/$SER/$CUR_REV" -name '*.patch' | wc -l)
	sent_head=$(tgit rev-parse b4/safer-fput)
	run mm "$R" send
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "${lines[-1]}" == "send $CUR_REV: PASS (cover + $n patches in the local list "*", tag sent/safer-fput-$CUR_REV)" ]]
	[ "$(list_count)" -eq $((n + 1)) ]
	# Every recipient was handed to mail/deliver, which put it in the inbox.
	grep -q 'rcpt=.*@kernel.org' "$MW/lists/deliver.log"
	[ "$(wc -l <"$MW/lists/deliver.log")" -eq $((n + 1)) ]
	# b4 tagged what was sent ...
	[ "$(tgit rev-parse "sent/safer-fput-$CUR_REV^{tree}")" = "$(tgit rev-parse "$sent_head^{tree}")" ]
	# ... and rerolled the branch to the next revision, which the repo
	# now holds.
	grep -q "^SERIES_CURRENT=$NEXT_REV\$" "$R/$SER/series.conf"
	grep -q "\"revision\": ${NEXT_REV#v}" "$R/$COV/$NEXT_REV.txt"
	grep -q "^Changes in $NEXT_REV:" "$R/$COV/$NEXT_REV.txt"
	grep -q "\"$CUR_REV\": \\[" "$R/$COV/$NEXT_REV.txt"
	for p in "$R/$SER/$CUR_REV"/*.patch; do
		cmp "$p" "$R/$SER/$NEXT_REV/${p##*/}"
	done
	run mm "$R" series
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"already at $NEXT_REV"* ]]
	run bash -c "cd '$MW/linux-6.1' && b4 prep --show-info"
	[[ "$output" == *"revision: ${NEXT_REV#v}"* ]]
	# The next revision is not sendable as b4 left it: its changelog is
	# a template.
	run mm "$R" send
	[ "$status" -ne 0 ]
	[[ "$output" == *"$COV/$NEXT_REV.txt still contains EDITME"* ]]
	# Nor is it a revision to reroll: b4 started it, nothing sent it.
	state=$(repo_state "$R")
	run mm "$R" revision
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$(verdict 'revision: error')" == "revision: error: $NEXT_REV is not sent yet: b4 started it when $CUR_REV was sent;"* ]]
	[ "$(repo_state "$R")" = "$state" ]
	run tgit rev-parse -q --verify "refs/tags/sent/safer-fput-$NEXT_REV"
	[ "$status" -ne 0 ]
}

@test "make am: the sent revision comes back from the list identical" {
	run mm "$R" am
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "${lines[-1]}" == "am $CUR_REV: PASS ("*"sent/safer-fput-$CUR_REV"* ]]
	# A sent tag whose patch differs from the mail (one message changed)
	# is caught although the tree is the same.
	tag=$(tgit rev-parse "sent/safer-fput-$CUR_REV")
	bad=$(tgit commit-tree -p "$tag^" -m "changed message" "$tag^{tree}")
	tgit update-ref "refs/tags/sent/safer-fput-$CUR_REV" "$bad"
	run mm "$R" am
	echo "$output"
	tgit update-ref "refs/tags/sent/safer-fput-$CUR_REV" "$tag"
	[ "$status" -ne 0 ]
	[[ "$(echo "$output" | grep "^am $CUR_REV: ")" == "am $CUR_REV: FAIL: a patch from the list differs from sent/safer-fput-$CUR_REV: "?* ]]
}

@test "make cover on the rerolled revision: range-diff against the sent one" {
	mm "$R" cover
	grep -q "^Range-diff against $CUR_REV (as sent):\$" "$R/$COV/$NEXT_REV.txt"
	grep -q '^ *1: *[0-9a-f]\{7,\} = *1: *task_work: run works in FIFO order$' "$R/$COV/$NEXT_REV.txt"
	[ "$(grep -c '^---$' "$R/$COV/$NEXT_REV.txt")" -eq 1 ]
}

@test "make trailers: a Reviewed-by reply to the sent revision's patch 3 lands on patch 3 of the next only, which links the sent one on the served list" {
	id=$(grep -m1 -i -o "^message-id: *<[^>]*-$CUR_REV-3-[^>]*>" "$MW/lists/all.mbox" | sed 's/^[^<]*//')
	[ -n "$id" ]
	# The subject b4 gave patch 3 (b4 names no revision in a v1's).
	n=$(find "$R/$SER/$CUR_REV" -name '*.patch' | wc -l)
	prefix=PATCH
	[ "$CUR_REV" = v1 ] || prefix="PATCH $CUR_REV"
	{
		printf 'From: Rev Iewer <reviewer@example.org>\nTo: safer-fput@lists.localhost\n'
		printf 'Subject: Re: [%s 03/%02d] fs: add fput_nodefer()\n' "$prefix" "$n"
		printf 'Message-Id: <trailers-test-3@example.org>\n'
		printf 'In-Reply-To: %s\nReferences: %s\nDate: %s\n\n' "$id" "$id" "$(date -R)"
		printf 'Looks right to me.\n\nReviewed-by: Rev Iewer <reviewer@example.org>\n'
	} | "$R/mail/deliver" --lists "$MW/lists" -i -f reviewer@example.org safer-fput@lists.localhost
	run mm "$R" trailers
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(verdict "trailers $NEXT_REV: ")" = "trailers $NEXT_REV: PASS (1 trailers added to 1 patches from replies to$(sent_revs); $SER/$NEXT_REV exported)" ]
	[ "$(grep -l -x 'Reviewed-by: Rev Iewer <reviewer@example.org>' "$R/$SER/$NEXT_REV"/*.patch)" = "$(ls "$R/$SER/$NEXT_REV"/0003-*.patch)" ]
	third=$(tgit rev-list --reverse "$(tgit rev-list --reverse base/linux-source-6.1.192-3..b4/safer-fput | head -n 1)..b4/safer-fput" | sed -n 3p)
	tgit log -1 --format=%B "$third" | grep -qx 'Reviewed-by: Rev Iewer <reviewer@example.org>'
	# The server make trailers started is gone again; a second run finds
	# nothing new.
	run mm "$R" list-httpd-stop
	[ "$output" = "list-httpd: not running" ]
	run mm "$R" trailers
	[ "$status" -eq 0 ]
	[ "$(verdict "trailers $NEXT_REV: ")" = "trailers $NEXT_REV: PASS (no new trailers on the list for$(sent_revs))" ]
	# The next revision's cover links the sent one on the list, and the
	# served list resolves it.
	link=$(sed -n "s/^- Link to $CUR_REV: //p" "$R/$COV/$NEXT_REV.txt")
	[[ "$link" == "http://127.0.0.1:8089/all/"*"-$CUR_REV-0-"*"/" ]]
	mm "$R" list-httpd
	path=/${link#http://127.0.0.1:8089/}
	got=$(exec 3<>/dev/tcp/127.0.0.1/8089 && printf 'GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' "$path" >&3 && cat <&3)
	mm "$R" list-httpd-stop
	[[ "$(head -n 1 <<<"$got")" == "HTTP/1."?" 200 "* ]]
	[[ "$got" == *"fput_nodefer"* ]]
}

@test "make list-httpd: serves the list, and a port in use is a one-line error" {
	export LIST_PORT=8098
	run mm "$R" list-httpd
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == "list-httpd: started (pid "*") at http://127.0.0.1:8098/all/" ]]
	run mm "$R" list-httpd
	[[ "$output" == "list-httpd: running (pid "* ]]
	run mm "$R" list-httpd-stop
	[[ "$output" == "list-httpd: stopped (pid "* ]]
	python3 -m http.server 8098 --bind 127.0.0.1 >/dev/null 2>&1 &
	busy=$!
	for _ in $(seq 50); do
		(exec 3<>/dev/tcp/127.0.0.1/8098) 2>/dev/null && break
		sleep 0.1
	done
	run mm "$R" list-httpd
	kill "$busy"
	echo "$output"
	[ "$status" -ne 0 ]
	[ "$(verdict 'list-httpd: ')" = "list-httpd: error: port 8098 on 127.0.0.1 is in use by another program (set LIST_PORT)" ]
}
