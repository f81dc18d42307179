# SPDX-License-Identifier: MIT
# Boots of the image on QEMU (through run-qemu.sh, which checks the EXIT:
# line against QEMU's exit status).  Included by the top Makefile.

# O goes to run-qemu.sh too: its logs, and the plugin it builds for
# --check-alignment, land in $(O), not in build/.  run-qemu.sh's own errors
# (usage, tools, build, ELF, log) exit 126, never an image status.
RUN_QEMU := O=$(O) ./run-qemu.sh --no-build --timeout 300

# QEMU's own device trees, dumped once for every test that edits or feeds
# one (test-exit-status, the dtb-* jobs of tests/cross.mk, the fuzzer's
# seeds in tests/fuzz.mk), with 256 MiB as run-qemu.sh
# runs them: virt with N harts, sifive_u with its 5 (one E51, four U54s).
QEMU_DTB_DIR := $(O)/dtb
$(QEMU_DTB_DIR)/virt-smp%.dtb:
	@mkdir -p $(@D)
	$(Q)qemu-system-riscv64 -M virt,dumpdtb=$@ -m 256M -smp $* -nographic -bios default >/dev/null 2>&1; \
		test -s $@ || { echo "error: could not dump QEMU's device tree to $@" >&2; exit 1; }
$(QEMU_DTB_DIR)/sifive_u.dtb:
	@mkdir -p $(@D)
	$(Q)qemu-system-riscv64 -M sifive_u,dumpdtb=$@ -m 256M -smp 5 -nographic -bios default >/dev/null 2>&1; \
		test -s $@ || { echo "error: could not dump QEMU's device tree to $@" >&2; exit 1; }

# The image passes on 1 hart under the misaligned-access plugin (no
# misaligned access in lib, the control seen) and on 4 harts (secondary
# harts parked), and the banner counts the harts it was given.  The run
# ends with the short benchmark, whose lines make report reads (its
# closing data line CSV:done,quick,POINTS,FAILURES) and run-qemu.sh
# renders (tools/report.py summary).
.PHONY: test-qemu
test-qemu: $(IMG).elf
	$(Q)for n in 1 4; do \
		opt=; [ $$n = 1 ] && opt=--check-alignment; \
		$(RUN_QEMU) --smp $$n $$opt --elf $(IMG).elf > $(O)/run-smp$$n.out 2>&1 || \
			{ cat $(O)/run-smp$$n.out; echo "FAIL: image on virt -smp $$n $$opt"; exit 1; }; \
		grep -E '^(BANNER|PMU: (VERDICT|control)|SUMMARY|EXIT|MISALIGNED|PASS: (no|control)).*' $(O)/run-smp$$n.out; \
		grep -aEq "^BANNER: .*boot hart [0-9]+ of $$n harts" $(O)/run-smp$$n.out || \
			{ echo "FAIL: image on virt -smp $$n $$opt: the banner does not say \"of $$n harts\""; exit 1; }; \
		echo "PASS: image on virt -smp $$n $$opt"; \
	done
	$(Q)tools/deps.sh gnuplot-nox
	$(Q)python3 tools/report.py report $(O)/run/virt-smp1.log --out $(O)/report-default \
		> $(O)/report-default.out 2>&1 || \
		{ cat $(O)/report-default.out; echo "FAIL: make report cannot read the default run's log"; exit 1; }
	$(Q)echo "PASS: the default run ends with a benchmark that make report reads:"; \
	grep -E '^CSV:done,quick,' $(O)/run-smp1.out; tail -n 1 $(O)/report-default.out
	$(Q)grep -Eq '^ +4096 wordmerge +[0-9]+ +[0-9]+ +[0-9]+ +[0-9.-]+$$' $(O)/run-smp1.out || \
		{ echo "FAIL: run-qemu.sh did not print the benchmark's summary (tools/report.py summary)"; exit 1; }; \
	echo "PASS: run-qemu.sh printed the benchmark's tables:"; \
	grep -E -m2 '^(memcpy, dst%8=0 src%8=0: per call|       n  )' $(O)/run-smp1.out | sed 's/^/    /'; \
	grep -E -m1 '^ +4096 wordmerge ' $(O)/run-smp1.out | sed 's/^/    /'
