# SPDX-License-Identifier: MIT
# Our QEMU TCG plugin (tools/plugin.c: mode=misalign, its table tools/report.py
# misalign; mode=trace, the cycle model's trace, tests/cycles.mk; the guests
# that test it: tests/build.mk).  Included by the top Makefile.
#
#   make plugin                  $(O)/tools/plugin.so (run-qemu.sh
#                                --check-alignment builds it when missing)

PLUGIN_SO := $(O)/tools/plugin.so

.PHONY: plugin
plugin: $(PLUGIN_SO)

$(PLUGIN_SO): tools/plugin.c
	@mkdir -p $(@D)
	$(quiet) HOSTCC $@
	$(Q)gcc -shared -fPIC -O2 -Wall -Wextra -Werror -o $@ $< -lpthread
