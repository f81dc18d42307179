# SPDX-License-Identifier: MIT
# Guard pages (issue 12): the suite places calls right against inaccessible
# pages (tests/suite.c: suite_set_guard), PROT_NONE pages on hosted targets
# (tests/host_main.c) and unmapped pages of the image's Sv39 map
# (firmware/mmu.c), so that a read past the source faults in any build, with
# no sanitizer.  This shows it can fail: lib with the read-past-source fault
# of tests/faults.txt (one word loaded past the source: the results stay
# right, only the read is wrong) must stop
#   - in the image on QEMU virt, on a load page fault at the guard page:
#     the trap report names the function and the suite's case, status 2;
#   - in the host suite built plain gcc -O2 (no sanitizer), on SIGSEGV;
#   - in the big-endian s390x suite under qemu-s390x-static, on SIGSEGV.
# Included by the top Makefile after tests/cross.mk (its job machinery).
#
#   make test-guard

GUARD_DIR := $(CROSS_DIR)/guard
GUARD_FAULT := read-past-source

$(GUARD_DIR)/wordmerge.c: lib/wordmerge.c tests/faults.txt tools/apply-fault.sh
	$(Q)tools/apply-fault.sh tests/faults.txt $(GUARD_FAULT) $@

# The image with the fault, in its own build folder.
$(GUARD_DIR)/img/virt/wordmerge.elf: $(GUARD_DIR)/wordmerge.c FORCE
	$(Q)$(MAKE) --no-print-directory O=$(GUARD_DIR)/img LIB_SRC=$(GUARD_DIR)/wordmerge.c PLATFORM=virt all >/dev/null

$(eval $(call cross_suite,guard-host,gcc,$(GUARD_DIR)/wordmerge.c))
$(eval $(call cross_suite,guard-be64,s390x-linux-gnu-gcc -static $(QEMU_USER_SUITE),$(GUARD_DIR)/wordmerge.c))

GUARD_CASE := during memcpy\[wordmerge\] guard: src ends at page-[0-9]+

job_deps_guard-img := $(GUARD_DIR)/img/virt/wordmerge.elf
job_cmd_guard-img := $(RUN_QEMU) --elf $(GUARD_DIR)/img/virt/wordmerge.elf --log $(JOB_DIR)/guard-img.log
job_rc_guard-img := 2
job_want_guard-img := ^TRAP: $(GUARD_CASE)
job_show_guard-img := ^(TRAP: scause=0xd \(load page fault\) sepc=0x[0-9a-f]+ <(memcpy|wm_[a-z_]+)\+0x[0-9a-f]+> stval=|MMU:|GUARD:)
job_desc_guard-img := image with lib fault $(GUARD_FAULT): a load page fault at the guard page names the case

job_deps_guard-host := $(CROSS_DIR)/guard-host/suite
job_cmd_guard-host := $(CROSS_DIR)/guard-host/suite
job_rc_guard-host := 2
job_want_guard-host := ^FAIL: SIGSEGV at address 0x[0-9a-f]+ $(GUARD_CASE)
job_desc_guard-host := host suite (gcc -O2, no sanitizer) with lib fault $(GUARD_FAULT): SIGSEGV at the PROT_NONE page

job_deps_guard-be64 := $(CROSS_DIR)/guard-be64/suite
job_cmd_guard-be64 := qemu-s390x-static $(CROSS_DIR)/guard-be64/suite
job_rc_guard-be64 := 2
job_want_guard-be64 := ^FAIL: SIGSEGV at address 0x[0-9a-f]+ $(GUARD_CASE)
job_desc_guard-be64 := s390x suite (qemu-s390x-static) with lib fault $(GUARD_FAULT): SIGSEGV at the PROT_NONE page

GUARD_JOBS := guard-img guard-host guard-be64
$(foreach j,$(GUARD_JOBS),$(eval $(JOB_DIR)/$(j).rc: $(job_deps_$(j))))

.PHONY: test-guard
test-guard:
	$(call run_jobs,$(GUARD_JOBS))
	$(Q)tr -d '\r' <$(JOB_DIR)/guard-img.out | grep -aEq '$(job_show_guard-img)' || \
		{ echo "FAIL: the image's trap report is not a load page fault in lib"; exit 1; }
TESTS += test-guard
