# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# lib-mail.sh - what the mail/ scripts share; sourced, never run.
#
# The local list: a public-inbox v2 inbox named `all` in $WORKDIR/lists/all
# (its own public-inbox config in $WORKDIR/lists/pi-config), address = the
# L: of MAINTAINERS.local. Nothing here talks to any other host.

# shellcheck source=../scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"
MAIL=$TOP/mail
DELIVER=$MAIL/deliver

LIST_ADDR=$(sed -n 's/^L:[[:space:]]*\([^[:space:]]*\).*/\1/p' "$TOP/MAINTAINERS.local" | head -n 1)
[ -n "$LIST_ADDR" ] || die "MAINTAINERS.local has no L: line (the local list address)"
# The loopback URL the inbox would be served at (make list-httpd); b4 puts
# it in the "Link to vN" line of the next revision's cover letter.
: "${LIST_PORT:=8089}"
LIST_URL=http://127.0.0.1:$LIST_PORT/all

lists_dir() {
	printf '%s/lists' "$WORKDIR"
}

# list_init DIR: create the inbox `all` in DIR/all unless it exists.
list_init() {
	local dir=$1
	[ -f "$dir/pi-config" ] && [ -d "$dir/all/git" ] && return 0
	mkdir -p "$dir"
	dir=$(cd "$dir" && pwd)
	PI_CONFIG=$dir/pi-config public-inbox-init -V2 all "$dir/all" "$LIST_URL" "$LIST_ADDR" ||
		die "public-inbox-init of $dir/all failed"
	# No spam filter: every message b4 hands over is kept.
	git config -f "$dir/pi-config" publicinboxmda.spamcheck none
	note "created the local list $LIST_ADDR: public-inbox v2 inbox 'all' in $dir/all"
}

# The get_maintainer.pl command lines b4 prep --auto-to-cc runs for To and
# Cc (from the tree top), on the tree's MAINTAINERS plus MAINTAINERS.local.
getmaint_cmd() { # to|cc
	local m
	m=$(merged_maintainers)
	printf 'scripts/get_maintainer.pl --no-tree --mpath %s --nogit --nogit-fallback --norolestats %s' \
		"$m" "$([ "$1" = to ] && echo --nol || echo --nom)"
}

# mail_config: point b4 and git send-email in the kernel tree at the local
# list, and only there, for the commands of this script: the settings are
# git's command scope (GIT_CONFIG_COUNT, GIT_CONFIG_KEY_n/VALUE_n, git
# 2.31), exported to b4 and the git commands it runs. They override every
# config file, a developer's global sendemail.smtpServer included, and
# nothing is written to $TREE/.git/config. Empty values override a
# setting made elsewhere. Run before every b4 command that may send or
# that rewrites To/Cc; mail_config_check then proves nothing points
# elsewhere.
mail_config() {
	local lists ident i=0
	require_b4
	# A script this one runs inherits the settings: nothing to redo.
	if [ -n "${GIT_CONFIG_COUNT:-}" ] && [ "${SAFER_FPUT_MAIL_CONFIG:-}" = "$GIT_CONFIG_COUNT" ] &&
		[ -z "${GIT_CONFIG_PARAMETERS:-}" ]; then
		mail_config_check
		return
	fi
	[ -z "${GIT_CONFIG_PARAMETERS:-}${GIT_CONFIG_COUNT:-}" ] ||
		die "git config overrides in the environment (GIT_CONFIG_PARAMETERS/GIT_CONFIG_COUNT): refusing to send"
	lists=$(lists_dir)
	list_init "$lists"
	lists=$(cd "$lists" && pwd)
	ident=$(tgit var GIT_AUTHOR_IDENT) || die "no git identity in $TREE (git config user.name/user.email)"
	set -- sendemail.smtpServer "$DELIVER --lists $lists" \
		sendemail.from "${ident% * *}" \
		b4.send-endpoint-web '' \
		b4.sendemail-identity '' \
		b4.send-no-patatt-sign yes \
		b4.midmask "$LIST_URL/%s" \
		b4.linkmask "$LIST_URL/%s/" \
		b4.searchmask "$LIST_URL/?x=m&t=1&q=%s" \
		b4.send-auto-to-cmd "$(getmaint_cmd to)" \
		b4.send-auto-cc-cmd "$(getmaint_cmd cc)"
	while [ $# -gt 0 ]; do
		export "GIT_CONFIG_KEY_$i=$1" "GIT_CONFIG_VALUE_$i=$2"
		i=$((i + 1))
		shift 2
	done
	export GIT_CONFIG_COUNT=$i SAFER_FPUT_MAIL_CONFIG=$i
	mail_config_check
}

# mail_config_check: the effective configuration b4 send will see (every
# scope: the files, then mail_config's command scope) sends to mail/deliver
# only.
mail_config_check() {
	local v
	# git send-email and b4 take the last value: the command scope's.
	v=$(tgit config --get-all sendemail.smtpServer | tail -n 1 || true)
	case $v in
	"$DELIVER --lists "*) ;;
	*) die "sendemail.smtpServer is '${v:-unset}', not $DELIVER: refusing to send" ;;
	esac
	case $v in
	*'$'* | *'~'*) die "sendemail.smtpServer '$v' would be expanded by b4: refusing to send" ;;
	esac
	[ -x "$DELIVER" ] || die "$DELIVER is not executable"
	v=$(tgit config --get b4.send-endpoint-web || true)
	[ -z "$v" ] || die "b4.send-endpoint-web is '$v': refusing to send"
	v=$(tgit config --get b4.sendemail-identity || true)
	[ -z "$v" ] || die "b4.sendemail-identity is '$v': refusing to send"
	v=$(tgit config --get sendemail.identity || true)
	[ -z "$v" ] || die "sendemail.identity is '$v': refusing to send"
}

# sent_tag N: the tag b4 send leaves for revision vN.
sent_tag() {
	printf 'sent/%s-v%s' "$SERIES_NAME" "$1"
}

# msgid_of N <COVER: the message-id b4 send recorded for revision vN in the
# tracking block of the next revision's cover (its "history").
msgid_of() {
	python3 -c 'import json, sys
t = sys.stdin.read().partition("--- b4-submit-tracking ---")[2]
t = "\n".join(l for l in t.splitlines() if not l.startswith("#"))
h = json.loads(t)["series"].get("history", {}).get("v" + sys.argv[1], [])
print(h[-1] if h else "")' "$1"
}
