# SPDX-License-Identifier: GPL-2.0
# boot.mk - the boot gate (boot/): included by the top-level Makefile.
# boot/boot.sh prints a line per stage and one verdict line at the end.
# A cell is one ARCH (boot/arch/ARCH.conf) and one CONFIG
# (boot/configs/CONFIG.config); boot/gate-matrix lists the cells a revision
# must pass before `make send`.

CONFIG ?= lockdep
BOOT_CONFIGS := base lockdep kasan
BOOT_ARCHES := $(sort $(basename $(notdir $(wildcard boot/arch/*.conf))))
# The matrix as ARCH/CONFIG words; a line that is not "ARCH CONFIG" is an
# error, not a cell less.
GATE_MATRIX := $(shell sed -e 's/\#.*//' boot/gate-matrix | awk 'NF == 2 { print $$1 "/" $$2 } NF && NF != 2 { print "BAD:" NR }')
ifneq ($(filter BAD:%,$(GATE_MATRIX)),)
$(error boot/gate-matrix line $(patsubst BAD:%,%,$(firstword $(filter BAD:%,$(GATE_MATRIX)))): not "ARCH CONFIG")
endif
.PHONY: boot gate gate-full gate-check bisect fault

# One-line errors for a bad ARCH or CONFIG, before any prerequisite runs
# (gate's tree, series and check).
ifneq ($(filter boot gate gate-full bisect fault check check-% bench bench-% lava-run,$(MAKECMDGOALS)),)
ifneq ($(filter-out $(BOOT_ARCHES),$(ARCH))$(filter-out 1,$(words $(ARCH))),)
$(error unknown ARCH '$(ARCH)' (arches: $(BOOT_ARCHES)))
endif
ifneq ($(filter-out $(BOOT_CONFIGS),$(CONFIG))$(filter-out 1,$(words $(CONFIG))),)
$(error unknown CONFIG '$(CONFIG)' (configs: $(BOOT_CONFIGS)))
endif
endif

boot: ## build and boot $(TREE) in QEMU (ARCH=x86_64|arm64, CONFIG=base|lockdep|kasan), run KUnit + guest tests (KUNIT=glob SELFTESTS=a,b: some), print the verdict
	@boot/boot.sh $(CONFIG)

# A failing gate names the `make bisect` that finds the first bad patch;
# it runs it when asked (BISECT=1), as CI does (CI set in the environment).
BISECT ?= $(if $(CI),1,0)
export BISECT
# Test selection for `make boot`: KUNIT is kunit.filter_glob, one
# SUITE[.CASE] glob as kunit.py's --filter_glob, SELFTESTS a comma list of guest tests (boot/tests/,
# boot/selftests). A gate refuses both.
export KUNIT SELFTESTS
ifneq ($(KUNIT)$(SELFTESTS),)
ifneq ($(filter gate gate-full,$(MAKECMDGOALS)),)
$(error a gate runs every test: KUNIT and SELFTESTS are for 'make boot' and 'make fault')
endif
endif
gate: ## boot one cell (default ARCH=x86_64 CONFIG=lockdep) of branch $(BRANCH) and record the pass in $(WORKDIR)/gate; a failure names its bisect (BISECT=1: runs it)
	@boot/boot.sh --record $(CONFIG) || { \
		n=$$(git -C $(TREE) rev-list --count $(BRANCH) --not $$(. series/$(KVER)/series.conf && echo $$SERIES_BASE_TAG) 2>/dev/null); \
		if [ "$(BISECT)" = 1 ] && [ "$${n:-0}" -gt 2 ]; then boot/bisect.sh --if-failed $(CONFIG); fi; \
		exit 1; }

fault: ## boot the head of $(BRANCH) with a seeded fault (FIXTURE=NAME: tests/fixtures/faults/[KVER/]NAME.patch) in the gate's worktree; nothing recorded
	@boot/faults.sh $(CONFIG) $(if $(FIXTURE),'$(FIXTURE)')

bisect: ## find the first patch of branch $(BRANCH) at which the gate of ARCH/CONFIG fails, by booting (git bisect run)
	@boot/bisect.sh $(CONFIG)

gate-full: ## gate every cell of boot/gate-matrix, each recorded; the last line counts them
	@pass=0; fail=0; failed=; \
	for cell in $(GATE_MATRIX); do \
		if ARCH=$${cell%/*} boot/boot.sh --record $${cell#*/}; then \
			pass=$$((pass + 1)); \
		else \
			fail=$$((fail + 1)); failed="$$failed $${cell%/*} $${cell#*/},"; \
		fi; \
	done; \
	if [ $$fail = 0 ]; then \
		echo "gate-full $(REV): PASS ($$pass cells)"; \
	else \
		echo "gate-full $(REV): FAIL: $$fail of $$((pass + fail)) cells:$${failed%,}"; exit 1; \
	fi

gate-check: ## say whether every cell (GATE_CELLS=ARCH/CONFIG..., default boot/gate-matrix) has a valid gate record for the head of $(BRANCH)
	@boot/gate-check $(GATE_CELLS)