TESTS += test-qemu

# $(call fault_image,FAULT): build the image with lib fault FAULT of
# tests/faults.txt into $(O)/fault-FAULT/.
fault_image = tools/apply-fault.sh tests/faults.txt $(1) $(O)/fault-$(1)/wordmerge.c && \
	$(MAKE) --no-print-directory O=$(O)/fault-$(1) LIB_SRC=$(O)/fault-$(1)/wordmerge.c all >/dev/null

# A broken memcpy makes the image print the case and QEMU exit 1.
.PHONY: test-qemu-fault
test-qemu-fault:
	$(Q)$(call fault_image,tail-off-by-one)
	$(Q)d=$(O)/fault-tail-off-by-one; rc=0; \
	$(RUN_QEMU) --elf $$d/virt/wordmerge.elf --log $$d/run.log > $$d/run.out 2>&1 || rc=$$?; \
	if [ $$rc = 1 ] && grep -q '^FAIL: memcpy\[wordmerge\] dst_off=' $$d/run.out; then \
		echo "PASS: broken memcpy caught in the image, run-qemu.sh exit $$rc:"; \
		grep -m1 '^FAIL: memcpy' $$d/run.out; \
	else \
		echo "FAIL: broken memcpy not reported (run-qemu.sh exit $$rc, log $$d/run.out)"; exit 1; \
	fi
TESTS += test-qemu-fault

# A lib with one misaligned word load (correct results: QEMU does not trap)
# must be caught by the plugin, naming the function and offset.
.PHONY: test-alignment-fault
test-alignment-fault: $(MISALIGN_PLUGIN)
	$(Q)$(call fault_image,misaligned-word-load)
	$(Q)d=$(O)/fault-misaligned-word-load; rc=0; \
	$(RUN_QEMU) --check-alignment --elf $$d/virt/wordmerge.elf --log $$d/run.log > $$d/run.out 2>&1 || rc=$$?; \
	if [ $$rc != 0 ] && grep -Eq '^FAIL: misaligned access in (memcpy|memmove|wm_[a-z_]*) at [a-z_]*\+0x' $$d/run.out; then \
		echo "PASS: misaligned word load caught by the plugin, run-qemu.sh exit $$rc:"; \
		grep -E '^(FAIL: misaligned|MISALIGNED)' $$d/run.out; \
	else \
		echo "FAIL: misaligned word load not reported (run-qemu.sh exit $$rc, log $$d/run.out)"; exit 1; \
	fi
TESTS += test-alignment-fault

# An unexpected trap is reported with cause, epc, tval and the symbol, and
# ends the run with status 2.
.PHONY: test-trap
test-trap:
	$(Q)$(MAKE) --no-print-directory O=$(O)/trap-selftest TRAP_SELFTEST=1 all >/dev/null
	$(Q)d=$(O)/trap-selftest; rc=0; \
	$(RUN_QEMU) --elf $$d/virt/wordmerge.elf --log $$d/run.log > $$d/run.out 2>&1 || rc=$$?; \
	if [ $$rc = 2 ] && grep -Eq '^TRAP: scause=0x2 \(illegal instruction\) sepc=0x[0-9a-f]+ <trap_selftest\+0x[0-9a-f]+> stval=0x' $$d/run.out; then \
		echo "PASS: unexpected trap reported, run-qemu.sh exit $$rc:"; grep '^TRAP:' $$d/run.out; \
	else \
		echo "FAIL: trap not reported as expected (run-qemu.sh exit $$rc, log $$d/run.out)"; exit 1; \
	fi
TESTS += test-trap

