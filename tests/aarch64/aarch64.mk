# SPDX-License-Identifier: MIT
# The AArch64 test image (tests/aarch64/): lib's suite at EL1 on
# qemu-system-aarch64 -M virt with alignment checking on, little- and
# big-endian.  Included by the top Makefile.  FAULT=NAME applies to lib.
#   make aarch64 [A64_ALIGN_CHECK=0] [A64_OPT=-O2] [LIB_SIZE=small]
#     -> $(O)/aarch64/le/suite.elf and $(O)/aarch64/be/suite.elf
#     (make aarch64-le, aarch64-be: one of them)
#   make aarch64-test: both built and run (tests/aarch64/run.sh), each log in
#     $(O)/aarch64/ENDIAN/run.log; exit status 0 only if both passed.
# -mstrict-align: the code may not assume that a misaligned access works,
# as where SCTLR_EL1.A is set it does not (GCC splits an access it knows is
# misaligned into bytes); -mgeneral-regs-only for the image's own code,
# whose exception handler returns to code that may hold SIMD registers.
A64_CROSS ?= aarch64-linux-gnu-
A64_OPT ?= -O2
A64_ALIGN_CHECK ?= 1
A64_CFLAGS := -std=gnu11 $(A64_OPT) -g -ffreestanding -fno-builtin \
	-fno-tree-loop-distribute-patterns -mstrict-align -fno-pic -Wall -Wextra -Werror \
	-DSUITE_FULL=0 -DWORDMERGE_STD_NAMES -DA64_ALIGN_CHECK=$(A64_ALIGN_CHECK) \
	-Itests/aarch64/include -Ilib
A64_OWN := tests/aarch64/main.c tests/aarch64/libc.c firmware/fdt.c
A64_SRCS := tests/aarch64/start.S $(A64_OWN) $(LIB_SRC) tests/suite.c firmware/protocol.c
A64_DEPS := $(A64_SRCS) tests/aarch64/link.ld tests/aarch64/include/stdio.h \
	tests/aarch64/include/string.h tests/suite.h firmware/protocol.h firmware/firmware.h \
	lib/wordmerge.h tests/aarch64/aarch64.mk
# The compiler is part of what the image is built from: another A64_CROSS, or
# its gcc upgraded, builds it anew (one that does not run fails the build).
A64_FLAGS = $(A64_CFLAGS) $(LIB_CFLAGS_$(LIB_SIZE)) $(A64_SRCS) A64_CROSS=$(A64_CROSS) \
	$(shell $(A64_CROSS)gcc --version 2>/dev/null | head -n 1)
a64_endian_le := -mlittle-endian
a64_endian_be := -mbig-endian

.PHONY: aarch64 aarch64-le aarch64-be aarch64-test
aarch64: aarch64-le aarch64-be
aarch64-le aarch64-be: aarch64-%: $(O)/aarch64/%/suite.elf
# Kept (make would delete it as an intermediate file, a pattern rule's), so that
# an unchanged build links nothing again.
.PRECIOUS: $(O)/aarch64/%/flags
$(O)/aarch64/%/flags: FORCE
	@mkdir -p $(@D)
	@echo '$(A64_FLAGS)' | cmp -s - $@ || echo '$(A64_FLAGS)' > $@
$(O)/aarch64/%/suite.elf: $(A64_DEPS) $(O)/aarch64/%/flags
	$(fault_only_lib)
	$(quiet) CC $@
	$(Q)for s in $(A64_SRCS); do \
		case " $(A64_OWN) " in (*" $$s "*) g=-mgeneral-regs-only;; (*) g=;; esac; \
		[ "$$s" != $(LIB_SRC) ] || g="$(LIB_CFLAGS_$(LIB_SIZE))"; \
		$(A64_CROSS)gcc $(A64_CFLAGS) $(a64_endian_$*) $$g -c $$s \
			-o $(@D)/$$(basename $$s).o || exit 1; \
	done
	$(Q)$(A64_CROSS)ld $(if $(filter be,$*),-EB,-EL) --build-id=sha1 --no-warn-rwx-segments \
		-T tests/aarch64/link.ld -o $@ $(foreach s,$(A64_SRCS),$(@D)/$(notdir $(s)).o)
# A fault of a file other than lib/wordmerge.c is in neither this image nor the
# kernel's lib (kernel.mk): refused, where it passed as though caught.
fault_only_lib = $(if $(filter-out lib/wordmerge.c,$(FAULT_FILE)),$(error FAULT=$(FAULT) is a \
	fault of $(FAULT_FILE): make aarch64, aarch64-test and kernel-test take only \
	lib/wordmerge.c's faults))
aarch64-test: aarch64
	$(fault_only_lib)
	$(Q)rc=0; for e in le be; do \
		tests/aarch64/run.sh $(O)/aarch64/$$e/suite.elf $(O)/aarch64/$$e/run.log || rc=1; \
	done; exit $$rc
