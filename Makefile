# SPDX-License-Identifier: MIT
#
# wordmerge: word-at-a-time mem* that never make a misaligned access, and the
# bare-metal RISC-V S-mode test image that proves it.
#
#   make                  build $(O)/$(PLATFORM)/wordmerge.elf (+ .bin .map .dis)
#   make test [T="..."]   every test of tests/tests.cfg (or those named)
#   ./run-qemu.sh         build and boot the image on QEMU virt
#
# Variables (as in OpenSBI's build):
#   O=DIR                 build directory (default: build)
#   PLATFORM=NAME         virt (default), visionfive2, unmatched
#   CROSS_COMPILE=PREFIX  RISC-V toolchain prefix (default riscv64-unknown-elf-)
#   OPT=-O2               optimisation level of the image
#   V=1                   print every command
#   IMG_CCACHE=ccache     compile the image's own objects and the peers' through ccache
#                         (make test: tests/run.py; never a user's file, IMPL=)
#   LEGACY_CONSOLE=1      force the legacy SBI putchar console
#   LIB_SRC=FILE          lib source to link (default lib/wordmerge.c)
#   LIB_CC=clang          build lib's object with clang (or clang-19), the rest
#                         with GCC
#   FAULT=NAME            with a deliberate fault of tests/faults.txt
#   IMPL="NAME=FILE ..."  with the user's memcpy/memmove/memset too, checked
#                         and measured beside ours (firmware/impls.mk,
#                         docs/impl.md; IMPL_CFLAGS=, IMPL_MUST_ALIGN=1)
#   PEERS=0               without the peers: the Linux kernel's, glibc's and
#                         newlib's functions (tests/peers.mk, docs/peers.md)
#   PICOLIBC_REFS=0       without picolibc's two builds as references
#                         (firmware/impls.mk)
#   TRAP_SELFTEST=1       the image traps on purpose after the banner
#                         (=2: before it reads the device tree; =3: and the
#                         trap report traps too)
#   PMU_SELFTEST=1        simulated misaligned-trap counts (tests the verdict)
#   LIB_SIZE=small        size-first lib: -Os -DWM_SMALL_CODE=1 (no unrolling,
#                         byte head and tail; still word-wise, never misaligned)
#   BENCH=MODE            build the benchmark image (firmware/bench_main.c,
#                         no suite) instead of the suite's (firmware/main.c):
#                         sweep, big or full, into $(O)/bench-MODE/ (make
#                         bench, make bench-check: tests/bench.mk); trace
#                         for the cycle model (make cycles: tests/cycles.mk)

O ?= build
PLATFORM ?= virt
CROSS_COMPILE ?= riscv64-unknown-elf-
OPT ?= -O2
LEGACY_CONSOLE ?= 0
# The lib source linked into the image (and the test programs,
# tests/build.mk).
LIB_SRC ?= lib/wordmerge.c
# FAULT=NAME: the deliberate fault NAME of tests/faults.txt, for the tests
# that must see it caught: the source file it edits is replaced by a copy
# with the fault (tests/apply-fault.sh), in the image and the test programs.
FAULT ?=
ifneq ($(FAULT),)
FAULT_FILE := $(shell awk -F' [|] ' -v n='$(FAULT)' '$$1 == n { print $$2 }' tests/faults.txt)
ifeq ($(FAULT_FILE),)
$(error unknown FAULT=$(FAULT): no such fault in tests/faults.txt)
endif
FAULT_SRC := $(O)/fault/$(FAULT)/$(FAULT_FILE)
ifeq ($(FAULT_FILE),lib/wordmerge.c)
LIB_SRC := $(FAULT_SRC)
endif
endif
LIB_SIZE ?= fast
LIB_CC ?= gcc
PEERS ?= 1
ifeq ($(filter $(PEERS),0 1),)
$(error PEERS=$(PEERS): 0 or 1)
endif
TRAP_SELFTEST ?= 0
PMU_SELFTEST ?= 0
BENCH ?=
V ?= 0

# $(call shq,TEXT): TEXT as one word for the shell (a file name a user gave).
shq = '$(subst ','\'',$(1))'

