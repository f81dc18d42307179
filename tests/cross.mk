# SPDX-License-Identifier: MIT
# Everywhere else: the correctness suite on 32-bit, big-endian and rv32
# targets, lib under other compilers, the image at every optimisation level,
# on more harts, on sifive_u, with the legacy console forced and with broken
# device trees, and the board images' boot header.  Included by the top
# Makefile after tests/qemu.mk (it uses RUN_QEMU from there).
#
#   make test-cross       the suite on LE32, BE64 (s390x), BE32 (powerpc), rv32
#   make test-compilers   lib at -Wall -Wextra -Werror under clang/gcc for RISC-V
#   make test-image-opt   the image built at -O0, -O2, -Os, -O3 passes on QEMU
#   make test-machines    virt -smp 2 and 8, sifive_u (1 and 4: test-qemu)
#   make test-firmware    legacy SBI console forced; device trees without
#                         memory or timebase
#   make test-image-header  the Image header of virt, visionfive2, unmatched

CROSS_DIR := $(O)/cross

# --- jobs: run up to two at a time, judge them afterwards -----------------------
# A job NAME is a command whose output and exit status are kept in
# $(CROSS_DIR)/run/NAME.out and NAME.rc; it is described by
#   job_deps_NAME   files it needs (made first)
#   job_cmd_NAME    the command
#   job_rc_NAME     the exit status it must end with (default 0)
#   job_want_NAME   an extended regex that some line of its output must match
#   job_show_NAME   an extended regex of further lines worth showing (optional)
#   job_desc_NAME   what it shows, for the PASS:/FAIL: line
# A job expected to end with status 0 must also print "EXIT: STATUS=0" and
# no FAIL: line.  Jobs run again on every make (FORCE).
JOB_DIR := $(CROSS_DIR)/run
JOBS :=

$(JOB_DIR)/%.rc: FORCE
	@mkdir -p $(@D)
	$(Q)rc=0; $(job_cmd_$*) </dev/null >$(JOB_DIR)/$*.out 2>&1 || rc=$$?; echo $$rc >$@

job_rc = $(or $(job_rc_$(1)),0)
# $(call job_judge,NAME): shell text that prints NAME's verdict and the lines
# that show it, and sets fail=1 if it failed.
define job_judge
out=$(JOB_DIR)/$(1).out; rc=$$(cat $(JOB_DIR)/$(1).rc); ok=1; \
[ "$$rc" = "$(call job_rc,$(1))" ] || ok=0; \
grep -aqE '$(job_want_$(1))' $$out || ok=0; \
$(if $(filter 0,$(call job_rc,$(1))),{ grep -aq '^EXIT: STATUS=0' $$out && ! grep -aq '^FAIL:' $$out; } || ok=0;) \
tr -d '\r' <$$out | grep -aE '^(TARGET|SUMMARY|EXIT):|$(job_want_$(1))$(if $(job_show_$(1)),|$(job_show_$(1)))' | sed 's/^/    /'; \
if [ $$ok = 1 ]; then echo "PASS: $(job_desc_$(1)) (status $$rc)"; \
else tr -d '\r' <$$out | tail -n 15 | sed 's/^/  | /'; \
	echo "FAIL: $(job_desc_$(1)): status $$rc (want $(call job_rc,$(1))), log $$out"; fail=1; fi;
endef
# $(call run_jobs,NAMES): run the jobs two at a time, then judge each.
define run_jobs
$(Q)$(MAKE) --no-print-directory -j2 $(patsubst %,$(JOB_DIR)/%.rc,$(1))
$(Q)fail=0; $(foreach j,$(1),$(call job_judge,$(j))) [ $$fail = 0 ]
endef

# --- 1. the suite on every kind of target ------------------------------------------
# One source, the host tests' own: lib/wordmerge.c + tests/suite.c +
# tests/host_main.c, with the target's C library as the reference.  Each run
# prints "TARGET: <bits>-bit <endian>" from inside, which must be the one
# expected.  Native little-endian 64-bit is test-host.
SUITE_SRCS := lib/wordmerge.c tests/suite.c tests/host_main.c
SUITE_DEPS := $(SUITE_SRCS) lib/wordmerge.h tests/suite.h tests/cross.mk
SUITE_CFLAGS := -std=c11 -Wall -Wextra -Werror -O2 -g -DWORDMERGE_PREFIX -Ilib \
	-fno-builtin
