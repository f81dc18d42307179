# SPDX-License-Identifier: MIT
# What the tests of tests/tests.cfg run, besides the image: the suite and
# the bounds test for the host or a cross target, the rv32 suite, lib's
# objects under every compiler, the 32-bit huge-length test, the device tree
# reader on the host and under the fuzzer, and the device trees the image
# is booted with.  Each is built into $(O) from the variables below, which
# tests.cfg sets (tests/run.py gives every set of variables its own O=).
# Included by the top Makefile.  FAULT=NAME (top Makefile) applies to all.

# --- the suite and the bounds test: make host --------------------------------
#   make host [HOSTCC=gcc] [HOST_OPT=-O2] [HOST_ARCH=-m32] [SAN=1|thread|memory] [EXACT=1|0]
#             [SUITE_FULL=0] [QEMU_USER=1] [LIB_SIZE=small] [FAULT=NAME] [HOST_PEERS=1]
#   -> $(O)/host/suite (tests/suite.c, tests/host_main.c; the target's C
#      library is the reference), $(O)/host/bounds (tests/bounds.c) and
#      $(O)/host/exact (tests/exact.c), all with lib (its wm_ names) beside
#      that C library.  SAN=1: ASan and UBSan;
#      SAN=thread: ThreadSanitizer; SAN=memory: MemorySanitizer (clang).
#      EXACT=1: lib reads only the objects' bytes (-DWM_EXACT=1, as under
#      those sanitizers; for Valgrind's runs);
#      EXACT=0: its word loads even under a sanitizer (the controls).
#      SUITE_FULL=0: the suite's sampled set (lengths 257..1024 in steps).
#      HOST_PEERS=1: glibc's and newlib's C (tests/peers.mk) are references of the
#      suite too, built by HOSTCC at HOST_OPT and renamed by the host's
#      binutils (so a native, 64-bit HOSTCC; no sanitizer on their code).
HOSTCC ?= gcc
HOST_OPT ?= -O2
HOST_ARCH ?=
SAN ?= 0
EXACT ?=
SUITE_FULL ?=
QEMU_USER ?= 0
HOST_SAN := -fsanitize=address,undefined -fsanitize=alignment -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
HOST_TSAN := -fsanitize=thread -fno-omit-frame-pointer
HOST_MSAN := -fsanitize=memory -fno-omit-frame-pointer
# lib and the suite's model must stay loops, as in the image (clang has no
# -ftree-loop-distribute-patterns).  Under qemu-user (QEMU_USER=1): static,
# and the suite's sampled set (lengths 257..1024 in steps of 2W + 1, far
# overlap distances at one source offset each: 10 s a run on s390x, not 28).
HOST_CFLAGS = -std=c11 -Wall -Wextra -Werror $(HOST_OPT) -g $(HOST_ARCH) -fno-builtin \
	$(if $(findstring clang,$(HOSTCC)),,-fno-tree-loop-distribute-patterns) \
	$(if $(filter 1,$(SAN)),$(HOST_SAN)) $(if $(filter thread,$(SAN)),$(HOST_TSAN)) \
	$(if $(filter memory,$(SAN)),$(HOST_MSAN)) \
	$(if $(filter 1,$(QEMU_USER)),-static -DSUITE_FULL=0) \
	$(if $(filter small,$(LIB_SIZE)),-DWM_SMALL_CODE=1) $(if $(EXACT),-DWM_EXACT=$(EXACT)) \
	$(if $(SUITE_FULL),-DSUITE_FULL=$(SUITE_FULL)) -Ilib

# make host-suite, host-bounds, host-exact: one of them (a test builds what it runs).
.PHONY: host host-suite host-bounds host-exact
host: host-suite host-bounds host-exact
host-suite host-bounds host-exact: host-%: $(O)/host/%
$(O)/host/flags: FORCE
	@mkdir -p $(@D)
	@echo '$(HOSTCC) $(HOST_CFLAGS) $(LIB_SRC)' | cmp -s - $@ || \
		echo '$(HOSTCC) $(HOST_CFLAGS) $(LIB_SRC)' > $@
