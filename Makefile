# SPDX-License-Identifier: GPL-2.0
# safer-fput: the "safer fput()" kernel series and the workflow that gates it.
# `make help` lists the entry points; docs/design.md explains the flow.

# series/series.conf names the default base; each base KVER is a directory
# series/KVER/ with its own series.conf (base tag, current revision).
include series/series.conf

KVER    ?= $(SERIES_DEFAULT_KVER)
-include series/$(KVER)/series.conf
WORKDIR ?= $(HOME)/.cache/safer-fput
REV     ?= $(SERIES_CURRENT)
# The arch of boot, gate, check and bench: one of boot/arch/*.conf.
ARCH    ?= x86_64
TREE    := $(WORKDIR)/linux-$(KVER)
BRANCH  := b4/safer-fput
export KVER WORKDIR REV ARCH

SHELL := /bin/bash
.DEFAULT_GOAL := help
.PHONY: help deps tree series export revision rebase-base port test test-quick test-full lint

help: ## list the entry points
	@printf 'safer-fput (KVER=%s REV=%s ARCH=%s WORKDIR=%s)\n\n' '$(KVER)' '$(REV)' '$(ARCH)' '$(WORKDIR)'
	@grep -hE '^[a-z][a-z-]*:.*## ' $(MAKEFILE_LIST) | \
		sed -E 's/^([a-z-]+):.*## (.*)/\1\t\2/; s,\$$\(KVER\),$(KVER),g; s,\$$\(REV\),$(REV),g; s,\$$\(ARCH\),$(ARCH),g; s,\$$\(BRANCH\),$(BRANCH),g; s,\$$\(WORKDIR\),$(WORKDIR),g; s,\$$\(TREE\),$(TREE),g; s,\$$\(COCCI_TREE\),$(COCCI_TREE),g' | \
		awk -F '\t' '{ printf "  %-17s %s\n", $$1, $$2 }'

deps: ## install the Debian packages the project needs (apt-get, as root)
	@scripts/deps.sh

tree: deps ## extract linux-source-$(KVER) into $(WORKDIR) as a git tree tagged with its version
	@scripts/tree.sh

series: deps ## (re)build branch b4/safer-fput from series/$(KVER)/$(REV) and cover-letters/$(KVER)/$(REV).txt
	@scripts/series.sh

export: deps ## write branch b4/safer-fput back to series/$(KVER)/$(REV) and its cover letter
	@scripts/export.sh

revision: deps ## start v(N+1) from the current revision, as a b4 reroll does
	@scripts/revision.sh

rebase-base: deps ## move the series onto the installed linux-source's tree (ONTO=base/linux-source-VER: another), old branch kept
	@scripts/rebase-base.sh $(ONTO)

# The revision to port: REV when given, else FROM's current one.
port: ## apply series/FROM/REV to TO's tree on branch port/safer-fput-FROM-REV and say per patch what happened (FROM=6.1 TO=6.12)
	@if [ -z '$(FROM)' ] || [ -z '$(TO)' ]; then \
		echo 'port: error: usage: make port FROM=KVER TO=KVER [REV=vN] (bases: $(SERIES_BASES))' >&2; exit 1; fi
	@KVER='$(TO)' scripts/deps.sh
	@KVER='$(TO)' FROM='$(FROM)' TO='$(TO)' \
		PORT_REV='$(if $(filter command line,$(origin REV)),$(REV))' scripts/port.sh

test: deps ## run the project's own tests (CI's tier: x86_64 lockdep); ends with "N passed, N failed"
	@TIER=ci tests/run

test-quick: deps ## the tests that build no kernel: verdict rules on recorded boots, Coccinelle cases, lint, refusals
	@TIER=quick tests/run

test-full: deps ## make test, and the arm64 and KASAN cells, 7.3's gate-full and 6.12's per-commit gate (each a cold kernel build more)
	@TIER=full tests/run

lint: ## shellcheck every shell script in the repo
	@scripts/lint.sh

# Targets run one after another even under -j: `make -j2 gate` would
# otherwise check and boot the branch while `series` is still rebuilding it.
# The kernel builds inside them take their own -j.
.NOTPARALLEL:

# A KVER without series/KVER/series.conf has a tree (make tree KVER=...) but
# no series: the targets that work on one refuse it in one line, before any
# prerequisite runs.
SERIES_BASES := $(sort $(patsubst series/%/series.conf,%,$(wildcard series/*/series.conf)))
SERIES_GOALS := series export revision rebase-base gate gate-full gate-check bisect fault \
	check check-% cover send am trailers cocci cocci-check bench bench-kernels lava-jobs lava-run
ifneq ($(filter $(SERIES_GOALS),$(MAKECMDGOALS)),)
ifeq ($(wildcard series/$(KVER)/series.conf),)
$(error no series for KVER=$(KVER) (bases: $(SERIES_BASES)))
endif
endif

# Each area brings its own targets: boot/boot.mk, coccinelle/cocci.mk, checks/checks.mk, ...
include $(sort $(wildcard */*.mk))

# The main job: a revision is booted only once it passed the static checks,
# so the gate record `make send` relies on covers both.
gate gate-full: tree series check
# gate-full boots every cell of the matrix: its checks build every arch in it.
gate-full: export CHECK_ARCHS = $(sort $(foreach c,$(GATE_MATRIX),$(firstword $(subst /, ,$(c)))))