GCC_NOLDP := -fno-tree-loop-distribute-patterns

# rv32: bare metal in M-mode on qemu-system-riscv32 virt without firmware
# (Debian has no rv32 OpenSBI), picolibc's semihosting crt0 and library:
# stdout and the exit status go through semihosting.  picolibc.ld places
# code in "flash" and data in "ram": both in virt's RAM at 0x80000000, 16 MiB
# of ram for the suite's ~4 MiB of buffers, 64 KiB of stack.
RV32_ARCH := -march=rv32imac -mabi=ilp32 -mcmodel=medany
RV32_LDFLAGS := $(RV32_ARCH) --specs=picolibc.specs --crt0=semihost --oslib=semihost \
	-Wl,--defsym=__flash=0x80000000 -Wl,--defsym=__flash_size=0x100000 \
	-Wl,--defsym=__ram=0x80100000 -Wl,--defsym=__ram_size=0x1000000 \
	-Wl,--defsym=__stack_size=0x10000
RV32_QEMU := timeout 300 qemu-system-riscv32 -M virt -m 128M -bios none \
	-nographic -monitor none -semihosting-config enable=on,target=native -kernel
PICOLIBC_INC := /usr/lib/picolibc/riscv64-unknown-elf/include

# $(call cross_suite,NAME,COMPILER AND FLAGS[,LIB SOURCE]): $(CROSS_DIR)/NAME/suite
define cross_suite
$(CROSS_DIR)/$(1)/suite: $(SUITE_DEPS) $(3)
	@mkdir -p $$(@D)
	$$(quiet) CC $$@
	$$(Q)$(2) $(SUITE_CFLAGS) $(GCC_NOLDP) -o $$@ $(or $(3),lib/wordmerge.c) tests/suite.c tests/host_main.c
endef
# Under qemu-user the suite runs its sampled set (SUITE_FULL=0: lengths
# 257..1024 in steps of 2W + 1, far overlap distances at one source offset
# each): the full set took qemu-s390x 28 s a run, the sampled one 10 s.
# gcc -m32 runs natively, the full set.
QEMU_USER_SUITE := -DSUITE_FULL=0
$(eval $(call cross_suite,le32,gcc -m32))
$(eval $(call cross_suite,be64,s390x-linux-gnu-gcc -static $(QEMU_USER_SUITE)))
$(eval $(call cross_suite,be32,powerpc-linux-gnu-gcc -static $(QEMU_USER_SUITE)))
# lib's size-first build (make LIB_SIZE=small) has code paths of its own.
$(eval $(call cross_suite,le32-small,gcc -m32 -DWM_SMALL_CODE=1))
$(eval $(call cross_suite,be64-small,s390x-linux-gnu-gcc -static $(QEMU_USER_SUITE) -DWM_SMALL_CODE=1))
$(eval $(call cross_suite,be32-small,powerpc-linux-gnu-gcc -static $(QEMU_USER_SUITE) -DWM_SMALL_CODE=1))
# The big-endian runs can fail: lib with the big-endian DROP() shifting the
# little-endian way (invisible on a little-endian host) must fail on s390x.
$(CROSS_DIR)/be64-fault/wordmerge.c: lib/wordmerge.c tests/cross.mk
	@mkdir -p $(@D)
	$(Q)sed -e 's/^#define DROP(x, b) ((x) << (b))$$/#define DROP(x, b) ((x) >> (b))/' $< >$@
	$(Q)n=$$(diff $< $@ | grep -c '^>'); [ "$$n" = 1 ] || \
		{ echo "error: the big-endian fault changed $$n lines of $<, expected 1: update tests/cross.mk" >&2; rm -f $@; exit 1; }
$(eval $(call cross_suite,be64-fault,s390x-linux-gnu-gcc -static $(QEMU_USER_SUITE),$(CROSS_DIR)/be64-fault/wordmerge.c))

