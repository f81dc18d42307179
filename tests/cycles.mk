# SPDX-License-Identifier: MIT
# The cycle model (tools/plugin.c mode=trace, tools/cycles.py).  Included by the
# top Makefile.
#
#   make cycles
#        builds the benchmark image in trace mode ($(O)/bench-trace/virt/:
#        the sweep's cells up to 64 KiB, one call each, and a few extra
#        cells), boots it on QEMU virt with -icount shift=0 under the trace
#        plugin, which records every instruction of every timed call, and
#        models each call on LLVM's SiFive U74 and U54 pipeline models
#        (llvm-mca 17 or later: tools/cycles.py llvm() picks it, tools/deps.sh
#        installs Debian's llvm-19).  Prints the table; the CSV is $(O)/cycles/cycles.csv
#        (format: docs/benchmarks.md), the image's log and the trace beside it.
#   make cycles-wordmerge
#        the same for wordmerge's cells only: $(O)/cycles/cycles-wordmerge.csv
#        (make bench-check uses it).
#   make cycles-compare BASE=REV
#        wordmerge's model with lib/wordmerge.c and .h as at git revision
#        REV (built with this tree's harness, in $(O)/cycles-base/) against
#        this tree's, cell by cell: how many cells got better or worse, the
#        totals, and every cell made worse (tools/report.py compare).  For a
#        lib change:
#        make cycles-compare BASE=HEAD before committing it.
#   CYCLES_TABLE=0: make the CSV, print no table (for callers such as
#   bench-check, whose own output shows the figures it checks).
#   Both also model lib as clang builds it (a sub-make with LIB_CC=clang:
#   its own trace image, log, trace and cycles-wordmerge-clang.csv), print
#   its columns beside GCC's and check it against GCC's build (cycles.py
#   compare --within CYCLES_CLANG_PCT: the totals and the 64 KiB cells).
#   CYCLES_CLANG=0: GCC's build only (make cycles-compare; the default with
#   LIB_SIZE=small or FAULT=).
#   With LIB_SIZE=small the image, log, trace and CSVs are the size-first
#   lib's, suffixed -small (with LIB_CC=clang, -clang after it).

CYCLES_SUFFIX := $(LIB_SUFFIX)
CYCLES_DIR := $(O)/cycles
# The trace-mode image, as the top Makefile names it for BENCH=trace.
CYCLES_ELF := $(O)/bench-trace/$(PLATFORM)$(CYCLES_SUFFIX)/wordmerge.elf
CYCLES_LOG := $(CYCLES_DIR)/trace$(CYCLES_SUFFIX).log
CYCLES_TRACE := $(CYCLES_DIR)/trace$(CYCLES_SUFFIX).trace
CYCLES_CSV := $(CYCLES_DIR)/cycles$(CYCLES_SUFFIX).csv
CYCLES_WM_CSV := $(CYCLES_DIR)/cycles-wordmerge$(CYCLES_SUFFIX).csv
CYCLES_PY := tools/cycles.py
CYCLES_MODEL = $(CYCLES_PY) model --elf $(CYCLES_ELF) --log $(CYCLES_LOG) \
	--trace $(CYCLES_TRACE)
CYCLES_TABLE ?= 1
# clang's model is of the speed-first lib, as it is (no FAULT=): the
# size-first build and the fault builds skip it, which keeps make test short.
CYCLES_CLANG ?= $(if $(or $(filter small,$(LIB_SIZE)),$(FAULT)),0,1)
# clang's build of lib may take at most this many per cent more modeled
# cycles than GCC's (make bench-check fails beyond).
CYCLES_CLANG_PCT := 10
CYCLES_WM_CSV_CLANG := $(CYCLES_DIR)/cycles-wordmerge$(CYCLES_SUFFIX)-clang.csv
cycles_with_clang = $(and $(filter 1,$(CYCLES_CLANG)),$(filter gcc,$(LIB_CC)))
# Recipe lines: clang's model of wordmerge (a sub-make), GCC's table (CSV
# $(1)) with clang's columns, and the check of clang's against GCC's.
cycles_clang = $(if $(cycles_with_clang),$(MAKE) --no-print-directory LIB_CC=clang \
	CYCLES_TABLE=0 cycles-wordmerge,:)
cycles_table = [ "$(CYCLES_TABLE)" = 0 ] || $(REPORT) cycles $(1) \
	$(if $(cycles_with_clang),--clang $(CYCLES_WM_CSV_CLANG)) \
	$(IMPL_NAMES:%=--own %)
cycles_clang_check = $(if $(cycles_with_clang),$(REPORT) compare $(1) $(CYCLES_WM_CSV_CLANG) \
	--impl wordmerge --within $(CYCLES_CLANG_PCT),:)
# The image is remade by a sub-make (its folder depends on BENCH), then the
# trace by another, which sees the ELF's new time.
.PHONY: cycles-trace
cycles-trace: $(PLUGIN_SO)
	$(Q)[ "$(PLATFORM)" = virt ] || { echo "make cycles runs QEMU virt (PLATFORM=virt)" >&2; exit 2; }
	$(Q)$(MAKE) --no-print-directory BENCH=trace all
	$(Q)$(MAKE) --no-print-directory $(CYCLES_TRACE)

