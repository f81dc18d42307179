# SPDX-License-Identifier: MIT
# The board-farm glue (farm/, docs/farms.md): labgrid and LAVA, from Debian's
# packages, run for real on QEMU.  Included by the top Makefile.
#
#   make farm-test            all of the below (in make test)
#   make farm-labgrid         labgrid + pytest on QEMU: the image passes, a
#                             broken image gives failed tests; and the boards'
#                             path (U-Boot, TFTP, booti) with QEMU as the board
#   make farm-labgrid-envs    labgrid loads every environment (boards too)
#   make farm-lava-validate   every LAVA job passes LAVA's validators, a
#                             broken one fails
#   make farm-lava-run        lava-run executes the QEMU job on this machine
#
# Debian's labgrid and LAVA import only under /usr/bin/python3.  lava-common
# has the job schema; lava-dispatcher has lava-run (measured on this
# machine: 36 s to install python3-labgrid and lava-common, 70 s more for
# lava-dispatcher with --no-install-recommends).
# u-boot-qemu: the S-mode U-Boot that plays a board's in farm-labgrid-uboot.
TEST_DEPS += python3-labgrid lava-common lava-dispatcher u-boot-qemu
TESTS += farm-test

FARM_PY := /usr/bin/python3
# No __pycache__ in farm/.
farm-%: export PYTHONDONTWRITEBYTECODE := 1
FARM := $(O)/farm
# Bounds: the image runs about 40 s on QEMU (a bit more with three at once
# on two cores); each tool has its own timeout inside, this is the backstop.
FARM_TIMEOUT := timeout -k 10 420
FARM_FAULT := $(FARM)/fault-tail-off-by-one
FARM_FAULT_ELF := $(FARM_FAULT)/virt/wordmerge.elf
FARM_LAVA_JOBS := $(wildcard farm/lava/*.yaml)
FARM_LG_ENVS := $(wildcard farm/labgrid/*.yaml)

# labgrid's pytest on the QEMU environment: $(1) the ELF, $(2) a name.
farm_pytest = LG_IMAGE=$(abspath $(1)) $(FARM_TIMEOUT) $(FARM_PY) -m pytest \
	farm/labgrid --lg-env farm/labgrid/$(or $(3),qemu-virt).yaml -rfEs \
	--wordmerge-log $(FARM)/labgrid-$(2).log --junitxml=$(FARM)/labgrid-$(2).xml \
	> $(FARM)/labgrid-$(2).out 2>&1

.PHONY: farm-test farm-images farm-labgrid farm-labgrid-good farm-labgrid-bad farm-labgrid-uboot \
	farm-labgrid-envs farm-lava-validate farm-lava-run

# The images first (one make at a time in $(O)), then the four QEMU runs at
# once, then the quick checks.
farm-test: farm-images
	$(Q)$(MAKE) --no-print-directory -j4 --output-sync=target \
		farm-labgrid-good farm-labgrid-bad farm-labgrid-uboot farm-lava-run
	$(Q)$(MAKE) --no-print-directory farm-labgrid-envs farm-lava-validate

# The image, and the broken one as test-qemu-fault builds it (a memcpy
# whose tail is one byte short).
farm-images: $(IMG).elf $(IMG).bin
	$(Q)mkdir -p $(FARM)
	$(Q)tools/apply-fault.sh tests/faults.txt tail-off-by-one $(FARM_FAULT)/wordmerge.c
	$(Q)$(MAKE) --no-print-directory O=$(FARM_FAULT) LIB_SRC=$(FARM_FAULT)/wordmerge.c all >/dev/null

farm-labgrid: farm-images
	$(Q)$(MAKE) --no-print-directory -j3 --output-sync=target \
		farm-labgrid-good farm-labgrid-bad farm-labgrid-uboot

# The good image: every test passes (test_cycles skips: no cycle lines).
farm-labgrid-good:
	$(Q)mkdir -p $(FARM); rc=0; $(call farm_pytest,$(IMG).elf,good) || rc=$$?; \
	if [ $$rc = 0 ] && farm/labgrid/check-junit.py $(FARM)/labgrid-good.xml --groups 12 \
		--what "labgrid pytest on QEMU virt, good image"; then \
		tail -n 1 $(FARM)/labgrid-good.out | sed 's/^/    /'; \
	else \
		cat $(FARM)/labgrid-good.out; echo "FAIL: labgrid pytest on QEMU virt, good image (pytest exit $$rc)"; exit 1; \
	fi

# The broken memcpy: pytest fails (exit 1) with exactly the three groups
# that use it and the exit status, the case named in the message.
FARM_BAD_FAILED := test_group[memcpy[wordmerge]],test_group[memmove[wordmerge]],test_group[memmove-overlap[wordmerge]],test_exit_status
farm-labgrid-bad:
	$(Q)mkdir -p $(FARM); rc=0; $(call farm_pytest,$(FARM_FAULT_ELF),bad) || rc=$$?; \
	if [ $$rc = 1 ] && farm/labgrid/check-junit.py $(FARM)/labgrid-bad.xml --groups 12 \
		--failed '$(FARM_BAD_FAILED)' \
		--text 'FAIL: memcpy[wordmerge] dst_off=0 src_off=0 len=9: byte at dst+8 expected' \
		--what "labgrid pytest on QEMU virt, broken memcpy: failed tests as expected"; then \
		grep -E '^(FAILED|[=]+ .*(passed|failed))' $(FARM)/labgrid-bad.out | cut -c1-160 | sed 's/^/    /'; \
	else \
		cat $(FARM)/labgrid-bad.out; echo "FAIL: labgrid pytest on QEMU virt, broken memcpy (pytest exit $$rc, expected 1)"; exit 1; \
	fi

# The boards' path of the pytest module (power-cycle, U-Boot's autoboot
# stopped, the image staged for TFTP, dhcp, tftpboot, booti, the console
# read) with QEMU as the board: Debian's S-mode U-Boot as QEMU's -kernel,
# QEMU's user network as DHCP and TFTP server (uboot-qemu.yaml).
farm-labgrid-uboot: $(IMG).bin
	$(Q)rm -rf $(FARM)/tftp; mkdir -p $(FARM)/tftp; rc=0; \
	LG_TFTP_DIR=$(abspath $(FARM)/tftp) $(call farm_pytest,$(IMG).bin,uboot,uboot-qemu) || rc=$$?; \
	if [ $$rc = 0 ] && farm/labgrid/check-junit.py $(FARM)/labgrid-uboot.xml --groups 12 \
		--what "labgrid pytest, U-Boot + TFTP + booti on QEMU, good image"; then \
		tail -n 1 $(FARM)/labgrid-uboot.out | sed 's/^/    /'; \
	else \
		cat $(FARM)/labgrid-uboot.out; echo "FAIL: labgrid pytest, U-Boot + TFTP + booti on QEMU (pytest exit $$rc)"; exit 1; \
	fi

# Every environment loads in labgrid's own loader with its drivers bound
# (nothing activated: no serial port, no power); a misspelt driver fails.
farm-labgrid-envs:
	$(Q)mkdir -p $(FARM)
	$(Q)LG_IMAGE=$(abspath $(IMG).elf) LG_TFTP_DIR=$(abspath $(FARM)/tftp) $(FARM_PY) farm/labgrid/check-envs.py $(FARM_LG_ENVS)
	$(Q)sed 's/^      UBootDriver:/      UBootDrvier:/' farm/labgrid/visionfive2.yaml > $(FARM)/broken-env.yaml
	$(Q)rc=0; LG_IMAGE=$(abspath $(IMG).elf) LG_TFTP_DIR=$(abspath $(FARM)/tftp) $(FARM_PY) farm/labgrid/check-envs.py \
		$(FARM)/broken-env.yaml > $(FARM)/broken-env.out 2>&1 || rc=$$?; \
	if [ $$rc = 1 ] && grep -q "^FAIL: .*UBootDrvier" $(FARM)/broken-env.out; then \
		echo "PASS: a misspelt driver is refused:"; cut -c1-160 $(FARM)/broken-env.out | sed 's/^/    /'; \
	else cat $(FARM)/broken-env.out; echo "FAIL: a broken labgrid environment was not refused"; exit 1; fi

# LAVA's job schema (lava-common, what lava-server checks on submission) for
# every job; lava-run --validate (the dispatcher's own pipeline check) for
# the QEMU job with its device; and a job without its monitor's end string
# must be refused.
farm-lava-validate:
	$(Q)mkdir -p $(FARM)/lava
	$(Q)$(FARM_PY) farm/lava/validate.py $(FARM_LAVA_JOBS)
	$(Q)sed "/end: 'EXIT: STATUS='/d" farm/lava/qemu-virt.yaml > $(FARM)/lava/broken.yaml
	$(Q)rc=0; $(FARM_PY) farm/lava/validate.py $(FARM)/lava/broken.yaml > $(FARM)/lava/broken.out 2>&1 || rc=$$?; \
	if [ $$rc = 1 ] && grep -q "required key not provided .*'end'" $(FARM)/lava/broken.out; then \
		echo "PASS: a job without its monitor's end string is refused:"; cut -c1-200 $(FARM)/lava/broken.out | sed 's/^/    /'; \
	else cat $(FARM)/lava/broken.out; echo "FAIL: a broken LAVA job passed the validator"; exit 1; fi
	$(Q)sed "s|url: https://lab.example.org/wordmerge/virt/wordmerge.elf|url: file://$(abspath $(IMG).elf)|" \
		farm/lava/qemu-virt.yaml > $(FARM)/lava/qemu-virt-local.yaml
	$(Q)rc=0; timeout -k 5 60 lava-run --validate --job-id wm-validate-$$$$ --output-dir $(FARM)/lava/validate \
		--device farm/lava/devices/qemu-riscv64.yaml $(FARM)/lava/qemu-virt-local.yaml \
		> $(FARM)/lava/validate.log 2>&1 || rc=$$?; \
	if [ $$rc = 0 ] && grep -q '"case": "validate", "definition": "lava", "result": "pass"' $(FARM)/lava/validate.log; then \
		echo "PASS: lava-run --validate: farm/lava/qemu-virt.yaml on farm/lava/devices/qemu-riscv64.yaml"; \
	else tail -n 20 $(FARM)/lava/validate.log; echo "FAIL: lava-run --validate (exit $$rc)"; exit 1; fi

# lava-run runs the QEMU job here, the image given as a file:// url: one
# LAVA test case per check group, all pass, the PMU verdict a skip (QEMU
# does not trap).  The job's own timeouts bound it (10 min), and timeout.
farm-lava-run: $(IMG).elf
	$(Q)mkdir -p $(FARM)/lava
	$(Q)sed "s|url: https://lab.example.org/wordmerge/virt/wordmerge.elf|url: file://$(abspath $(IMG).elf)|" \
		farm/lava/qemu-virt.yaml > $(FARM)/lava/qemu-virt-run.yaml
	$(Q)rm -rf $(FARM)/lava/out; rc=0; $(FARM_TIMEOUT) lava-run --job-id wm-$$$$ --output-dir $(FARM)/lava/out \
		--device farm/lava/devices/qemu-riscv64.yaml $(FARM)/lava/qemu-virt-run.yaml \
		> $(FARM)/lava/run.log 2>&1 || rc=$$?; \
	if [ $$rc = 0 ] && farm/lava/check-results.py $(FARM)/lava/run.log --cases 12 --verdict skip; then :; \
	else tail -n 30 $(FARM)/lava/run.log | cut -c1-300; echo "FAIL: lava-run of farm/lava/qemu-virt.yaml (exit $$rc)"; exit 1; fi