$(CROSS_DIR)/rv32/suite.elf: $(SUITE_DEPS)
	@mkdir -p $(@D)
	$(quiet) CC $@
	$(Q)$(CROSS_COMPILE)gcc $(RV32_LDFLAGS) $(SUITE_CFLAGS) $(GCC_NOLDP) -o $@ $(SUITE_SRCS)

# The same with clang as the compiler (picolibc's headers; gcc links).
$(CROSS_DIR)/rv32-clang/suite.elf: $(SUITE_DEPS)
	@mkdir -p $(@D)
	$(quiet) CLANG $@
	$(Q)for s in $(SUITE_SRCS); do \
		clang --target=riscv32-unknown-elf $(RV32_ARCH) -ffreestanding \
			-isystem $(PICOLIBC_INC) $(SUITE_CFLAGS) -c $$s \
			-o $(@D)/$$(basename $$s .c).o || exit 1; \
	done
	$(Q)$(CROSS_COMPILE)gcc $(RV32_LDFLAGS) -o $@ $(patsubst %.c,$(@D)/%.o,$(notdir $(SUITE_SRCS)))

job_deps_le32 := $(CROSS_DIR)/le32/suite
job_cmd_le32 := $(CROSS_DIR)/le32/suite
job_want_le32 := ^TARGET: 32-bit little-endian
job_desc_le32 := suite on little-endian 32-bit (gcc -m32, i386, gcc-12-multilib)

job_deps_be64 := $(CROSS_DIR)/be64/suite
job_cmd_be64 := qemu-s390x-static $(CROSS_DIR)/be64/suite
job_want_be64 := ^TARGET: 64-bit big-endian
job_desc_be64 := suite on big-endian 64-bit (s390x-linux-gnu-gcc, qemu-s390x-static)

job_deps_be32 := $(CROSS_DIR)/be32/suite
job_cmd_be32 := qemu-ppc-static $(CROSS_DIR)/be32/suite
job_want_be32 := ^TARGET: 32-bit big-endian
job_desc_be32 := suite on big-endian 32-bit (powerpc-linux-gnu-gcc, qemu-ppc-static)

$(foreach v,le32 be64 be32,$(eval job_deps_$(v)-small := $(CROSS_DIR)/$(v)-small/suite)\
	$(eval job_cmd_$(v)-small := $(subst /$(v)/,/$(v)-small/,$(job_cmd_$(v))))\
	$(eval job_want_$(v)-small := $(job_want_$(v)))\
	$(eval job_desc_$(v)-small := $(job_desc_$(v)), lib -DWM_SMALL_CODE=1))

job_deps_be64-fault := $(CROSS_DIR)/be64-fault/suite
job_cmd_be64-fault := qemu-s390x-static $(CROSS_DIR)/be64-fault/suite
job_rc_be64-fault := 1
job_want_be64-fault := ^FAIL: memcpy\[wordmerge\] dst_off=
job_desc_be64-fault := lib with the big-endian DROP() shifting the wrong way fails on s390x

job_deps_rv32 := $(CROSS_DIR)/rv32/suite.elf
job_cmd_rv32 := $(RV32_QEMU) $(CROSS_DIR)/rv32/suite.elf
job_want_rv32 := ^TARGET: 32-bit little-endian
job_desc_rv32 := suite on rv32imac (gcc, picolibc semihosting, qemu-system-riscv32 M-mode)

job_deps_rv32-clang := $(CROSS_DIR)/rv32-clang/suite.elf
job_cmd_rv32-clang := $(RV32_QEMU) $(CROSS_DIR)/rv32-clang/suite.elf
job_want_rv32-clang := ^TARGET: 32-bit little-endian
job_desc_rv32-clang := suite on rv32imac built by clang (picolibc semihosting, qemu-system-riscv32)

CROSS_JOBS := rv32 rv32-clang be64 be32 le32 be64-small be32-small le32-small be64-fault
JOBS += $(CROSS_JOBS)

.PHONY: test-cross
test-cross:
	$(call run_jobs,$(CROSS_JOBS))