HOST_PEERS ?= 0
HOST_PEER_OBJS := $(if $(filter 1,$(HOST_PEERS)),$(O)/host/peer-glibc.o $(O)/host/peer-newlib.o)
$(O)/host/suite: $(LIB_SRC) lib/wordmerge.h tests/suite.c tests/suite.h tests/host_main.c \
		firmware/protocol.c firmware/protocol.h $(O)/host/flags $(HOST_PEER_OBJS)
	$(quiet) HOSTCC $@
	$(Q)$(HOSTCC) $(HOST_CFLAGS) $(if $(HOST_PEER_OBJS),-DWM_HOST_PEERS) -o $@ $(LIB_SRC) \
		tests/suite.c \
		tests/host_main.c firmware/protocol.c $(HOST_PEER_OBJS)
$(O)/host/bounds: $(LIB_SRC) lib/wordmerge.h tests/bounds.c $(O)/host/flags
	$(quiet) HOSTCC $@
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -o $@ $(LIB_SRC) tests/bounds.c
$(O)/host/exact: $(LIB_SRC) lib/wordmerge.h tests/exact.c $(O)/host/flags
	$(quiet) HOSTCC $@
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -o $@ $(LIB_SRC) tests/exact.c

# --- the suite on rv32: make rv32 [RV32_CC=gcc|clang] ----------------------------
# Bare metal in M-mode on qemu-system-riscv32 virt without firmware (Debian
# has no rv32 OpenSBI): picolibc's semihosting crt0 and library carry
# stdout and the exit status.  picolibc.ld places code in "flash" and data
# in "ram", both in virt's RAM: 16 MiB of ram for the suite's ~4 MiB of
# buffers, 64 KiB of stack.  With clang, picolibc's headers and gcc's link.
RV32_CC ?= gcc
RV32_ARCH := -march=rv32imac -mabi=ilp32 -mcmodel=medany
RV32_LDFLAGS := $(RV32_ARCH) --specs=picolibc.specs --crt0=semihost --oslib=semihost \
	-Wl,--defsym=__flash=0x80000000 -Wl,--defsym=__flash_size=0x100000 \
	-Wl,--defsym=__ram=0x80100000 -Wl,--defsym=__ram_size=0x1000000 \
	-Wl,--defsym=__stack_size=0x10000
PICOLIBC_INC := /usr/lib/picolibc/riscv64-unknown-elf/include
SUITE_SRCS := $(LIB_SRC) tests/suite.c tests/host_main.c firmware/protocol.c
RV32_CFLAGS := -std=c11 -Wall -Wextra -Werror -O2 -g -Ilib -fno-builtin
rv32cc_gcc := $(CC) $(RV32_LDFLAGS) -fno-tree-loop-distribute-patterns
rv32cc_clang := clang --target=riscv32-unknown-elf $(RV32_ARCH) \
	-ffreestanding -isystem $(PICOLIBC_INC)

.PHONY: rv32
rv32: $(O)/rv32/suite.elf
$(O)/rv32/suite.elf: $(SUITE_SRCS) lib/wordmerge.h tests/suite.h firmware/protocol.h
	@mkdir -p $(@D)
	$(quiet) CC $@
ifeq ($(RV32_CC),clang)
	$(Q)for s in $(SUITE_SRCS); do $(rv32cc_clang) $(RV32_CFLAGS) -c $$s \
		-o $(@D)/$$(basename $$s .c).o || exit 1; done
	$(Q)$(CC) $(RV32_LDFLAGS) -o $@ $(patsubst %.c,$(@D)/%.o,$(notdir $(SUITE_SRCS)))
else
	$(Q)$(rv32cc_gcc) $(RV32_CFLAGS) -o $@ $(SUITE_SRCS)
endif

