# SPDX-License-Identifier: GPL-2.0
# bench.mk - benchmark the series against its base under QEMU TCG.
# Included by the top-level Makefile (KVER WORKDIR REV TREE BRANCH).
#
#   make bench                          exit_files, base vs b4/safer-fput
#   make bench BENCH=open_close BENCH_ARGS='-n 100000' BENCH_RUNS=3
#   make bench BENCH_REF=dev/k1         any commit of the kernel tree
#
# Kernels: tinyconfig + bench/bench.config + boot/arch/$(ARCH).config, built out of tree with ccache
# under the kbuild lock, each from its own detached worktree.

BENCH       ?= exit_files
BENCH_ARGS  ?=
BENCH_RUNS  ?= 5
BENCH_LIMIT ?= 1.05
BENCH_BASE  ?= $(SERIES_BASE_TAG)
BENCH_REF   ?= $(BRANCH)
BENCH_DIR   ?= $(WORKDIR)/bench
BENCH_IMAGE  = $(shell . boot/arch/$(ARCH).conf && echo "$$KERNEL_IMAGE")

.PHONY: bench bench-kernels bench-args

# Refuse a bad BENCH or BENCH_RUNS before minutes of kernel builds.
bench-args:
	@b='$(BENCH)'; r='$(BENCH_RUNS)'; \
	[ -f "bench/guest/$$b.c" ] || { echo "bench: error: no guest benchmark '$$b' (have: $$(cd bench/guest && ls *.c | sed 's/\.c$$//' | paste -sd' '))" >&2; exit 1; }; \
	case $$r in ''|*[!0-9]*|0) echo "bench: error: BENCH_RUNS must be a positive integer, got '$$r'" >&2; exit 1;; esac

bench-kernels: ## build the base and patched benchmark kernels (BENCH_BASE, BENCH_REF)
	@bench/worktree '$(BENCH_BASE)' '$(BENCH_DIR)/src-base'
	@bench/worktree '$(BENCH_REF)' '$(BENCH_DIR)/src-patched'
	@bench/mkkernel '$(BENCH_DIR)/src-base' '$(BENCH_DIR)/build-$(ARCH)-base' >/dev/null
	@bench/mkkernel '$(BENCH_DIR)/src-patched' '$(BENCH_DIR)/build-$(ARCH)-patched' >/dev/null

bench: bench-args bench-kernels ## compare base and patched kernels on guest benchmark BENCH (default exit_files)
	@bench/run --bench '$(BENCH)' --args '$(BENCH_ARGS)' --runs '$(BENCH_RUNS)' \
		--max-ratio '$(BENCH_LIMIT)' --out '$(BENCH_DIR)/results-$(ARCH)-$(BENCH)' \
		--kernel 'base=$(BENCH_DIR)/build-$(ARCH)-base/$(BENCH_IMAGE)' \
		--kernel 'patched=$(BENCH_DIR)/build-$(ARCH)-patched/$(BENCH_IMAGE)'