TESTS += test-cross
# gcc -m32 needs gcc-12-multilib, not the gcc-multilib metapackage: Debian
# 12's gcc-multilib conflicts with the cross compilers (installing either
# makes apt remove the other), gcc-12-multilib does not.
TEST_DEPS += gcc-12-multilib gcc-s390x-linux-gnu libc6-dev-s390x-cross \
	gcc-powerpc-linux-gnu libc6-dev-powerpc-cross qemu-user-static clang

# --- 2. compilers and optimisation levels --------------------------------------------
# lib alone, compile only, at -Wall -Wextra -Werror: clang for rv64 and rv32,
# and gcc for rv32 (gcc for rv64 builds the image at each level below, the
# host's gcc and clang are test-host).
OPT_LEVELS := O0 O2 Os O3
LIB_COMPILERS := clang-rv64 clang-rv32 gcc-rv32
libcc_clang-rv64 := clang --target=riscv64-unknown-elf -march=rv64imac -mabi=lp64 -mcmodel=medany -ffreestanding -fno-builtin
libcc_clang-rv32 := clang --target=riscv32-unknown-elf -march=rv32imac -mabi=ilp32 -mcmodel=medany -ffreestanding -fno-builtin
libcc_gcc-rv32 := $(CROSS_COMPILE)gcc $(RV32_ARCH) -ffreestanding -fno-builtin $(GCC_NOLDP)
LIB_WARN := -std=c11 -Wall -Wextra -Werror

.PHONY: test-compilers
test-compilers:
	@mkdir -p $(CROSS_DIR)/lib
	$(Q)fail=0; $(foreach c,$(LIB_COMPILERS),$(foreach o,$(OPT_LEVELS),\
		if $(libcc_$(c)) $(LIB_WARN) -$(o) -c lib/wordmerge.c -o $(CROSS_DIR)/lib/$(c)-$(o).o \
			>$(CROSS_DIR)/lib/$(c)-$(o).log 2>&1 && \
		   $(libcc_$(c)) $(LIB_WARN) -$(o) -DWM_SMALL_CODE=1 -c lib/wordmerge.c \
			-o $(CROSS_DIR)/lib/$(c)-$(o)-small.o >>$(CROSS_DIR)/lib/$(c)-$(o).log 2>&1; then \
			echo "PASS: lib/wordmerge.c, $(c) -$(o) $(LIB_WARN) (and -DWM_SMALL_CODE=1): no warning"; \
		else cat $(CROSS_DIR)/lib/$(c)-$(o).log; \
			echo "FAIL: lib/wordmerge.c, $(c) -$(o) $(LIB_WARN)"; fail=1; fi;)) \
	[ $$fail = 0 ]
TESTS += test-compilers

# The image at each level, in its own build directory (make OPT=-O0
# O=build/opt-O0 ...), booted on virt.
$(O)/opt-%/virt/wordmerge.elf: FORCE
	$(Q)$(MAKE) --no-print-directory O=$(O)/opt-$* OPT=-$* PLATFORM=virt all >/dev/null

define opt_job
job_deps_opt-$(1) := $(O)/opt-$(1)/virt/wordmerge.elf
job_cmd_opt-$(1) := $(RUN_QEMU) --elf $(O)/opt-$(1)/virt/wordmerge.elf --log $(JOB_DIR)/opt-$(1).log
job_want_opt-$(1) := ^TARGET: 64-bit little-endian
job_desc_opt-$(1) := image built at -$(1) ($(O)/opt-$(1)/virt) on virt
endef
$(foreach o,$(OPT_LEVELS),$(eval $(call opt_job,$(o))))
OPT_JOBS := $(patsubst %,opt-%,$(OPT_LEVELS))
JOBS += $(OPT_JOBS)

.PHONY: test-image-opt
test-image-opt:
	$(call run_jobs,$(OPT_JOBS))
	$(Q)for o in $(OPT_LEVELS); do grep -q -- " -$$o " $(O)/opt-$$o/virt/flags || \
		{ echo "FAIL: $(O)/opt-$$o was not built with -$$o"; exit 1; }; done
