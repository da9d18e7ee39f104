#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# httpd.sh start|stop|status - serve the local list over HTTP on
# 127.0.0.1:$LIST_PORT (default 8089) with public-inbox-httpd, so that what
# b4 looks up by URL resolves here: b4.midmask, b4.linkmask and
# b4.searchmask (b4 trailers -u, b4 am MSGID) and the cover letter's
# "Link to vN". Loopback only; the pid and log live in $WORKDIR/lists.
# Ends with one line: list-httpd: <state> ...
set -euo pipefail
PROG=list-httpd
# shellcheck source=lib-mail.sh
. "$(dirname "$0")/lib-mail.sh"

lists=$(lists_dir)
pidf=$lists/httpd.pid
log=$lists/httpd.log

# ours: the pid of the server this workdir started on $LIST_PORT, if it
# still runs (the pid file holds "PID PORT"; a recycled pid is not ours).
ours() {
	local pid port
	[ -f "$pidf" ] && read -r pid port <"$pidf" || return 1
	[ "$port" = "$LIST_PORT" ] || return 1
	tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q public-inbox-httpd || return 1
	printf '%s' "$pid"
}

# listening: something accepts connections on the port.
listening() {
	({ exec 3<>"/dev/tcp/127.0.0.1/$LIST_PORT"; } 2>/dev/null)
}

# answers: an HTTP server answers on the port (bash's /dev/tcp, no curl;
# an inbox with no message yet is a 404, which is an answer).
answers() {
	local status
	status=$(
		{ exec 3<>"/dev/tcp/127.0.0.1/$LIST_PORT"; } 2>/dev/null || exit 1
		printf 'GET /all/ HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3
		head -n 1 <&3
	) || return 1
	[[ $status == "HTTP/1."?" "[0-9]* ]]
}

case ${1:-} in
start)
	list_init "$lists" >&2
	if pid=$(ours); then
		echo "list-httpd: running (pid $pid) at $LIST_URL/"
		exit 0
	fi
	listening && die "port $LIST_PORT on 127.0.0.1 is in use by another program (set LIST_PORT)"
	command -v public-inbox-httpd >/dev/null || die "public-inbox-httpd not found (run 'make deps')"
	# A daemon keeps no fd of ours: not the workdir lock (7), nor a
	# test harness's (bats' 3), which would wait for it to close.
	(cd "$lists" && PI_CONFIG=$lists/pi-config exec setsid public-inbox-httpd \
		-l "http://127.0.0.1:$LIST_PORT" </dev/null >>"$log" 2>&1 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-) &
	echo "$! $LIST_PORT" >"$pidf"
	for _ in $(seq 50); do
		if ours >/dev/null && answers; then
			echo "list-httpd: started (pid $(ours)) at $LIST_URL/"
			exit 0
		fi
		sleep 0.2
	done
	if read -r pid _ <"$pidf"; then
		kill "$pid" 2>/dev/null || true
	fi
	rm -f "$pidf"
	die "public-inbox-httpd did not answer at $LIST_URL/: $(tail -n 1 "$log" 2>/dev/null)"
	;;
stop)
	if pid=$(ours); then
		kill "$pid"
		for _ in $(seq 50); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		rm -f "$pidf"
		echo "list-httpd: stopped (pid $pid)"
	else
		echo "list-httpd: not running"
	fi
	;;
status)
	if pid=$(ours); then
		echo "list-httpd: running (pid $pid) at $LIST_URL/"
	else
		echo "list-httpd: not running"
		exit 1
	fi
	;;
*) die "usage: httpd.sh start|stop|status" ;;
esac