# The log comes with the trace.  The plugin writes the trace next to its
# final name and it is renamed only after a clean run, so a failed run
# leaves no trace that looks complete.
$(CYCLES_TRACE): $(CYCLES_ELF) $(PLUGIN_SO) tools/cycles.py
	@mkdir -p $(@D)
	$(quiet) TRACE $@
	$(Q)args=$$($(CYCLES_PY) plugin-args $(CYCLES_ELF)) || exit 1; \
	rm -f $@ $@.tmp; \
	O=$(O) ./run-qemu.sh --no-build --icount --timeout 600 --elf $(CYCLES_ELF) \
		--log $(CYCLES_LOG) -- -plugin file=$(abspath $(PLUGIN_SO)),mode=trace,out=$@.tmp,$$args \
		> $(CYCLES_DIR)/trace$(CYCLES_SUFFIX).out 2>&1 || \
		{ tail -n 20 $(CYCLES_DIR)/trace$(CYCLES_SUFFIX).out; rm -f $@.tmp; \
		  echo "FAIL: the trace-mode image did not run (log $(CYCLES_LOG))"; exit 1; }; \
	mv $@.tmp $@

$(CYCLES_CSV): $(CYCLES_TRACE) tools/cycles.py
	$(quiet) CYCLES $@
	$(Q)$(CYCLES_MODEL) --out $@

# wordmerge's rows of the whole model when that is newer than the trace and cycles.py (make
# cycles cycles-wordmerge): the same figures, as llvm-mca models each sequence alone.
$(CYCLES_WM_CSV): $(CYCLES_TRACE) tools/cycles.py
	$(quiet) CYCLES $@
	$(Q)if [ $(CYCLES_CSV) -nt $(CYCLES_TRACE) ] && [ $(CYCLES_CSV) -nt tools/cycles.py ]; then \
		awk -F, '/^#/ || $$1 == "fn" || $$2 == "wordmerge"' $(CYCLES_CSV) > $@.tmp && \
		mv $@.tmp $@; \
	else $(CYCLES_MODEL) --impl wordmerge --out $@; fi

.PHONY: cycles cycles-wordmerge
# clang's check is printed, not enforced, here: make bench-check enforces it.
cycles: cycles-trace
	$(Q)tools/deps.sh pyelftools llvm-mca
	$(Q)$(MAKE) --no-print-directory $(CYCLES_CSV)
	$(Q)$(cycles_clang)
	$(Q)$(call cycles_table,$(CYCLES_CSV))
	$(Q)[ "$(CYCLES_TABLE)" = 0 ] || $(call cycles_clang_check,$(CYCLES_CSV)) || true

cycles-wordmerge: cycles-trace
	$(Q)tools/deps.sh pyelftools llvm-mca
	$(Q)$(MAKE) --no-print-directory $(CYCLES_WM_CSV)
	$(Q)$(cycles_clang)
	$(Q)$(call cycles_table,$(CYCLES_WM_CSV))
	$(Q)[ "$(CYCLES_TABLE)" = 0 ] || $(call cycles_clang_check,$(CYCLES_WM_CSV)) || true

# The lib of another revision, against this tree's.
CYCLES_BASE_O := $(O)/cycles-base
.PHONY: cycles-compare
cycles-compare:
	$(Q)[ -n "$(BASE)" ] || { echo "usage: make cycles-compare BASE=REV (a git revision, e.g. HEAD)" \
		>&2; exit 2; }
	$(Q)mkdir -p $(CYCLES_BASE_O)
	$(Q)for f in wordmerge.c wordmerge.h; do \
		git show "$(BASE):lib/$$f" > $(CYCLES_BASE_O)/$$f.tmp || \
		{ rm -f $(CYCLES_BASE_O)/$$f.tmp; echo "cycles-compare: no lib/$$f at $(BASE)" >&2; exit 2; }; \
		cmp -s $(CYCLES_BASE_O)/$$f.tmp $(CYCLES_BASE_O)/$$f && \
		rm $(CYCLES_BASE_O)/$$f.tmp || mv $(CYCLES_BASE_O)/$$f.tmp $(CYCLES_BASE_O)/$$f; \
	done
	$(Q)$(MAKE) -s --no-print-directory O=$(CYCLES_BASE_O) LIB_SRC=$(CYCLES_BASE_O)/wordmerge.c \
		CYCLES_TABLE=0 CYCLES_CLANG=0 cycles-wordmerge
	$(Q)$(MAKE) -s --no-print-directory CYCLES_TABLE=0 CYCLES_CLANG=0 cycles-wordmerge
	$(Q)$(REPORT) compare $(CYCLES_BASE_O)/cycles/cycles-wordmerge$(CYCLES_SUFFIX).csv $(CYCLES_WM_CSV)