TESTS += test-image-opt

# --- 3. machines --------------------------------------------------------------------
# virt with 1 and 4 harts is test-qemu; here 2 and 8, and sifive_u: another
# memory map and UART, five harts of which hart 0 (E51) has no S-mode, no
# test finisher (run-qemu.sh stops QEMU at the EXIT: line).
define smp_job
job_deps_smp$(1) := $(IMG).elf
job_cmd_smp$(1) := $(RUN_QEMU) --smp $(1) --elf $(IMG).elf --log $(JOB_DIR)/smp$(1).log
job_want_smp$(1) := ^BANNER: .*boot hart [0-9]+ of $(1) harts
job_desc_smp$(1) := image on virt -smp $(1)
endef
$(foreach n,2 8,$(eval $(call smp_job,$(n))))

job_deps_sifive_u := $(IMG).elf
job_cmd_sifive_u := $(RUN_QEMU) --machine sifive_u --elf $(IMG).elf --log $(JOB_DIR)/sifive_u.log
job_want_sifive_u := ^BANNER: test finisher none
job_show_sifive_u := ^BANNER: model
job_desc_sifive_u := image on sifive_u (./run-qemu.sh --machine sifive_u)

MACHINE_JOBS := smp8 sifive_u smp2
JOBS += $(MACHINE_JOBS)

.PHONY: test-machines
test-machines:
	$(call run_jobs,$(MACHINE_JOBS))
TESTS += test-machines

# --- the legacy console, and device trees without memory or timebase --------------
# QEMU 7.2's OpenSBI 1.1 has no Debug Console extension, so on QEMU every
# image prints through legacy putchar; this one is built to use nothing else
# (LEGACY_CONSOLE=1), as on board firmware without DBCN.
$(O)/legacy/virt/wordmerge.elf: FORCE
	$(Q)$(MAKE) --no-print-directory O=$(O)/legacy LEGACY_CONSOLE=1 PLATFORM=virt all >/dev/null

job_deps_legacy := $(O)/legacy/virt/wordmerge.elf
job_cmd_legacy := $(RUN_QEMU) --elf $(O)/legacy/virt/wordmerge.elf --log $(JOB_DIR)/legacy.log
job_want_legacy := ^BANNER: .*console: SBI legacy putchar \(forced
job_show_legacy := ^BANNER: sbi spec
job_desc_legacy := image with the legacy SBI console forced (make LEGACY_CONSOLE=1)

# QEMU's own device tree for run-qemu.sh's default virt (256 MiB, 1 hart),
# edited with fdtput.  Without /cpus timebase-frequency OpenSBI 1.1 itself
# stops ("init_coldboot: timer init failed") before the image runs, so the
# image's own check is reached with timebase-frequency = <0> instead; the
# property dropped outright is kept as a job that shows where the run stops
# and that run-qemu.sh ends it (status 124) rather than hanging.
DTB_DIR := $(CROSS_DIR)/dtb
$(DTB_DIR)/no-memory.dtb: $(QEMU_DTB_DIR)/virt-smp1.dtb
	@mkdir -p $(@D)
	$(Q)cp $< $@.tmp && for n in $$(fdtget -l $@.tmp /); do \
		case $$n in memory@*) fdtput -r $@.tmp /$$n || exit 1;; esac; done && mv $@.tmp $@
$(DTB_DIR)/timebase-0.dtb: $(QEMU_DTB_DIR)/virt-smp1.dtb
	@mkdir -p $(@D)
	$(Q)cp $< $@.tmp && fdtput -t u $@.tmp /cpus timebase-frequency 0 && mv $@.tmp $@
$(DTB_DIR)/no-timebase.dtb: $(QEMU_DTB_DIR)/virt-smp1.dtb
	@mkdir -p $(@D)
	$(Q)cp $< $@.tmp && fdtput -d $@.tmp /cpus timebase-frequency && mv $@.tmp $@