# --- lib alone under every compiler: make lib-objs LIBCC=NAME ---------------------
# At every level, both builds, -Wall -Wextra -Werror and only the flag
# docs/use.md asks of an adopter's GCC (LIB_GCC_FLAGS; clang needs none):
# none of the image's -fno-builtin, and with only the wm_ names (a function
# named memset is spared a call to memset by the compiler itself; wm_memset
# is not), so that `nm -u` of the objects shows any call lib would make.
# LIB_GCC_FLAGS= (empty): the control, where GCC's loops become calls.
# -> $(O)/lib-objs/LEVEL.o and LEVEL-small.o
LIBCC ?= gcc
LIB_GCC_FLAGS ?= -fno-tree-loop-distribute-patterns
LIB_LEVELS := O0 O1 O2 O3 Os
libcc_gcc := gcc
libcc_clang := clang
libcc_clang-19 := clang-19
libcc_gcc-rv64 := $(CC) --specs=picolibc.specs -march=rv64imac -mabi=lp64 -mcmodel=medany
libcc_gcc-rv32 := $(CC) --specs=picolibc.specs $(RV32_ARCH)
libcc_clang-rv64 := clang \
	--target=riscv64-unknown-elf -march=rv64imac -mabi=lp64 -mcmodel=medany -isystem $(PICOLIBC_INC)
libcc_clang-rv32 := clang --target=riscv32-unknown-elf $(RV32_ARCH) -isystem $(PICOLIBC_INC)
$(if $(libcc_$(LIBCC)),,$(error unknown LIBCC=$(LIBCC); known: gcc clang clang-19 gcc-rv64 \
	gcc-rv32 clang-rv64 clang-rv32))
LIB_OBJS := $(foreach l,$(LIB_LEVELS),$(O)/lib-objs/$(l).o $(O)/lib-objs/$(l)-small.o)

.PHONY: lib-objs
lib-objs: $(LIB_OBJS)
$(O)/lib-objs/%.o: $(LIB_SRC) lib/wordmerge.h
	@mkdir -p $(@D)
	$(quiet) CC "$@ ($(LIBCC))"
	$(Q)$(libcc_$(LIBCC)) -std=c11 -Wall -Wextra -Werror -Ilib -$(subst -small,,$*) \
		$(if $(findstring clang,$(LIBCC)),,$(LIB_GCC_FLAGS)) \
		-DWM_SMALL_CODE=$(if $(findstring -small,$*),1,0) -c $< -o $@

# --- lengths past PTRDIFF_MAX: make huge [LIB_SIZE=small] [FAULT=NAME] -------------
# tests/huge.c under gcc -m32, lib built with UBSan's pointer-overflow check.
HUGE_CFLAGS := -m32 -std=c11 -Wall -Wextra -Werror -O2 -g -fno-builtin \
	-fno-tree-loop-distribute-patterns -Ilib
.PHONY: huge
huge: $(O)/huge/huge
$(O)/huge/huge: $(LIB_SRC) lib/wordmerge.h tests/huge.c
	@mkdir -p $(@D)
	$(quiet) HOSTCC $@
	$(Q)gcc $(HUGE_CFLAGS) -fsanitize=undefined,pointer-overflow -fno-sanitize-recover=all \
		$(if $(filter small,$(LIB_SIZE)),-DWM_SMALL_CODE=1) -c $(LIB_SRC) -o $@.lib.o
	$(Q)gcc $(HUGE_CFLAGS) -c tests/huge.c -o $@.o
	$(Q)gcc -m32 -fsanitize=undefined -o $@ $@.lib.o $@.o

# --- the device tree reader on the host ------------------------------------------
#   make fdt-host   $(O)/fuzz/fdt_host: prints what the reader finds in a tree
#   make fuzz [FUZZ_TIME=600]  libFuzzer with ASan and UBSan on the reader,
#                   seeded with QEMU's trees re-encoded by dtc without QEMU's
#                   padding; findings land in $(O)/fuzz/ (tests.cfg: a
#                   bounded run)
FUZZ_DIR := $(O)/fuzz
FUZZ_TIME ?= 600
.PHONY: fdt-host fuzz-build fuzz
fdt-host: $(FUZZ_DIR)/fdt_host
fuzz-build: $(FUZZ_DIR)/fuzz_fdt \
	$(addprefix $(FUZZ_DIR)/seeds/,virt-smp1.dtb virt-smp4.dtb virt-smp8.dtb sifive_u.dtb)
