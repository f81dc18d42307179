# SPDX-License-Identifier: MIT
# Fuzzing the image's device tree reader on the host (issue 9): clang's
# libFuzzer with AddressSanitizer and UndefinedBehaviorSanitizer, seeded
# with the trees QEMU gives the image (virt at 1, 4 and 8 harts, sifive_u),
# re-encoded by dtc without QEMU's padding.  Included by the top Makefile.
#
#   make fuzz [FUZZ_TIME=600]   a long run; findings land in $(O)/fuzz/
#   test-fuzz-fdt               a bounded run (FUZZ_RUNS inputs), in make test

FUZZ_DIR := $(O)/fuzz
FUZZ_BIN := $(FUZZ_DIR)/fuzz_fdt
FUZZ_RUNS ?= 300000
FUZZ_TIME ?= 600
FUZZ_SEEDS := $(addprefix $(FUZZ_DIR)/seeds/,virt-smp1.dtb virt-smp4.dtb virt-smp8.dtb sifive_u.dtb)

$(FUZZ_BIN): tests/fuzz_fdt.c firmware/fdt.c firmware/firmware.h tests/fuzz.mk
	@mkdir -p $(@D)
	$(quiet) HOSTCC $@
	$(Q)clang -g -O1 -Wall -Wextra -Werror -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all -o $@ tests/fuzz_fdt.c firmware/fdt.c

$(FUZZ_DIR)/seeds/%.dtb: $(QEMU_DTB_DIR)/%.dtb
	@mkdir -p $(@D)
	$(Q)dtc -q -I dtb -O dtb -o $@.tmp $< && mv $@.tmp $@

# libFuzzer adds what it learns to the corpus folder; the seeds stay as
# they are.  A finding stops the run with its input in $(FUZZ_DIR)/.
fuzz_run = rm -rf $(FUZZ_DIR)/corpus && mkdir -p $(FUZZ_DIR)/corpus && \
	$(FUZZ_BIN) -artifact_prefix=$(FUZZ_DIR)/ $(1) $(FUZZ_DIR)/corpus $(FUZZ_DIR)/seeds

.PHONY: fuzz test-fuzz-fdt
fuzz: $(FUZZ_BIN) $(FUZZ_SEEDS)
	$(Q)$(call fuzz_run,-max_total_time=$(FUZZ_TIME))

test-fuzz-fdt: $(FUZZ_BIN) $(FUZZ_SEEDS)
	$(Q)$(call fuzz_run,-runs=$(FUZZ_RUNS)) > $(FUZZ_DIR)/run.log 2>&1 || \
		{ tail -n 30 $(FUZZ_DIR)/run.log; echo "FAIL: the device tree reader failed under the fuzzer (input in $(FUZZ_DIR)/)"; exit 1; }
	$(Q)echo "PASS: device tree reader: $$(grep -Eo 'Done [0-9]+ runs in [0-9]+ second' $(FUZZ_DIR)/run.log | head -n 1)s, no finding ($(FUZZ_DIR)/run.log)"
TESTS += test-fuzz-fdt
TEST_DEPS += clang libclang-rt-14-dev device-tree-compiler

# What the reader finds in QEMU's own trees, checked against what they hold:
# the harts that can run the image (sifive_u's E51 monitor hart has no MMU
# and does not count), timebase, memory and finisher.  One line a tree:
# tree | the line fdt_host must print.
FDT_HOST := $(FUZZ_DIR)/fdt_host
FDT_CASES = \
  virt-smp1 | model "riscv-virtio,qemu" harts 1 timebase 10000000 memory 0x80000000+0x10000000 finisher 0x100000 ;\
  virt-smp4 | model "riscv-virtio,qemu" harts 4 timebase 10000000 memory 0x80000000+0x10000000 finisher 0x100000 ;\
  sifive_u | model "SiFive HiFive Unleashed A00" harts 4 timebase 1000000 memory 0x80000000+0x10000000 finisher none 0x0
$(FDT_HOST): tests/fdt_host.c firmware/fdt.c firmware/firmware.h tests/fuzz.mk
	@mkdir -p $(@D)
	$(quiet) HOSTCC $@
	$(Q)gcc -O2 -Wall -Wextra -Werror -o $@ tests/fdt_host.c firmware/fdt.c
.PHONY: test-fdt-host
test-fdt-host: $(FDT_HOST) $(addprefix $(QEMU_DTB_DIR)/,virt-smp1.dtb virt-smp4.dtb sifive_u.dtb)
	$(Q)echo '$(FDT_CASES)' | tr ';' '\n' | while IFS='|' read -r tree want; do \
		tree=$$(echo $$tree); want=$$(echo "$$want" | sed 's/^ *//; s/ *$$//'); \
		got=$$($(FDT_HOST) $(QEMU_DTB_DIR)/$$tree.dtb); \
		if [ "$$got" = "$$want" ]; then echo "PASS: device tree reader on QEMU's $$tree: $$got"; \
		else echo "FAIL: device tree reader on QEMU's $$tree: got '$$got', want '$$want'"; exit 1; fi; \
	done
TESTS += test-fdt-host
