# SPDX-License-Identifier: GPL-2.0
# bench.mk - benchmark the series against its base under QEMU TCG.
# Included by the top-level Makefile (KVER WORKDIR REV TREE BRANCH).
#
#   make bench                          exit_files, base vs b4/safer-fput
#   make bench BENCH=open_close BENCH_ARGS='-n 100000' BENCH_RUNS=3
#   make bench BENCH_REF=dev/k1         any commit of the kernel tree
#   make bench BENCH_CONFIG=rseq        kernels with bench/configs/rseq.config too
#
# Kernels: tinyconfig + bench/bench.config + boot/arch/$(ARCH).config, built out of tree with ccache
# under the kbuild lock, each from its own detached worktree.

BENCH       ?= exit_files
BENCH_ARGS  ?=
BENCH_RUNS  ?= 5
BENCH_LIMIT ?= 1.05
BENCH_BASE  ?= $(SERIES_BASE_TAG)
BENCH_REF   ?= $(BRANCH)
# Worktrees, builds and results of base KVER.
BENCH_DIR   ?= $(WORKDIR)/bench/$(KVER)
# A variant of the benchmark kernels: one more fragment, bench/configs/NAME.config,
# and build and result directories of its own.
BENCH_CONFIG ?=
BENCH_FRAGMENT = $(if $(BENCH_CONFIG),$(CURDIR)/bench/configs/$(BENCH_CONFIG).config)
BENCH_CELL   = $(ARCH)$(if $(BENCH_CONFIG),-$(BENCH_CONFIG))
BENCH_IMAGE  = $(shell . boot/arch/$(ARCH).conf && echo "$$KERNEL_IMAGE")

.PHONY: bench bench-kernels bench-args

# Refuse a bad BENCH or BENCH_RUNS before minutes of kernel builds.
bench-args:
	@b='$(BENCH)'; r='$(BENCH_RUNS)'; \
	[ -f "bench/guest/$$b.c" ] || { echo "bench: error: no guest benchmark '$$b' (have: $$(cd bench/guest && ls *.c | sed 's/\.c$$//' | paste -sd' '))" >&2; exit 1; }; \
	case $$r in ''|*[!0-9]*|0) echo "bench: error: BENCH_RUNS must be a positive integer, got '$$r'" >&2; exit 1;; esac; \
	c='$(BENCH_CONFIG)'; \
	case $$c in *[!A-Za-z0-9_-]*) echo "bench: error: BENCH_CONFIG '$$c' is not a name of bench/configs/ (letters, digits, - and _)" >&2; exit 1;; esac; \
	[ -z "$$c" ] || [ -f "bench/configs/$$c.config" ] || { echo "bench: error: no kernel variant '$$c' (have: $$(cd bench/configs && ls *.config | sed 's/\.config$$//' | paste -sd' '))" >&2; exit 1; }

bench-kernels: ## build the base and patched benchmark kernels (BENCH_BASE, BENCH_REF)
	@bench/worktree '$(BENCH_BASE)' '$(BENCH_DIR)/src-base'
	@bench/worktree '$(BENCH_REF)' '$(BENCH_DIR)/src-patched'
	@bench/mkkernel '$(BENCH_DIR)/src-base' '$(BENCH_DIR)/build-$(BENCH_CELL)-base' $(if $(BENCH_FRAGMENT),'$(BENCH_FRAGMENT)') >/dev/null
	@bench/mkkernel '$(BENCH_DIR)/src-patched' '$(BENCH_DIR)/build-$(BENCH_CELL)-patched' $(if $(BENCH_FRAGMENT),'$(BENCH_FRAGMENT)') >/dev/null

bench: bench-args bench-kernels ## compare base and patched kernels on guest benchmark BENCH (default exit_files)
	@bench/run --bench '$(BENCH)' --args '$(BENCH_ARGS)' --runs '$(BENCH_RUNS)' \
		--max-ratio '$(BENCH_LIMIT)' --out '$(BENCH_DIR)/results-$(BENCH_CELL)-$(BENCH)' \
		$(if $(BENCH_CONFIG),--cell '$(BENCH_CONFIG)') \
		--kernel 'base=$(BENCH_DIR)/build-$(BENCH_CELL)-base/$(BENCH_IMAGE)' \
		--kernel 'patched=$(BENCH_DIR)/build-$(BENCH_CELL)-patched/$(BENCH_IMAGE)'
