# SPDX-License-Identifier: MIT
# Our QEMU TCG plugin (tools/plugin.c: mode=misalign, its table tools/report.py
# misalign; mode=trace, the cycle model's trace, tests/cycles.mk) and the
# hand-written M-mode guest that tests its misalign mode (tests/plugin-selftest/:
# on 4 harts, each makes one misaligned load and store in misalign_control and
# only aligned accesses elsewhere; the tests plugin-selftest* of tests/tests.cfg
# run it).  Included by the top Makefile.
#
#   make plugin                  $(O)/tools/plugin.so (run-qemu.sh
#                                --check-alignment builds it when missing)
#   make plugin-selftest-guest   $(O)/plugin-selftest/selftest.elf

PLUGIN_SO := $(O)/tools/plugin.so
MISALIGN_ST_ELF := $(O)/plugin-selftest/selftest.elf
MISALIGN_ST_SRCS := tests/plugin-selftest/start.S tests/plugin-selftest/selftest.c

.PHONY: plugin plugin-selftest-guest
plugin: $(PLUGIN_SO)
plugin-selftest-guest: $(MISALIGN_ST_ELF)

$(PLUGIN_SO): tools/plugin.c
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
