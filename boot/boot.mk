# SPDX-License-Identifier: GPL-2.0
# boot.mk - the boot gate (boot/): included by the top-level Makefile.
# boot/boot.sh prints a line per stage and one verdict line at the end.

CONFIG ?= lockdep
BOOT_CONFIGS := base lockdep kasan
.PHONY: boot gate gate-full gate-check

boot: ## build and boot $(TREE) in QEMU with CONFIG=base, lockdep or kasan (default lockdep), run KUnit + guest tests, print the verdict
	$(if $(filter-out $(BOOT_CONFIGS),$(CONFIG))$(filter-out 1,$(words $(CONFIG))),\
		$(error unknown CONFIG '$(CONFIG)' (configs: $(BOOT_CONFIGS))))
	@boot/boot.sh $(CONFIG)

gate: ## boot the lockdep config of branch $(BRANCH) and record the pass in $(WORKDIR)/gate
	@boot/boot.sh --record lockdep

gate-full: ## gate plus a KASAN boot, both recorded
	@boot/boot.sh --record lockdep
	@boot/boot.sh --record kasan

gate-check: ## say whether a valid gate record exists for the head of $(BRANCH) (GATE_CONFIGS=lockdep)
	@boot/gate-check $(or $(GATE_CONFIGS),lockdep)
