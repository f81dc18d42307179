# SPDX-License-Identifier: MIT
# lib as the Linux kernel's riscv mem*: the kernel's own KUnit tests, under
# KASAN, on QEMU virt under OpenSBI (tests/kernel/kernel.sh says how; docs/checks.md).
# Included by the top Makefile.
#
#   make kernel-test [FAULT=NAME]    the kernel with lib (or with lib with that fault
#                    of tests/faults.txt) and the stock kernel, built from Debian's
#                    linux-source-6.12 (its whole tree: tests/peers.mk), booted, their
#                    KUnit results compared
#   make kernel-build [KERNEL_FAULTS="NAME ..."]   the stock kernel and its results,
#                    the kernel with lib and one with each fault named, so that
#                    make kernel-test FAULT=NAME then only boots it (tests/tests.cfg)
#
# KERNEL_DIR: the kernel tree, its one build folder and the kernels built there,
# shared by every build folder (tests/run.py gives its builds the main build's):
# a kernel takes minutes to build, and the kernels differ by one object.
# KERNEL_JOBS: kunit.py's --jobs.  KERNEL_CC: the kernels' compiler (its make's
# CC; KERNEL_CROSS_COMPILE's binutils beside it).
KERNEL_DIR ?= $(O)/kernel
KERNEL_CROSS_COMPILE ?= riscv64-linux-gnu-
KERNEL_CC ?= $(KERNEL_CROSS_COMPILE)gcc
KERNEL_JOBS ?= 2
KERNEL_FAULTS ?=
KERNEL_DEPS := kernel-build-tools python3 qemu-system-riscv64 opensbi-firmware setpriv \
	flock linux-source-6.12
# NAME=LIB_SRC of the kernel make kernel-test boots: lib, or lib with FAULT=NAME.
KERNEL_LIB := $(if $(filter lib/wordmerge.c,$(FAULT_FILE)),fault-$(FAULT),lib)=$(LIB_SRC)
KERNEL_FAULT_SRCS := $(KERNEL_FAULTS:%=$(O)/kernel-faults/%/wordmerge.c)
kernel_sh = $(Q)KERNEL_CROSS_COMPILE=$(KERNEL_CROSS_COMPILE) KERNEL_CC=$(KERNEL_CC) \
	KERNEL_JOBS=$(KERNEL_JOBS) \
	tests/kernel/kernel.sh $(1) $(PEERS_DIR)/linux-tree $(KERNEL_DIR) $(O)/kernel-test

.PHONY: kernel-build kernel-test kernel-deps
kernel-build kernel-test: kernel-deps $(PEERS_DIR)/linux-tree.ok $(LIB_SRC)
kernel-deps:
	$(Q)tools/deps.sh $(KERNEL_DEPS)
kernel-build: $(KERNEL_FAULT_SRCS)
	$(call kernel_sh,build) $(KERNEL_LIB) \
		$(join $(KERNEL_FAULTS:%=fault-%=),$(KERNEL_FAULT_SRCS))
kernel-test:
	$(fault_only_lib)
	$(call kernel_sh,test) $(KERNEL_LIB)
$(O)/kernel-faults/%/wordmerge.c: lib/wordmerge.c tests/faults.txt tests/apply-fault.sh
	$(Q)tests/apply-fault.sh tests/faults.txt $* $@