$(FUZZ_DIR)/fdt_host: tests/fdt_host.c firmware/fdt.c firmware/firmware.h
	@mkdir -p $(@D)
	$(quiet) HOSTCC $@
	$(Q)gcc -O2 -Wall -Wextra -Werror -o $@ tests/fdt_host.c firmware/fdt.c
$(FUZZ_DIR)/fuzz_fdt: tests/fuzz_fdt.c firmware/fdt.c firmware/firmware.h
	@mkdir -p $(@D)
	$(quiet) HOSTCC $@
	$(Q)clang -g -O1 -Wall -Wextra -Werror -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all -o $@ tests/fuzz_fdt.c firmware/fdt.c
$(FUZZ_DIR)/seeds/%.dtb: $(O)/dtb/%.dtb
	@mkdir -p $(@D)
	$(Q)dtc -q -I dtb -O dtb -o $@.tmp $< && mv $@.tmp $@
fuzz: fuzz-build
	$(Q)rm -rf $(FUZZ_DIR)/corpus && mkdir -p $(FUZZ_DIR)/corpus && $(FUZZ_DIR)/fuzz_fdt \
		-artifact_prefix=$(FUZZ_DIR)/ -max_total_time=$(FUZZ_TIME) $(FUZZ_DIR)/corpus $(FUZZ_DIR)/seeds

# --- device trees: make dtbs -> $(O)/dtb/ ----------------------------------------
# QEMU's own, with 256 MiB as run-qemu.sh runs them: virt with N harts,
# sifive_u with its 5 (one E51, four U54s); and virt's edited.  Without
# /cpus timebase-frequency OpenSBI 1.1 itself stops ("init_coldboot: timer
# init failed") before the image runs, so the image's own check is reached
# with timebase-frequency = <0> (timebase-0.dtb).  deep.dtb: nodes 17 deep;
# bad-name.dtb: a property name offset outside the strings block.
DTB_DIR := $(O)/dtb
DTBS := $(addprefix $(DTB_DIR)/,virt-smp1.dtb virt-smp4.dtb sifive_u.dtb no-memory.dtb \
	timebase-0.dtb no-timebase.dtb deep.dtb bad-name.dtb memory-elsewhere.dtb)
.PHONY: dtbs
dtbs: $(DTBS)
qemu_dumpdtb = qemu-system-riscv64 -M $(1),dumpdtb=$@ -m 256M -smp $(2) -nographic -bios default \
	>/dev/null 2>&1; test -s $@ || { echo "error: could not dump QEMU's device tree to $@" >&2; \
		exit 1; }
$(DTB_DIR)/virt-smp%.dtb:
	@mkdir -p $(@D)
	$(Q)$(call qemu_dumpdtb,virt,$*)
$(DTB_DIR)/sifive_u.dtb:
	@mkdir -p $(@D)
	$(Q)$(call qemu_dumpdtb,sifive_u,5)
# $(call dtb_edit,COMMANDS on $@.tmp): a copy of virt-smp1.dtb, edited.
dtb_edit = @mkdir -p $(@D); cp $< $@.tmp && $(1) && mv $@.tmp $@
$(DTB_DIR)/no-memory.dtb: $(DTB_DIR)/virt-smp1.dtb
	$(call dtb_edit,for n in $$(fdtget -l $@.tmp /); do \
		case $$n in (memory@*) fdtput -r $@.tmp /$$n || exit 1;; esac; done)
$(DTB_DIR)/timebase-0.dtb: $(DTB_DIR)/virt-smp1.dtb
	$(call dtb_edit,fdtput -t u $@.tmp /cpus timebase-frequency 0)
