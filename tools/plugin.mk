# SPDX-License-Identifier: MIT
# The misaligned-access QEMU TCG plugin (tools/misalign-plugin.c, its table:
# tools/report.py misalign) and the hand-written M-mode guest that tests it
# (tests/plugin-selftest/: on 4 harts, each makes one misaligned load and
# store in misalign_control and only aligned accesses elsewhere; the tests
# plugin-selftest* of tests/tests.cfg run it).  Included by the top Makefile.
#
#   make misalign-plugin         $(O)/tools/misalign.so (run-qemu.sh
#                                --check-alignment builds it when missing)
#   make plugin-selftest-guest   $(O)/plugin-selftest/selftest.elf

MISALIGN_PLUGIN := $(O)/tools/misalign.so
MISALIGN_ST_ELF := $(O)/plugin-selftest/selftest.elf
MISALIGN_ST_SRCS := tests/plugin-selftest/start.S tests/plugin-selftest/selftest.c

.PHONY: misalign-plugin plugin-selftest-guest
misalign-plugin: $(MISALIGN_PLUGIN)
plugin-selftest-guest: $(MISALIGN_ST_ELF)

# Every plugin of ours (misalign.so, and trace.so of tests/cycles.mk) alike.
$(O)/tools/%.so: tools/%-plugin.c tools/qemu-plugin-api.h
	@mkdir -p $(@D)
	$(quiet) HOSTCC $@
	$(Q)gcc -shared -fPIC -O2 -Wall -Wextra -Werror -o $@ $< -lpthread

$(MISALIGN_ST_ELF): $(MISALIGN_ST_SRCS) tests/plugin-selftest/link.ld
	@mkdir -p $(@D)
	$(quiet) CC $@
	$(Q)$(CC) -march=rv64imac_zicsr -mabi=lp64 -mcmodel=medany -ffreestanding \
		-fno-builtin -nostdlib -nostartfiles -O2 -g -Wall -Wextra -Werror \
		-DSELFTEST_HARTS=4 -Wl,--no-warn-rwx-segments -T tests/plugin-selftest/link.ld \
		-o $@ $(MISALIGN_ST_SRCS)
