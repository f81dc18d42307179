# SPDX-License-Identifier: MIT
# Boots of the image on QEMU (through run-qemu.sh, which checks the EXIT:
# line against QEMU's exit status).  Included by the top Makefile.

RUN_QEMU := ./run-qemu.sh --no-build --timeout 300

# The image passes on 1 and on 4 harts (secondary harts parked).
.PHONY: test-qemu
test-qemu: $(IMG).elf
	$(Q)for n in 1 4; do \
		$(RUN_QEMU) --smp $$n > $(O)/run-smp$$n.out 2>&1 || \
			{ cat $(O)/run-smp$$n.out; echo "FAIL: image on virt -smp $$n"; exit 1; }; \
		grep -E '^(BANNER|SUMMARY|EXIT):' $(O)/run-smp$$n.out; \
		echo "PASS: image on virt -smp $$n"; \
	done
TESTS += test-qemu

# A broken memcpy makes the image fail, print the case, and QEMU exit 1.
FAULT_IMG_O := $(O)/fault-image
.PHONY: test-qemu-fault
test-qemu-fault:
	$(Q)mkdir -p $(FAULT_IMG_O)
	$(Q)sed -e '0,/^\twhile (n--)$$/s//\twhile (n-- > 1)/' lib/wordmerge.c > $(FAULT_IMG_O)/wordmerge.c
	$(Q)$(MAKE) --no-print-directory O=$(FAULT_IMG_O) LIB_SRC=$(FAULT_IMG_O)/wordmerge.c all >/dev/null
	$(Q)rc=0; $(RUN_QEMU) --elf $(FAULT_IMG_O)/virt/wordmerge.elf --log $(FAULT_IMG_O)/run.log \
		> $(FAULT_IMG_O)/run.out 2>&1 || rc=$$?; \
	if [ $$rc = 1 ] && grep -q '^FAIL: memcpy\[wordmerge\] dst_off=' $(FAULT_IMG_O)/run.out; then \
		echo "PASS: broken memcpy caught in the image, run-qemu.sh exit $$rc:"; \
		grep -m1 '^FAIL: memcpy' $(FAULT_IMG_O)/run.out; \
	else \
		echo "FAIL: broken memcpy not reported (run-qemu.sh exit $$rc, log $(FAULT_IMG_O)/run.out)"; exit 1; \
	fi
TESTS += test-qemu-fault
