# SPDX-License-Identifier: GPL-2.0
# coccinelle/cocci.mk - the Coccinelle conversions (issue #5). Included by the
# top-level Makefile. COCCI_TREE/COCCI_BRANCH select another work tree/branch
# for `make cocci` (default: the project's tree and branch).
.PHONY: cocci cocci-test cocci-check cocci-report cocci-audit

COCCI_TREE ?= $(TREE)
COCCI_BRANCH ?= $(BRANCH)
export COCCI_TREE COCCI_BRANCH

cocci-test: ## run the semantic patches on coccinelle/tests/*.c and compare with the .res files
	@coccinelle/run-tests.sh

cocci: deps ## regenerate the Coccinelle conversions as commits on b4/safer-fput, then export them
	@coccinelle/cocci.sh

cocci-check: deps ## regenerate the conversions in a scratch worktree; they must equal series/$(KVER)/$(REV)
	@coccinelle/check.sh

cocci-report: ## list every fget()/fput() site of the tree (COCCI_PATHS=dirs: only those): converted, or rejected and why; then the audit
	@coccinelle/report.sh

cocci-audit: ## audit every synchronous final put of the tree: file:line, function, context, locks held (COCCI_AUDIT=table: markdown)
	@coccinelle/report.sh audit
