# SPDX-License-Identifier: GPL-2.0
# bench.mk - benchmark the series against its base under QEMU TCG.
# Included by the top-level Makefile (KVER WORKDIR REV TREE BRANCH).
#
#   make bench                          exit_files, base vs b4/safer-fput
#   make bench BENCH=open_close BENCH_ARGS='-n 100000' BENCH_RUNS=3
#   make bench BENCH_REF=dev/k1         any commit of the kernel tree
#   make bench BENCH_CONFIG=rseq        kernels with bench/configs/rseq.config too
#   make bench-replica                  patch 1's reversal timed on this CPU, in user space
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

# bench-replica: patch 1's reversal measured in user space on this machine's
# CPU and memory, which TCG's instruction clock (make bench) cannot show: a
# replica of task_work_run()'s loops over N struct files, from cold caches,
# LIFO (upstream) against reversal + FIFO (patch 1). No kernel, no QEMU.
REPLICA_N         ?= 1000000 2000000
REPLICA_RUNS      ?= 5
# The cache-flushing buffer in MiB; empty: 4 x the last-level cache.
REPLICA_FLUSH_MIB ?=
# Objects per slab to hand out in a random order, as SLUB does with
# CONFIG_SLAB_FREELIST_RANDOM (7.3's filp slab: 21, 42 with 16 to 511 CPUs);
# empty: ascending, one after the other.
REPLICA_SLAB_RANDOM ?=
REPLICA_DIR        = $(WORKDIR)/bench-replica

.PHONY: bench-replica

bench-replica: ## time task_work_run()'s reversal on this CPU: a user-space replica, LIFO vs FIFO (REPLICA_N, REPLICA_RUNS)
	@r='$(REPLICA_RUNS)'; read -ra ns <<<'$(REPLICA_N)'; fm='$(REPLICA_FLUSH_MIB)'; sr='$(REPLICA_SLAB_RANDOM)'; \
	fail() { echo "bench-replica: FAIL: $$*"; exit 1; }; \
	case $$r in ''|*[!0-9]*|?????*) r0=0;; *) r0=$$((10#$$r));; esac; \
	{ [ "$$r0" -ge 1 ] && [ "$$r0" -le 1000 ]; } || fail "REPLICA_RUNS must be a positive integer (at most 1000), got '$$r'"; \
	[ $${#ns[@]} -gt 0 ] || fail "REPLICA_N is empty: give numbers of files, e.g. REPLICA_N='1000000 2000000'"; \
	count=0; max=0; \
	for n in "$${ns[@]}"; do \
		case $$n in *[!0-9]*|??????????*) n0=0;; *) n0=$$((10#$$n));; esac; \
		{ [ "$$n0" -ge 1 ] && [ "$$n0" -le 100000000 ]; } || \
			fail "REPLICA_N must be numbers of files (1..100000000), got '$$n'"; \
		count=$$((count + 1)); [ "$$n0" -le "$$max" ] || max=$$n0; \
	done; \
	[ "$$count" -le 64 ] || fail "REPLICA_N has $$count sizes, at most 64"; \
	case $$fm in *[!0-9]*|0*) fail "REPLICA_FLUSH_MIB must be a positive integer (MiB) or empty, got '$$fm'";; esac; \
	case $$sr in *[!0-9]*|0*) fail "REPLICA_SLAB_RANDOM must be a positive integer (objects per slab) or empty, got '$$sr'";; esac; \
	conf=bench/replica/struct-file.conf; \
	size=$$(sed -n 's/^FILP_OBJECT_SIZE=\([0-9][0-9]*\)$$/\1/p' "$$conf"); \
	off=$$(sed -n 's/^F_TASK_WORK_OFFSET=\([0-9][0-9]*\)$$/\1/p' "$$conf"); \
	{ [ -n "$$size" ] && [ -n "$$off" ]; } || fail "$$conf has no FILP_OBJECT_SIZE= or F_TASK_WORK_OFFSET= line"; \
	d='$(REPLICA_DIR)'; mkdir -p "$$d" || fail "cannot create $$d"; \
	gcc -O2 -Wall -Wextra -DFILP_OBJECT_SIZE="$$size" -DF_TASK_WORK_OFFSET="$$off" \
		-o "$$d/task_work_reverse" bench/replica/task_work_reverse.c || \
		fail "gcc could not build bench/replica/task_work_reverse.c (see above)"; \
	set -o pipefail; \
	"$$d/task_work_reverse" -r "$$r0" $${fm:+-f "$$fm"} $${sr:+-s "$$sr"} "$${ns[@]}" 2>"$$d/stderr" | tee "$$d/out"; \
	st=$$?; \
	[ "$$st" -eq 0 ] || fail "task_work_reverse exited $$st: $$(tail -n 1 "$$d/stderr")"; \
	[ ! -s "$$d/stderr" ] || cat "$$d/stderr" >&2; \
	seen=$$(grep -c '^run N=[0-9]* rep=[0-9]* ' "$$d/out"); \
	[ "$$seen" -eq $$((count * r0)) ] || fail "$$seen run lines, want $$((count * r0))"; \
	summary=; \
	for n in "$${ns[@]}"; do \
		n=$$((10#$$n)); \
		ratio=$$(sed -n "s/^median N=$$n runs=[0-9]* .* ratio=\([0-9.]*\) .*/\1/p" "$$d/out" | tail -n 1); \
		[ -n "$$ratio" ] || fail "no median FIFO/LIFO ratio for N=$$n in the output"; \
		summary+=", N=$$n x$$(LC_ALL=C awk -v x="$$ratio" 'BEGIN { printf "%.2f", x }')"; \
	done; \
	rev=$$(sed -n "s/^median N=$$max runs=[0-9]* .* reverse_ms=\([0-9.]*\) .*/\1/p" "$$d/out" | tail -n 1); \
	[ -n "$$rev" ] || fail "no reversal time for N=$$max"; \
	echo "bench-replica: PASS (FIFO/LIFO $${summary#, }; reversal $$(LC_ALL=C awk -v ms="$$rev" -v n="$$max" 'BEGIN { \
		printf (ms >= 100 ? "%.0f" : ms >= 1 ? "%.1f" : "%.3f"), ms; \
		if (n % 1000000 == 0) printf " ms / %dM", n / 1000000; \
		else if (n % 1000 == 0) printf " ms / %dk", n / 1000; \
		else printf " ms / %d", n }'))"