# The PMU verdict and failure paths, which QEMU (never trapping) cannot
# reach: with simulated trap counts (PMU_SELFTEST=1) the image must say the
# platform traps, and fail every wordmerge group with status 1.
.PHONY: test-pmu-selftest
test-pmu-selftest:
	$(Q)$(MAKE) --no-print-directory O=$(O)/pmu-selftest PMU_SELFTEST=1 all >/dev/null
	$(Q)d=$(O)/pmu-selftest; rc=0; \
	$(RUN_QEMU) --elf $$d/virt/wordmerge.elf --log $$d/run.log > $$d/run.out 2>&1 || rc=$$?; \
	if [ $$rc = 1 ] && grep -q '^PMU: VERDICT: this platform traps' $$d/run.out && \
	   [ "$$(grep -c '^FAIL: [a-z-]*\[wordmerge\]: 0 of [0-9]* cases failed .*misaligned accesses counted' $$d/run.out)" = 4 ]; then \
		echo "PASS: simulated trap counts: 'traps' verdict and all 4 wordmerge groups failed, exit $$rc:"; \
		grep -E '^PMU: VERDICT|^FAIL: memcpy\[wordmerge\]' $$d/run.out; \
	else \
		echo "FAIL: simulated trap counts not handled as expected (run-qemu.sh exit $$rc, log $$d/run.out)"; exit 1; \
	fi
TESTS += test-pmu-selftest

# Every exit status README documents comes out of run-qemu.sh exactly.  0, 1
# and 2 after the banner: test-qemu, test-qemu-fault, test-trap; 3 after the
# banner: the dtb-* jobs of tests/cross.mk.  Here the paths before the image
# has read the device tree (so before it knows the finisher: a build-time
# fallback carries the status to QEMU), a trap inside the trap report (one
# line and status 2, not a recursion until the timeout), and run-qemu.sh's
# own statuses.
# One line a case: name | expected status | line the output must hold |
# how to run it (run-qemu.sh arguments after its common ones).
EXIT_DIR := $(O)/exit-status
$(EXIT_DIR)/deep.dtb: $(QEMU_DTB_DIR)/virt-smp1.dtb
	@mkdir -p $(@D)
	$(Q)cp $< $@.tmp && fdtput -c -p $@.tmp /d1/d2/d3/d4/d5/d6/d7/d8/d9/d10/d11/d12/d13/d14/d15/d16/d17 && mv $@.tmp $@
$(EXIT_DIR)/bad-name.dtb: $(QEMU_DTB_DIR)/virt-smp1.dtb tools/dtb-corrupt.py
	@mkdir -p $(@D)
	$(Q)python3 tools/dtb-corrupt.py $< $@.tmp fw-cfg@10100000 dma-coherent && mv $@.tmp $@
EXIT_CASES = \
  early-trap | 2 | ^TRAP: scause=0x2 .*<trap_selftest\+ | --elf $(EXIT_DIR)/trap2/virt/wordmerge.elf ;\
  nested-trap | 2 | ^TRAP: a trap inside the trap report or the exit path: scause=0x0*2 | --elf $(EXIT_DIR)/trap3/virt/wordmerge.elf ;\
  bad-tree | 3 | ^FAIL: device tree property name lies outside the strings block | --elf $(IMG).elf -- -dtb $(EXIT_DIR)/bad-name.dtb ;\
  timeout-deep-tree | 124 | ^BANNER: model | --timeout 6 --elf $(IMG).elf -- -dtb $(EXIT_DIR)/deep.dtb ;\
  no-exit-line | 125 | QEMU ended \(status 1\) without an EXIT: line | --elf $(IMG).elf -- -device no-such-device ;\
  own-error | 126 | error: --smp takes a number | --smp x --elf $(IMG).elf