job_deps_dtb-no-memory := $(IMG).elf $(DTB_DIR)/no-memory.dtb
job_cmd_dtb-no-memory := $(RUN_QEMU) --elf $(IMG).elf --log $(JOB_DIR)/dtb-no-memory.log -- -dtb $(DTB_DIR)/no-memory.dtb
job_rc_dtb-no-memory := 3
job_want_dtb-no-memory := ^FAIL: .*memory
job_desc_dtb-no-memory := device tree without a memory node: the image says so and ends

job_deps_dtb-timebase-0 := $(IMG).elf $(DTB_DIR)/timebase-0.dtb
job_cmd_dtb-timebase-0 := $(RUN_QEMU) --elf $(IMG).elf --log $(JOB_DIR)/dtb-timebase-0.log -- -dtb $(DTB_DIR)/timebase-0.dtb
job_rc_dtb-timebase-0 := 3
job_want_dtb-timebase-0 := ^FAIL: .*timebase
job_desc_dtb-timebase-0 := device tree with /cpus timebase-frequency = <0>: the image says so and ends

job_deps_dtb-no-timebase := $(IMG).elf $(DTB_DIR)/no-timebase.dtb
job_cmd_dtb-no-timebase := $(RUN_QEMU) --timeout 10 --elf $(IMG).elf --log $(JOB_DIR)/dtb-no-timebase.log -- -dtb $(DTB_DIR)/no-timebase.dtb
job_rc_dtb-no-timebase := 124
job_want_dtb-no-timebase := init_coldboot: timer init failed
job_desc_dtb-no-timebase := device tree without timebase-frequency: OpenSBI 1.1 stops before the image; run-qemu.sh ends it at --timeout 10

FIRMWARE_JOBS := legacy dtb-no-memory dtb-timebase-0 dtb-no-timebase
JOBS += $(FIRMWARE_JOBS)

.PHONY: test-firmware
test-firmware:
	$(call run_jobs,$(FIRMWARE_JOBS))
TESTS += test-firmware
TEST_DEPS += device-tree-compiler

# --- 4. the board images' Image header ------------------------------------------------
# make PLATFORM=visionfive2 / unmatched build $(O)/<platform>/wordmerge.bin;
# U-Boot's booti moves an image to RAM base + text_offset, so each
# platform's RAM base (from the SoC's memory map, not from the Makefile) is
# part of the check.
ram_base_virt := 0x80000000
ram_base_unmatched := 0x80000000
ram_base_visionfive2 := 0x40000000
HEADER_PLATFORMS := virt visionfive2 unmatched

.PHONY: test-image-header
test-image-header: tools/check-image-header.py
	$(Q)for p in $(HEADER_PLATFORMS); do \
		$(MAKE) --no-print-directory PLATFORM=$$p all >/dev/null || exit 1; done
	$(Q)fail=0; $(foreach p,$(HEADER_PLATFORMS),\
		python3 tools/check-image-header.py --name $(p) --ram-base $(ram_base_$(p)) \
			--bin $(O)/$(p)/wordmerge.bin --elf $(O)/$(p)/wordmerge.elf || fail=1;) \
	[ $$fail = 0 ]
	@# The check can fail: a copy with magic2 cleared must be refused.
	@mkdir -p $(CROSS_DIR)
	$(Q)cp $(O)/unmatched/wordmerge.bin $(CROSS_DIR)/bad-magic2.bin && \
	printf '\000\000\000\000' | dd of=$(CROSS_DIR)/bad-magic2.bin bs=1 seek=56 conv=notrunc 2>/dev/null && \
	if python3 tools/check-image-header.py --name bad-magic2 --ram-base 0x80000000 \
		--bin $(CROSS_DIR)/bad-magic2.bin --elf $(O)/unmatched/wordmerge.elf \
		>$(CROSS_DIR)/bad-magic2.out; then \
		echo "FAIL: a header with magic2 cleared passed the check"; exit 1; \
	else grep '^FAIL: .*magic2' $(CROSS_DIR)/bad-magic2.out | sed 's/^/    /'; \
		echo "PASS: a header with magic2 cleared is refused"; fi
TESTS += test-image-header

# Each job's prerequisites.
$(foreach j,$(JOBS),$(eval $(JOB_DIR)/$(j).rc: $(job_deps_$(j))))
