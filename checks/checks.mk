# SPDX-License-Identifier: GPL-2.0
# checks.mk - static checks of the revision (checks/): included by the Makefile.
# Each check prints one verdict line: check-NAME vN: PASS (...) | FAIL: reason

CHECKS := checkpatch kerneldoc build sparse
.PHONY: check $(addprefix check-,$(CHECKS))

check: ## all static checks of branch $(BRANCH): checkpatch, kernel-doc, sparse delta, per-commit builds
	@PROG=check scripts/require.sh tree
	@rc=0; for c in $(CHECKS); do checks/$$c.sh || rc=1; done; exit $$rc

check-checkpatch: ## checkpatch --strict on every patch of the revision
	@checks/checkpatch.sh
check-kerneldoc: ## no new kernel-doc warnings in the files the series touches
	@checks/kerneldoc.sh
check-sparse: ## no new sparse warnings in the .c files the series touches that the config compiles (base vs head)
	@checks/sparse.sh
check-build: ## every commit builds on its own with no warning the base lacks (CHECK_ARCHS=ARCH, CHECK_CONFIGS=lockdep: lists add cells)
	@checks/build.sh
