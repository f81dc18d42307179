# tools/plugin.mk - misaligned-access QEMU TCG plugin + its selftest.
#
# Include from the top Makefile (which defines O ?= build):
#     include tools/plugin.mk
#
# Provides:
#   $(MISALIGN_PLUGIN)     build rule for $(O)/tools/misalign.so (host gcc)
#   misalign-plugin        phony alias that builds $(MISALIGN_PLUGIN)
#   plugin-selftest        builds a tiny M-mode guest, runs it under QEMU with
#                          the plugin (-smp 4) and checks the report
#   $(call misalign_plugin_arg,RAWFILE)
#                          -> -plugin file=$(MISALIGN_PLUGIN),out=RAWFILE
#   $(MISALIGN_TABLE)      the table tool, run it as
#                          $(MISALIGN_TABLE) RAW ELF --require misalign_control \
#                              --fail-in 'memcpy,memmove,memset,wm_*'
# The tool/flag variables (MISALIGN_HOSTCC, _CFLAGS, _CROSS, _QEMU, _PYTHON,
# _TIMEOUT, MISALIGN_ST_HARTS) are ?= so the top Makefile may override them;
# MISALIGN_CROSS defaults to $(CROSS_COMPILE) when that is set.
# Include this file after O is defined: rule targets use $(O) immediately.
# Q and quiet come from the top Makefile (V=1 prints every command, else a
# short "  TAG target" line); on their own the recipes print every command.

MISALIGN_TOOLS_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
ifeq ($(strip $(O)),)
$(error tools/plugin.mk: define O (e.g. O ?= build) before including me)
endif

MISALIGN_HOSTCC   ?= gcc
MISALIGN_CFLAGS   ?= -O2 -Wall -Wextra -Werror
MISALIGN_CROSS    ?= $(or $(CROSS_COMPILE),riscv64-unknown-elf-)
MISALIGN_QEMU     ?= qemu-system-riscv64
MISALIGN_PYTHON   ?= python3
MISALIGN_TIMEOUT  ?= timeout 60
# Verbose unless the includer says otherwise (the top Makefile does).
Q                 ?=
quiet             ?= @:

MISALIGN_PLUGIN   := $(O)/tools/misalign.so
MISALIGN_TABLE    := $(MISALIGN_PYTHON) $(MISALIGN_TOOLS_DIR)/misalign-table.py

misalign_plugin_arg = -plugin file=$(MISALIGN_PLUGIN),out=$(1)

$(MISALIGN_PLUGIN): $(MISALIGN_TOOLS_DIR)/misalign-plugin.c \
                    $(MISALIGN_TOOLS_DIR)/qemu-plugin-api.h \
                    $(MISALIGN_TOOLS_DIR)/plugin.mk
	@mkdir -p $(@D)
	$(quiet) HOSTCC $@
	$(Q)$(MISALIGN_HOSTCC) -shared -fPIC $(MISALIGN_CFLAGS) -o $@ $< -lpthread

.PHONY: misalign-plugin plugin-selftest
misalign-plugin: $(MISALIGN_PLUGIN)

# ---- selftest guest ------------------------------------------------------
MISALIGN_ST_SRC   := $(MISALIGN_TOOLS_DIR)/plugin-selftest
MISALIGN_ST_OUT   := $(O)/tools/plugin-selftest
MISALIGN_ST_HARTS ?= 4
MISALIGN_ST_ELF   := $(MISALIGN_ST_OUT)/selftest-smp$(MISALIGN_ST_HARTS).elf
MISALIGN_ST_RAW   := $(MISALIGN_ST_OUT)/misalign.raw
MISALIGN_ST_TABLE := $(MISALIGN_ST_OUT)/table.txt
MISALIGN_ST_FLAGS := -march=rv64imac_zicsr -mabi=lp64 -mcmodel=medany \
                     -ffreestanding -fno-builtin -nostdlib -nostartfiles \
                     -O2 -g -Wall -Wextra -Werror \
                     -DSELFTEST_HARTS=$(MISALIGN_ST_HARTS) \
                     -Wl,--no-warn-rwx-segments

$(MISALIGN_ST_ELF): $(MISALIGN_ST_SRC)/start.S $(MISALIGN_ST_SRC)/selftest.c \
                    $(MISALIGN_ST_SRC)/link.ld $(MISALIGN_TOOLS_DIR)/plugin.mk
	@mkdir -p $(@D)
	$(quiet) CC $@
	$(Q)$(MISALIGN_CROSS)gcc $(MISALIGN_ST_FLAGS) -T $(MISALIGN_ST_SRC)/link.ld \
	    -o $@ $(MISALIGN_ST_SRC)/start.S $(MISALIGN_ST_SRC)/selftest.c

# Expected: misalign_control holds 1 lw + 1 sd per hart, nothing else is
# misaligned, aligned_accesses has zero, and the plugin checked > 0 accesses.
plugin-selftest: $(MISALIGN_PLUGIN) $(MISALIGN_ST_ELF)
	@rm -f $(MISALIGN_ST_RAW) $(MISALIGN_ST_TABLE)
	$(quiet) QEMU "$(MISALIGN_ST_ELF) -smp $(MISALIGN_ST_HARTS) (plugin)"
	$(Q)$(MISALIGN_TIMEOUT) $(MISALIGN_QEMU) -M virt -bios none -nographic \
	    -smp $(MISALIGN_ST_HARTS) -kernel $(MISALIGN_ST_ELF) \
	    $(call misalign_plugin_arg,$(MISALIGN_ST_RAW))
	$(quiet) TABLE $(MISALIGN_ST_TABLE)
	$(Q)$(MISALIGN_TABLE) $(MISALIGN_ST_RAW) $(MISALIGN_ST_ELF) \
	    --require misalign_control --fail-in aligned_accesses \
	    >$(MISALIGN_ST_TABLE); st=$$?; cat $(MISALIGN_ST_TABLE); exit $$st
	@n=$(MISALIGN_ST_HARTS); \
	grep -Eq "^MISALIGNED: misalign_control +$$n +$$n " $(MISALIGN_ST_TABLE) \
	    || { echo "FAIL: want $$n loads + $$n stores in misalign_control"; \
	         exit 1; }; \
	grep -q "^MISALIGNED-TOTAL: $$((n * 2)) accesses at 2 sites" \
	    $(MISALIGN_ST_TABLE) \
	    || { echo "FAIL: misaligned accesses outside misalign_control"; \
	         exit 1; }; \
	grep -Eq '^# end .*checked=[1-9]' $(MISALIGN_ST_RAW) \
	    || { echo "FAIL: plugin checked no data accesses at all"; exit 1; }; \
	if $(MISALIGN_TABLE) $(MISALIGN_ST_RAW) $(MISALIGN_ST_ELF) \
	    --fail-in misalign_control >/dev/null; then \
	    echo "FAIL: --fail-in did not trip on the control"; exit 1; fi
	@echo "PASS: plugin-selftest"
