# SPDX-License-Identifier: GPL-2.0
# lava.mk - the gate matrix as LAVA jobs (lava/): included by the Makefile.
#
#   make lava-jobs                    a job + device per matrix cell, validated
#   make lava-jobs LAVA_URL=https://files.example/safer-fput/v1
#   make lava-run ARCH=arm64 [FAULT=task_work-lifo]   one cell through lava-run
#
# lava/README.md says how to submit the jobs to a lab.

LAVA_DIR ?= $(WORKDIR)/lava/$(KVER)/$(REV)
FAULT    ?=
# Handed to the scripts per recipe, not exported from every make (make
# test's tests would inherit them).
.PHONY: lava-jobs lava-run lava-chroot

lava-jobs: ## LAVA job + device files for every cell of boot/gate-matrix (LAVA_URL, LAVA_CELLS), validated with lava-common
	@LAVA_DIR='$(LAVA_DIR)' LAVA_URL='$(LAVA_URL)' LAVA_CELLS='$(LAVA_CELLS)' lava/jobs.sh

lava-chroot: ## make the bookworm chroot with lava-dispatcher that lava-run uses (debootstrap, once)
	@lava/chroot.sh >/dev/null

lava-run: ## boot one cell (ARCH, CONFIG, FAULT=fixture) through lava-run; LAVA's results must equal the gate's
	@lava/run.sh $(CONFIG) $(FAULT)