$(DTB_DIR)/no-timebase.dtb: $(DTB_DIR)/virt-smp1.dtb
	$(call dtb_edit,fdtput -d $@.tmp /cpus timebase-frequency)
# memory-elsewhere.dtb: the memory node says RAM starts 256 MiB above where
# QEMU put it (and the image runs).
$(DTB_DIR)/memory-elsewhere.dtb: $(DTB_DIR)/virt-smp1.dtb
	$(call dtb_edit,fdtput -t x $@.tmp /memory@80000000 reg 0 0x90000000 0 0x10000000)
$(DTB_DIR)/deep.dtb: $(DTB_DIR)/virt-smp1.dtb
	$(call dtb_edit,fdtput -c -p $@.tmp /d1/d2/d3/d4/d5/d6/d7/d8/d9/d10/d11/d12/d13/d14/d15/d16/d17)
$(DTB_DIR)/bad-name.dtb: $(DTB_DIR)/virt-smp1.dtb tests/dtb-corrupt.py
	$(call dtb_edit,tests/dtb-corrupt.py $< $@.tmp fw-cfg@10100000 dma-coherent)

# --- the plugin's selftest guests: make plugin-selftest-guest, cycles-selftest-guest
#   -> $(O)/NAME-selftest/selftest.elf, hand-written M-mode guests (tests/NAME-selftest/,
#      linked by its link.ld): plugin-, the misalign mode's (on 4 harts, each makes one
#      misaligned load and store in misalign_control and only aligned accesses elsewhere;
#      the tests plugin-selftest*), and cycles-, the trace and the cycle model's chain on
#      instructions whose counts and cycles are worked out by hand (test cycles-selftest).
.PHONY: plugin-selftest-guest cycles-selftest-guest
plugin-selftest-guest cycles-selftest-guest: %-selftest-guest: $(O)/%-selftest/selftest.elf
$(O)/plugin-selftest/selftest.elf: tests/plugin-selftest/start.S tests/plugin-selftest/selftest.c
$(O)/cycles-selftest/selftest.elf: tests/cycles-selftest/start.S
$(O)/%-selftest/selftest.elf: tests/%-selftest/link.ld
	@mkdir -p $(@D)
	$(quiet) CC $@
	$(Q)$(CC) -march=rv64imac_zicsr -mabi=lp64 -mcmodel=medany -ffreestanding -fno-builtin \
		-nostdlib -nostartfiles -O2 -g -Wall -Wextra -Werror -Wl,--no-warn-rwx-segments \
		-T $< -o $@ $(filter-out $<,$^)

# --- one boot of the image that several tests read: make boot-log, boot-log-icount
# -> $(O)/boot/ (boot-log: the boot that tests.cfg's `boot` function makes,
#    --no-icount) or $(O)/boot-icount/ (boot-log-icount: run-qemu.sh's default
#    -icount, the counts exact, and --check-alignment, which under -icount adds
#    a twentieth to the boot's CPU time): run.log (the UART), out (run-qemu.sh's
#    output) and status (its exit status).  Tests that check different facts of
#    one run read it instead of each booting the same image again.  Whatever
#    the image's status, the target is made: each test judges it.
.PHONY: boot-log boot-log-icount
boot-log: $(O)/boot/status
boot-log-icount: $(O)/boot-icount/status
$(O)/boot/status: BOOT_ARGS := --no-icount
$(O)/boot-icount/status: BOOT_ARGS := --icount --check-alignment
$(O)/boot-icount/status: $(PLUGIN_SO)
$(O)/boot/status $(O)/boot-icount/status: $(IMG).elf run-qemu.sh
	@mkdir -p $(@D)
	$(quiet) BOOT $(@D)/run.log
	$(Q)O=$(O) ./run-qemu.sh --no-build --full-log $(BOOT_ARGS) --timeout 300 --elf $(IMG).elf \
		--log $(@D)/run.log > $(@D)/out 2>&1; echo $$? > $@.tmp && mv $@.tmp $@