ifeq ($(V),1)
Q :=
quiet = @:
else
Q := @
quiet = @printf '  %-7s %s\n'
endif

# --- platforms: where the payload runs ------------------------------------------
# Each runs 2 MiB (the Image header's text_offset) into RAM; a board's U-Boot
# may load it elsewhere, booti moves it here (docs/boards.md).
# virt:        QEMU virt, RAM at 0x80000000: QEMU loads -kernel there, the
#              first 2 MiB boundary past its OpenSBI (fw_dynamic, QEMU's
#              default, is told the address; fw_jump's is the same)
# unmatched:   SiFive HiFive Unmatched (FU740), RAM at 0x80000000 (U-Boot's
#              kernel_addr_r is 0x84000000)
# visionfive2: StarFive VisionFive 2 (JH7110), RAM at 0x40000000 (U-Boot's
#              kernel_addr_r is 0x40200000)
PLATFORMS := virt unmatched visionfive2
load_addr_virt := 0x80200000
load_addr_unmatched := 0x80200000
load_addr_visionfive2 := 0x40200000
# The exit path before the device tree has named the finisher (a tree the
# image cannot use, a trap before it is read): QEMU virt's "sifive,test0"
# at 0x100000 (QEMU's hw/riscv/virt.c memory map), so that the status still
# reaches QEMU.  None on the boards: there the EXIT: line is the status.
finisher_virt := 0x100000
finisher_unmatched := 0
finisher_visionfive2 := 0
ifeq ($(filter $(PLATFORM),$(PLATFORMS)),)
$(error unknown PLATFORM=$(PLATFORM); known platforms: $(PLATFORMS))
endif
LOAD_ADDR := $(load_addr_$(PLATFORM))
# Linux Image header text_offset: the image sits 2 MiB into RAM everywhere.
TEXT_OFFSET := 0x200000
# The boot hart's stack (linker/wordmerge.ld): the only hart that runs C.
STACK_SIZE := 16384

# --- the image -----------------------------------------------------------------
CC := $(CROSS_COMPILE)gcc
OBJCOPY := $(CROSS_COMPILE)objcopy
OBJDUMP := $(CROSS_COMPILE)objdump
PICOLIBC ?= /usr/lib/picolibc/riscv64-unknown-elf/lib
# Zicsr for the CSR instructions; the link names plain rv64imac so that GCC
# picks picolibc's rv64imac/lp64 multilib.  -mstrict-align: GCC must never
# merge byte accesses into a wider access it cannot prove aligned (the
# default RISC-V tuning already avoids it; other tunings may not).
ARCH_FLAGS := -march=rv64imac_zicsr -mabi=lp64 -mcmodel=medany -mstrict-align
LINK_ARCH := -march=rv64imac -mabi=lp64 -mcmodel=medany

# The lib's build in the folder's name: -small (LIB_SIZE=small), -clang
# (LIB_CC=clang), -clang-19, so that every build's images and benchmark
# files coexist.
LIB_SUFFIX := $(if $(filter small,$(LIB_SIZE)),-small)$(if $(filter clang%,$(LIB_CC)),-$(LIB_CC))
IMG_DIR := $(O)/$(if $(BENCH),bench-$(BENCH)/)$(PLATFORM)$(LIB_SUFFIX)
IMG := $(IMG_DIR)/wordmerge
# Why each flag: -ffreestanding -fno-builtin keep GCC from replacing our
# calls and loops with its own idea of memcpy; -fno-tree-loop-distribute-
# patterns stops it turning a byte loop into a call to memcpy/memset, which in
# this image would be a call to ourselves.
# IMG_CODEGEN: also a user's source's (firmware/impls.mk).
IMG_CODEGEN := $(ARCH_FLAGS) $(OPT) -g -std=gnu11 --specs=picolibc.specs -ffreestanding \
	-fno-builtin -fno-tree-loop-distribute-patterns -ffunction-sections -fdata-sections
