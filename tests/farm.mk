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
#   make farm-lava-run-bad    ... on the broken image: failed test cases
#   make farm-lava-run-uboot  lava-run executes the VisionFive 2 job (tftp,
#                             u-boot, booti) with QEMU + U-Boot as the board
#
# Debian's labgrid and LAVA import only under /usr/bin/python3.  lava-common
# has the job schema; lava-dispatcher has lava-run (measured on this
# machine: 36 s to install python3-labgrid and lava-common, 70 s more for
# lava-dispatcher with --no-install-recommends).
# u-boot-qemu: the S-mode U-Boot that plays a board's in farm-labgrid-uboot
# and farm-lava-run-uboot; tftpd-hpa: LAVA's tftp deploy takes its folder
# (/srv/tftp) from /etc/default/tftpd-hpa, as on a LAVA worker (the daemon
# itself is not used: QEMU's user network serves TFTP).

FARM_PY := /usr/bin/python3
# No __pycache__ in farm/.
farm-%: export PYTHONDONTWRITEBYTECODE := 1
FARM := $(O)/farm
# Bounds: the image runs about 40 s on QEMU (a bit more with three at once
# on two cores); each tool has its own timeout inside, this is the backstop.
FARM_TIMEOUT := timeout -k 10 420
FARM_FAULT := $(FARM)/fault-tail-off-by-one
FARM_FAULT_ELF := $(FARM_FAULT)/virt/wordmerge.elf
comma := ,
FARM_LAVA_JOBS := $(wildcard farm/lava/*.yaml)
FARM_LG_ENVS := $(wildcard farm/labgrid/*.yaml)

# labgrid's pytest on the QEMU environment: $(1) the ELF, $(2) a name.
farm_pytest = LG_IMAGE=$(abspath $(1)) $(FARM_TIMEOUT) $(FARM_PY) -m pytest \
	farm/labgrid --lg-env farm/labgrid/$(or $(3),qemu-virt).yaml -rfEs \
	--wordmerge-log $(FARM)/labgrid-$(2).log --junitxml=$(FARM)/labgrid-$(2).xml \
	> $(FARM)/labgrid-$(2).out 2>&1

.PHONY: farm-test farm-images farm-labgrid farm-labgrid-good farm-labgrid-bad farm-labgrid-uboot \
	farm-labgrid-envs farm-lava-validate farm-lava-run farm-lava-run-bad farm-lava-run-uboot

# The images first (one make at a time in $(O)), then the six QEMU runs at
# once, then the quick checks.
farm-test: farm-images
	$(Q)$(MAKE) --no-print-directory -j6 --output-sync=target \
		farm-labgrid-good farm-labgrid-bad farm-labgrid-uboot \
		farm-lava-run farm-lava-run-bad farm-lava-run-uboot
	$(Q)$(MAKE) --no-print-directory farm-labgrid-envs farm-lava-validate

# The image, and the broken one as tests.cfg's qemu-fault builds it (a memcpy
# whose tail is one byte short).
farm-images: $(IMG).elf $(IMG).bin
	$(Q)mkdir -p $(FARM)
	$(Q)$(MAKE) --no-print-directory O=$(FARM_FAULT) FAULT=tail-off-by-one all >/dev/null

farm-labgrid: farm-images
	$(Q)$(MAKE) --no-print-directory -j3 --output-sync=target \
		farm-labgrid-good farm-labgrid-bad farm-labgrid-uboot

# The good image: every test passes (test_cycles too: the closing benchmark's lines).
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
	$(Q)tools/apply-fault.sh tests/faults.txt labgrid-misspelt-driver $(FARM)/broken-env.yaml
	$(Q)rc=0; LG_IMAGE=$(abspath $(IMG).elf) LG_TFTP_DIR=$(abspath $(FARM)/tftp) $(FARM_PY) farm/labgrid/check-envs.py \
		$(FARM)/broken-env.yaml > $(FARM)/broken-env.out 2>&1 || rc=$$?; \
	if [ $$rc = 1 ] && grep -q "^FAIL: .*UBootDrvier" $(FARM)/broken-env.out; then \
		echo "PASS: a misspelt driver is refused:"; cut -c1-160 $(FARM)/broken-env.out | sed 's/^/    /'; \
	else cat $(FARM)/broken-env.out; echo "FAIL: a broken labgrid environment was not refused"; exit 1; fi

# $(call farm_lava_local,JOB,IMAGE,DEVICE_TYPE): farm/lava/JOB.yaml with the
# image as a file:// url and the device type of farm/lava/devices/.
farm_lava_local = sed -e "s|url: https://lab.example.org/wordmerge/.*|url: file://$(abspath $(2))|" \
	-e "s|^device_type: .*|device_type: $(3)|" farm/lava/$(1).yaml

# $(call farm_lava_run,JOB,IMAGE,DEVICE,DEVICE_TYPE[,FAILED[,NAME]]): lava-run
# executes it; the job must pass with 12 wordmerge cases, those in FAILED
# (comma-separated) failed and the others passed, the PMU verdict a skip.
farm_lava_run = mkdir -p $(FARM)/lava && $(call farm_lava_local,$(1),$(2),$(4)) > $(FARM)/lava/$(or $(6),$(1))-run.yaml && \
	rm -rf $(FARM)/lava/out-$(or $(6),$(1)) && rc=0 && { $(FARM_TIMEOUT) lava-run --job-id wm-$(or $(6),$(1))-$$$$ \
		--output-dir $(FARM)/lava/out-$(or $(6),$(1)) --device farm/lava/devices/$(3).yaml \
		--dispatcher farm/lava/devices/dispatcher-qemu.yaml $(FARM)/lava/$(or $(6),$(1))-run.yaml \
		> $(FARM)/lava/run-$(or $(6),$(1)).log 2>&1 || rc=$$?; } && \
	rm -rf /srv/tftp/wm-$(or $(6),$(1))-$$$$ /var/lib/lava/dispatcher/tmp/wm-$(or $(6),$(1))-$$$$ && \
	if [ $$rc = 0 ] && farm/lava/check-results.py $(FARM)/lava/run-$(or $(6),$(1)).log --cases 12 --verdict skip \
		--failed '$(5)' --what "lava-run of farm/lava/$(1).yaml on farm/lava/devices/$(3).yaml$(if $(5), with the broken memcpy)"; then :; \
	else tail -n 30 $(FARM)/lava/run-$(or $(6),$(1)).log | cut -c1-300; \
		echo "FAIL: lava-run of farm/lava/$(1).yaml (exit $$rc, log $(FARM)/lava/run-$(or $(6),$(1)).log)"; exit 1; fi

# LAVA's job schema (lava-common, what lava-server checks on submission) for
# every job; lava-run --validate (the dispatcher's own pipeline check) for
# every job with a device of farm/lava/devices/ (the boards' jobs with the
# QEMU + U-Boot one); and a job without its monitor's end string must be
# refused.
farm-lava-validate:
	$(Q)mkdir -p $(FARM)/lava
	$(Q)$(FARM_PY) farm/lava/validate.py $(FARM_LAVA_JOBS)
	$(Q)tools/apply-fault.sh tests/faults.txt lava-no-end-string $(FARM)/lava/broken.yaml
	$(Q)rc=0; $(FARM_PY) farm/lava/validate.py $(FARM)/lava/broken.yaml > $(FARM)/lava/broken.out 2>&1 || rc=$$?; \
	if [ $$rc = 1 ] && grep -q "required key not provided .*'end'" $(FARM)/lava/broken.out; then \
		echo "PASS: a job without its monitor's end string is refused:"; cut -c1-200 $(FARM)/lava/broken.out | sed 's/^/    /'; \
	else cat $(FARM)/lava/broken.out; echo "FAIL: a broken LAVA job passed the validator"; exit 1; fi
	$(Q)$(call farm_lava_local,qemu-virt,$(IMG).elf,qemu) > $(FARM)/lava/qemu-virt-local.yaml
	$(Q)$(call farm_lava_local,visionfive2,$(IMG).bin,uboot-qemu-riscv64) > $(FARM)/lava/visionfive2-local.yaml
	$(Q)$(call farm_lava_local,unmatched,$(IMG).bin,uboot-qemu-riscv64) > $(FARM)/lava/unmatched-local.yaml
	$(Q)for j in qemu-virt:qemu-riscv64 visionfive2:uboot-qemu-riscv64 unmatched:uboot-qemu-riscv64; do \
		job=$${j%%:*} dev=$${j#*:}; rc=0; \
		timeout -k 5 60 lava-run --validate --job-id wm-validate-$$$$ --output-dir $(FARM)/lava/validate \
			--device farm/lava/devices/$$dev.yaml --dispatcher farm/lava/devices/dispatcher-qemu.yaml \
			$(FARM)/lava/$$job-local.yaml > $(FARM)/lava/validate-$$job.log 2>&1 || rc=$$?; \
		if [ $$rc = 0 ] && grep -q '"case": "validate", "definition": "lava", "result": "pass"' $(FARM)/lava/validate-$$job.log; then \
			echo "PASS: lava-run --validate: farm/lava/$$job.yaml on farm/lava/devices/$$dev.yaml"; \
		else tail -n 20 $(FARM)/lava/validate-$$job.log | cut -c1-300; \
			echo "FAIL: lava-run --validate of farm/lava/$$job.yaml (exit $$rc)"; exit 1; fi; \
	done; \
	rm -rf /srv/tftp/wm-validate-$$$$ /var/lib/lava/dispatcher/tmp/wm-validate-$$$$

# lava-run runs the QEMU job here, the image given as a file:// url: one
# LAVA test case per check group, all pass, the PMU verdict a skip (QEMU
# does not trap).  The job's own timeouts bound it, and timeout.
farm-lava-run: $(IMG).elf
	$(Q)$(call farm_lava_run,qemu-virt,$(IMG).elf,qemu-riscv64,qemu)

# The QEMU job on the broken memcpy: the three groups that use its tail are
# failed LAVA test cases, the nine others pass (a failed case does not fail
# a LAVA job).
farm-lava-run-bad: farm-images
	$(Q)$(call farm_lava_run,qemu-virt,$(FARM_FAULT_ELF),qemu-riscv64,qemu,memcpy_wordmerge_$(comma)memmove_wordmerge_$(comma)memmove_overlap_wordmerge_,qemu-virt-bad)

# The VisionFive 2 job as it is (tftp deploy, its U-Boot commands, booti),
# only its device_type and url changed, with QEMU + U-Boot as the board
# (farm/lava/devices/uboot-qemu-riscv64.yaml).
farm-lava-run-uboot: $(IMG).bin
	$(Q)mkdir -p /srv/tftp
	$(Q)$(call farm_lava_run,visionfive2,$(IMG).bin,uboot-qemu-riscv64,uboot-qemu-riscv64)
