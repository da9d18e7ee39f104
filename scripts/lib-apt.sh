# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# lib-apt.sh - fetch a Debian package or source package from a suite the
# machine does not use (trixie-backports, sid), without touching the
# machine's apt configuration; sourced by scripts/lib.sh, never run.
#
# The archive is the one the machine already uses: the URI of the index
# target apt labels "Debian" (never a host written here). A private
# sources list naming that URI and SUITE lives in $WORKDIR/apt/SUITE with
# its own lists and cache; apt checks the suite's Release signature with
# debian-archive-keyring and each file's hash against the signed index,
# as for any package it installs.

# debian_uri: the Debian archive URI of the machine's own apt sources.
debian_uri() {
	local uri
	# shellcheck disable=SC2016 # $(...) is apt's format syntax, not the shell's
	uri=$(apt-get indextargets --format '$(REPO_URI) $(ORIGIN) $(LABEL)' 2>/dev/null |
		awk '$2 == "Debian" && $3 == "Debian" { print $1; exit }')
	[ -n "$uri" ] ||
		die "no Debian archive in the machine's apt sources (apt-get indextargets names none labelled Debian)"
	printf '%s' "$uri"
}

# suite_apt SUITE ARGS...: apt-get ARGS with the private list of SUITE;
# the first call of a run updates its lists.
suite_apt() {
	local suite=$1 dir=$WORKDIR/apt/$1
	shift
	local opts=(-q -o "Dir::Etc::sourcelist=$dir/sources.list"
		-o Dir::Etc::sourceparts=/nonexistent -o "Dir::State::Lists=$dir/lists"
		-o "Dir::Cache=$dir/cache" -o Dir::State::status=/var/lib/dpkg/status
		-o APT::Sandbox::User=root)
	if [ ! -e "$dir/updated" ]; then
		mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
		printf 'deb %s %s main\ndeb-src %s %s main\n' \
			"$(debian_uri)" "$suite" "$(debian_uri)" "$suite" >"$dir/sources.list"
		note "apt: updating the private list of suite $suite ($dir)"
		apt-get "${opts[@]}" update >"$dir/update.log" 2>&1 ||
			die "apt-get update of suite $suite failed, see $dir/update.log"
		grep -q '^[WE]:' "$dir/update.log" &&
			die "apt-get update of suite $suite warned (unsigned or missing?), see $dir/update.log"
		: >"$dir/updated"
	fi
	apt-get "${opts[@]}" "$@"
}