IMG_CFLAGS := $(IMG_CODEGEN) -Wall -Wextra -Werror \
	-DWM_TEXT_OFFSET=$(TEXT_OFFSET) \
	-DWM_FORCE_LEGACY_CONSOLE=$(LEGACY_CONSOLE) \
	-DWM_TRAP_SELFTEST=$(TRAP_SELFTEST) -DWM_PMU_SELFTEST=$(PMU_SELFTEST) \
	-DWM_FALLBACK_FINISHER=$(finisher_$(PLATFORM)) \
	-Ilib -MMD -MP
IMG_LDFLAGS := $(LINK_ARCH) --specs=picolibc.specs -nostartfiles \
	-T linker/wordmerge.ld -Wl,--defsym=WM_LOAD_ADDR=$(LOAD_ADDR) \
	-Wl,--defsym=WM_STACK_SIZE=$(STACK_SIZE) -Wl,--no-warn-rwx-segments \
	-Wl,--build-id=sha1

ifeq ($(filter $(LIB_SIZE),fast small),)
$(error unknown LIB_SIZE=$(LIB_SIZE); known: fast small)
endif
# Only lib's object: the rest of the image keeps $(OPT).
LIB_CFLAGS_small := -Os -DWM_SMALL_CODE=1
# The image's functions carry the standard names too (lib/wordmerge.h), so
# that everything linked into it runs on them.
$(IMG_DIR)/obj/$(LIB_SRC).o: IMG_CFLAGS += -DWORDMERGE_STD_NAMES $(LIB_CFLAGS_$(LIB_SIZE))
# LIB_CC=clang (14) or clang-19: lib's object from clang, for the DWARF 5
# it writes (the tools must still find lib's functions in it), and so that
# the image's suite checks what clang makes of lib.  clang 14 takes no zicsr in
# -march (lib needs none), nor GCC's --specs, -mstrict-align (strict is
# its RISC-V default) or -fno-tree-loop-distribute-patterns.
ifeq ($(filter $(LIB_CC),gcc clang clang-19),)
$(error unknown LIB_CC=$(LIB_CC); known: gcc clang clang-19)
endif
ifneq ($(LIB_CC),gcc)
$(IMG_DIR)/obj/$(LIB_SRC).o: CC = $(LIB_CC) --target=riscv64-unknown-elf -march=rv64imac
$(IMG_DIR)/obj/$(LIB_SRC).o: IMG_CFLAGS += -isystem $(PICOLIBC_INC)
$(IMG_DIR)/obj/$(LIB_SRC).o: NOT_CLANG := -march=% -mstrict-align --specs=% \
	-fno-tree-loop-distribute-patterns
# clang 19's DWARF 5 location and range lists carry ULEB128 relocations
# (R_RISCV_SET_ULEB128), unknown to Debian 12's binutils 2.40, whose ld
# crashes on them: DWARF 4 from it.
$(IMG_DIR)/obj/$(LIB_SRC).o: IMG_CFLAGS += $(if $(filter clang-19,$(LIB_CC)),-gdwarf-4)
# Compiled to assembly text, then assembled: clang 14 leaves `relax` out of
# the functions' target features, so its own object marks no call as
# relaxable (no R_RISCV_RELAX) and every tail call stays auipc + jr, where
# the linker makes GCC's one jump; its assembler, given the text, marks them.
$(IMG_DIR)/obj/$(LIB_SRC).o: $(LIB_SRC) $(IMG_DIR)/flags
	@mkdir -p $(@D)
	$(quiet) CC $<
	$(Q)$(CC) $(filter-out $(NOT_CLANG),$(IMG_CFLAGS)) -MF $(@:.o=.d) -MT $@ -S $< -o $(@:.o=.s)
	$(Q)$(CC) -mabi=lp64 -c $(@:.o=.s) -o $@
endif
# The compiler and code generation flags that the benchmark's meta lines
# name (the image's, and what lib adds; firmware/bench.c).  Every image
# names them: the default image ends with a short benchmark too (mode quick,
# after the suite), so that one serial log carries cycle counts that make
# report can read.
IMG_CFLAGS += -DWM_BENCH_CC=\"$(CC)\" \
	-DWM_BENCH_CFLAGS="\"$(filter-out -D% -I% -M% -W% --specs=%,$(IMG_CFLAGS))\"" \
	-DWM_BENCH_LIB_CFLAGS="\"$(LIB_CFLAGS_$(LIB_SIZE))\""