.PHONY: test-exit-status
test-exit-status: $(IMG).elf $(EXIT_DIR)/deep.dtb $(EXIT_DIR)/bad-name.dtb
	$(Q)$(MAKE) --no-print-directory O=$(EXIT_DIR)/trap2 TRAP_SELFTEST=2 all >/dev/null
	$(Q)$(MAKE) --no-print-directory O=$(EXIT_DIR)/trap3 TRAP_SELFTEST=3 all >/dev/null
	$(Q)fail=0; echo '$(EXIT_CASES)' | tr ';' '\n' | while IFS='|' read -r name want line args; do \
		name=$$(echo $$name); want=$$(echo $$want); line=$$(echo "$$line" | sed 's/^ *//; s/ *$$//'); \
		rc=0; eval "O=$(O) ./run-qemu.sh --no-build --timeout 60 --log $(EXIT_DIR)/$$name.log $$args" \
			> $(EXIT_DIR)/$$name.out 2>&1 </dev/null || rc=$$?; \
		if [ "$$rc" = "$$want" ] && grep -Eq "$$line" $(EXIT_DIR)/$$name.out; then \
			echo "PASS: exit status $$want ($$name): $$(grep -Em1 "$$line" $(EXIT_DIR)/$$name.out)"; \
		else \
			echo "FAIL: $$name: run-qemu.sh exit $$rc, want $$want and a line matching '$$line' ($(EXIT_DIR)/$$name.out)"; \
			exit 1; \
		fi; \
	done
TESTS += test-exit-status
TEST_DEPS += device-tree-compiler

# The board boot flow (docs/boards.md), run for real: OpenSBI, Debian's
# S-mode U-Boot, boot.scr from a FAT partition, load + booti.  The image
# passes through it, and a broken memcpy's status 1 reaches QEMU through it.
.PHONY: test-uboot
test-uboot: $(IMG).elf
	$(Q)$(call fault_image,tail-off-by-one)
	$(Q)for kind in pass fault; do \
		elf=$(IMG).elf want=0 line='^SUMMARY: .* 0 failures'; \
		[ $$kind = fault ] && { elf=$(O)/fault-tail-off-by-one/virt/wordmerge.elf want=1 \
			line='^FAIL: memcpy\[wordmerge\] dst_off='; }; \
		out=$(O)/uboot-$$kind.out; rc=0; \
		$(RUN_QEMU) --via-uboot --elf $$elf --log $(O)/run/uboot-$$kind.log > $$out 2>&1 || rc=$$?; \
		if [ $$rc = $$want ] && grep -q '^Moving Image from 0x84000000 to 0x80200000' $$out && \
		   grep -Eq "$$line" $$out; then \
			echo "PASS: via U-Boot ($$kind): run-qemu.sh exit $$rc:"; \
			grep -Em2 "^Moving Image|$$line" $$out | sed 's/^/    /'; \
		else \
			echo "FAIL: via U-Boot ($$kind): run-qemu.sh exit $$rc, want $$want (output $$out)"; exit 1; \
		fi; \
	done
TESTS += test-uboot
TEST_DEPS += u-boot-qemu u-boot-tools fdisk dosfstools mtools

# A machine with Debian's gcc-multilib (which conflicts with every cross
# gcc) gets one clear instruction from the dependency step, not apt's
# refusal.  Simulated with a stand-in dpkg-query: nothing is installed.
.PHONY: test-deps-multilib
test-deps-multilib:
	$(Q)d=$(O)/deps-multilib; mkdir -p $$d/bin; \
	printf '%s\n' '#!/bin/sh' 'for a; do pkg=$$a; done' \
		'[ "$$pkg" = gcc-multilib ] && printf "install ok installed"; exit 0' > $$d/bin/dpkg-query; \
	chmod +x $$d/bin/dpkg-query; rc=0; \
	PATH=$$PWD/$$d/bin:$$PATH tools/deps.sh gcc-powerpc-linux-gnu > $$d/out 2>&1 || rc=$$?; \
	if [ $$rc = 1 ] && grep -q 'apt-get install gcc-12-multilib && apt-get remove gcc-multilib' $$d/out && \
	   ! grep -q 'installing missing' $$d/out; then \
		echo "PASS: gcc-multilib's conflict named before apt is asked:"; sed 's/^/    /' $$d/out; \
	else \
		echo "FAIL: gcc-multilib's conflict not reported as expected (exit $$rc, $$d/out)"; exit 1; \
	fi
TESTS += test-deps-multilib