# One main per image kind: the suite image links firmware/main.c and the
# suite; the benchmark image (BENCH=MODE) links firmware/bench_main.c, which
# runs the mode it is given as WM_BENCH (its own folder per mode, so the
# define needs no place in $(IMG_DIR)/flags).
ifneq ($(BENCH),)
ifeq ($(filter $(BENCH),sweep big full trace),)
$(error unknown BENCH=$(BENCH); modes: sweep big full trace)
endif
IMG_NOT_LINKED := firmware/main.c
IMG_SUITE :=
$(IMG_DIR)/obj/firmware/bench_main.c.o: IMG_CFLAGS += -DWM_BENCH=\"$(BENCH)\"
else
IMG_NOT_LINKED := firmware/bench_main.c
IMG_SUITE := tests/suite.c
# The buffers the suite passes to the functions under test, where U-mode reaches them
# (linker/wordmerge.ld, firmware/mmu.c).
IMG_CFLAGS += -DSUITE_CALLED_SECTION=\".bss.umode_data\"
endif

IMG_SRCS := $(patsubst $(or $(FAULT_FILE),-),$(FAULT_SRC),boot/entry.S \
	$(filter-out $(IMG_NOT_LINKED),$(wildcard firmware/*.c)) $(LIB_SRC) $(IMG_SUITE))
# A source with a fault finds its quoted includes beside the original.
IMG_CFLAGS += $(if $(FAULT_FILE),-iquote $(dir $(FAULT_FILE)))
IMG_OBJS := $(patsubst %,$(IMG_DIR)/obj/%.o,$(IMG_SRCS))
IMG_REFS :=

.PHONY: all
all: $(IMG).elf $(IMG).bin $(IMG).dis

# The peers (the kernel's, glibc's, newlib's), then the table of every
# implementation, which adds their objects to IMG_REFS.
include tests/peers.mk
include firmware/impls.mk

# The flags are part of what an object depends on.
$(IMG_DIR)/flags: FORCE
	@mkdir -p $(@D)
	@echo '$(IMG_FLAGS)' | cmp -s - $@ || echo '$(IMG_FLAGS)' > $@
IMG_FLAGS = $(IMG_CFLAGS) $(IMG_LDFLAGS) LIB_SIZE=$(LIB_SIZE) LIB_CC=$(LIB_CC)

ifneq ($(FAULT),)
$(FAULT_SRC): $(FAULT_FILE) tests/faults.txt tests/apply-fault.sh
	$(Q)tests/apply-fault.sh tests/faults.txt $(FAULT) $@
endif

# The benchmark's fleet call mix (firmware/bench.c, part mix): drawn by
# tools/fleetmix.py from Google's fleet profiles in tests/fleet/ into a header
# of the build folder, so the image needs no Python, and no copy is committed.
FLEETMIX_H := $(O)/gen/fleetmix.h
FLEETMIX_DATA := $(addprefix tests/fleet/,Memcpy_Fleet.csv Memmove_Fleet.csv Memset_Fleet.csv)
IMG_CFLAGS += -I$(O)/gen
$(FLEETMIX_H): tools/fleetmix.py $(FLEETMIX_DATA)
	@mkdir -p $(@D)
	$(quiet) GEN $@
	$(Q)tools/fleetmix.py header tests/fleet $@
$(IMG_DIR)/obj/firmware/bench.c.o: $(FLEETMIX_H)

# IMG_CCACHE=ccache: ccache keys an object on the compiler, its flags and the preprocessed
# source, so that make test's images built in folders of their own share what they have in
# common; never a user's file (firmware/impls.mk), whose object no cache may decide.
IMG_CCACHE ?=
$(IMG_DIR)/obj/%.o: % $(IMG_DIR)/flags
	@mkdir -p $(@D)
	$(quiet) CC $<
	$(Q)$(IMG_CCACHE) $(CC) $(filter-out $(NOT_CLANG),$(IMG_CFLAGS)) -c $< -o $@

$(IMG_DIR)/obj/picolibc-size.o: $(PICOLIBC)/rv64imac/lp64/libc.a tools/extract-refs.sh
	@mkdir -p $(@D)
	$(quiet) REFS $@
	$(Q)tools/extract-refs.sh $(CROSS_COMPILE) picolibc_size $@ $<

$(IMG_DIR)/obj/picolibc-speed.o: $(PICOLIBC)/release/rv64imac/lp64/libc.a tools/extract-refs.sh
	@mkdir -p $(@D)
	$(quiet) REFS $@
	$(Q)tools/extract-refs.sh $(CROSS_COMPILE) picolibc_speed $@ $<

# One link.  The image carries no symbol table: the trap report prints raw
# addresses, which tools/elf.py symbolize names from this ELF (run-qemu.sh
# does it); the benchmark's code sizes are the ELF's too (tools/report.py).
$(IMG).elf: $(IMG_OBJS) $(IMG_REFS) linker/wordmerge.ld
	$(quiet) LD $@
	$(Q)$(CC) $(IMG_LDFLAGS) -Wl,-Map=$(IMG).map -o $@ $(IMG_OBJS) $(IMG_REFS)

$(IMG).bin: $(IMG).elf
	$(quiet) OBJCOPY $@
	$(Q)$(OBJCOPY) -O binary $< $@

# objdump does not notice a write that fails (a full disk): the listing is
# written beside, read back against a second run, and only then renamed into
# place, never left half-written to pass for up to date.
$(IMG).dis: $(IMG).elf
	$(quiet) OBJDUMP $@
	$(Q)$(OBJDUMP) -d $< > $@.tmp && $(OBJDUMP) -d $< | cmp -s - $@.tmp && mv -f $@.tmp $@ || \
		{ rm -f $@.tmp; echo "make: error: cannot write $@ whole (a full disk?)" >&2; exit 1; }

-include $(IMG_OBJS:.o=.d)

# --- tests ---------------------------------------------------------------------
# tests/tests.cfg is the list of tests, a record each; tests/run.py builds what
# they need (tests/build.mk: the host and cross programs, the device trees)
# and runs them, -j from make -j or else one more than the number of cores.
#   make test               install the Debian packages the tests need (the table's
#                           [needs] records, tools/deps.sh), run them all
#   make test STRICT=1      and fail on a test skipped for a missing tool (CI);
#                           STRICT=0 or none: not; any other value is refused
#   make test T="A B"       only the tests or groups named (tests/run.py --list)
# tools/plugin.mk first: the others name its plugin in their rules' prerequisites,
# which make expands as it reads them.
include tools/plugin.mk
include tests/build.mk
include tests/aarch64/aarch64.mk
include tests/bench.mk
include tests/cycles.mk
include tests/kernel/kernel.mk

T ?=
# The table of tests (tests/stand-in/interrupt.cfg: the tests that interrupt
# make test run it).
TEST_TABLE ?= tests/tests.cfg

# make test runs where it can: a user who is not root, a system without
# apt-get, a tool no package gives: run.py skips the tests whose tools are
# missing.  STRICT=1 (CI): a skipped test fails the run; STRICT=0 or none: it
# does not.  Any other value (yes, true, on) is refused, not taken for one of them.
# Debian's python3 first, which run.py is run with.
STRICT ?=
$(if $(or $(filter-out 0 1,$(STRICT)),$(word 2,$(STRICT))),$(error STRICT=$(STRICT): 1 (a test \
	skipped for a missing tool fails make test) or 0 (it does not), nothing else))
.PHONY: test
test:
	$(Q)tools/deps.sh python3
	$(Q)tests/run.py -O $(O) --table $(TEST_TABLE) $(if $(filter 1,$(STRICT)),--strict) $(T)

# A recipe that fails leaves no half-written target behind.
.DELETE_ON_ERROR:

.PHONY: clean FORCE
clean:
	rm -rf $(O)
FORCE:
