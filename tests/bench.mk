# SPDX-License-Identifier: MIT
# Benchmarks (firmware/bench.c, tools/report.py).  Included by the top Makefile.
#
#   make bench [BENCH_MODE=full|sweep|big]
#        build the benchmark image ($(O)/bench-MODE/virt/), boot it on QEMU virt
#        with -icount shift=0 (cycle and instret count instructions exactly),
#        keep the log as $(O)/bench/bench-MODE.log (how it was run beside it,
#        in .log.run, written after the run: run-qemu.sh removes an earlier
#        run's) and write $(O)/report/report.md.
#        full (default): size sweep and the 32 MiB phase.
#   make report LOG=FILE [ELF=FILE] [CYCLES=FILE] [CORE=u74|u54]
#        the report ($(O)/report/) from any benchmark log (LOG and ELF taken as
#        typed: spaces, quotes, $ and commas are the file's): QEMU's under -icount
#        (one without is refused: its counts mean nothing), or a board's
#        serial capture of the image built with `make BENCH=full PLATFORM=...`.
#        ELF: the image that wrote the log, for the code size of lib's static
#        helpers; by default $(O)/bench-MODE/$(PLATFORM)/wordmerge.elf when it
#        matches the log.  A truncated or foreign log is an error and leaves
#        no new report.
#        CYCLES: the cycle model (tests/cycles.mk) of the build that wrote the
#        log, for modeled SiFive U74/U54 cycles beside the counts (and, for a
#        board's log, beside its measured cycles); refused if its instruction
#        counts differ from the log's.  By default $(O)/cycles/cycles.csv,
#        else cycles-wordmerge.csv, used only when it matches (make bench
#        too); without one the report says how to make it.  CORE: the
#        board's core when its platform name does not tell (else both).
#   make bench-check
#        the sweep under -icount: wordmerge's instruction counts and code size
#        against tests/bench-targets.txt (one PASS:/FAIL: line per cell),
#        under the misaligned-access plugin (none allowed in lib); and, when
#        the tree has the cycle model (tests/cycles.mk), its modeled cycles
#        (make cycles-wordmerge), whose instruction counts must equal the
#        sweep's.  Then lib as clang builds it: its model (the trace image)
#        against tests/bench-targets-clang.txt, and its total modeled cycles
#        and 64 KiB cells at most 10 % above GCC's (tools/report.py compare
#        --within).  Part of make test.  Depends on instruction counts and
#        the deterministic model only, never on time.
#   With LIB_SIZE=small (the size-first lib, top Makefile) all three use
#   their own folders and files, suffixed -small.

BENCH_MODE ?= full
# LIB_SIZE=small, LIB_CC=clang: their own image folder (top Makefile), logs
# and report.
BENCH_SUFFIX := $(LIB_SUFFIX)
BENCH_DIR := $(O)/bench
BENCH_TARGETS := tests/bench-targets.txt
# O=$(O): run-qemu.sh builds the plugin (--check-alignment) into $(O) too.
BENCH_QEMU := O=$(O) ./run-qemu.sh --no-build --icount --memory 512M
REPORT := tools/report.py
REPORT_DIR := $(O)/report$(BENCH_SUFFIX)
# ELF: the image that wrote LOG (make report).
ELF ?=
# The cycle model's CSVs (tests/cycles.mk writes them): make report and
# make bench try the full one, then wordmerge's, and use the first whose
# instruction counts match the log (report.py --cycles-guess); CYCLES=FILE
# names one and no other, and a mismatch is then an error.
BENCH_CYCLES_CSV := $(O)/cycles/cycles$(BENCH_SUFFIX).csv
BENCH_CYCLES_WM_CSV := $(O)/cycles/cycles-wordmerge$(BENCH_SUFFIX).csv
CYCLES ?=
# CORE=u74|u54: the core of the board that wrote LOG, when its device tree
# model names no board report.py knows.
CORE ?=
bench_cycles = $(if $(CYCLES),--cycles $(CYCLES),--cycles-guess $(BENCH_CYCLES_CSV) \
	--cycles-guess $(BENCH_CYCLES_WM_CSV)) $(if $(CORE),--core $(CORE))
# Whether this tree has the cycle model: expanded in recipes, i.e. after
# every makefile is read, so it holds whatever the order of the includes.
bench_has_cycles = $(filter %tests/cycles.mk,$(MAKEFILE_LIST))
# A recipe line: wordmerge's cycle model, made if the tree has it (its
# table unprinted: the check's own lines show the figures it checks).
bench_make_cycles = \
	$(if $(bench_has_cycles),$(MAKE) --no-print-directory CYCLES_TABLE=0 cycles-wordmerge,\
	echo "NOTE: no cycle model in this tree (no tests/cycles.mk): no modeled cycles")

# $(call bench_elf,MODE): the benchmark image of MODE for this platform
# (the folder as the top Makefile's IMG_DIR names it for BENCH=MODE).
bench_elf = $(O)/bench-$(1)/$(PLATFORM)$(BENCH_SUFFIX)/wordmerge.elf

.PHONY: bench-image-sweep bench-image-big bench-image-full
bench-image-sweep bench-image-big bench-image-full:
	$(Q)$(MAKE) --no-print-directory BENCH=$(@:bench-image-%=%) all

# The UART goes to the log; the terminal sees the progress only: the
# image's CSV:progress and CSV:done lines (firmware/bench.c) in words, and
# EXIT:, as tools/wmlog.py progress reads them.
.PHONY: bench
bench: bench-image-$(BENCH_MODE)
	$(Q)tools/deps.sh pyelftools matplotlib
	$(Q)[ "$(PLATFORM)" = virt ] || { echo "make bench runs QEMU virt: boot" \
		"$(call bench_elf,$(BENCH_MODE)) on the board and use make report LOG=..." >&2; exit 2; }
	$(Q)mkdir -p $(BENCH_DIR)
	$(Q)log=$(BENCH_DIR)/bench-$(BENCH_MODE)$(BENCH_SUFFIX).log; \
	cmd="$(BENCH_QEMU) --timeout 1800 --elf $(call bench_elf,$(BENCH_MODE)) --log $$log"; \
	echo "  BENCH   $$cmd"; \
	start=$$(date +%s); : > $$log; \
	{ eval "$$cmd" > $(BENCH_DIR)/bench-$(BENCH_MODE)$(BENCH_SUFFIX).out 2>&1; \
		echo $$? > $(BENCH_DIR)/bench$(BENCH_SUFFIX).rc; } & \
	pid=$$!; \
	tail -n +1 -F --pid=$$pid $$log 2>/dev/null | tools/wmlog.py progress; \
	wait $$pid; rc=$$(cat $(BENCH_DIR)/bench$(BENCH_SUFFIX).rc); \
	{ echo "$$cmd"; echo "($$(qemu-system-riscv64 --version | head -n 1)," \
		"$$(date -u '+%Y-%m-%d %H:%M UTC'), host $$(uname -m))"; } > $$log.run; \
	echo "  BENCH   $$(( $$(date +%s) - start )) s, run-qemu.sh status $$rc, log $$log"; \
	[ "$$rc" = 0 ] || { tail -n 20 $(BENCH_DIR)/bench-$(BENCH_MODE)$(BENCH_SUFFIX).out; exit 1; }
	$(Q)$(REPORT) report $(BENCH_DIR)/bench-$(BENCH_MODE)$(BENCH_SUFFIX).log --out $(REPORT_DIR) \
		--elf $(call bench_elf,$(BENCH_MODE)) --targets $(BENCH_TARGETS) $(bench_cycles)

.PHONY: report
report:
	$(Q)[ -n $(call shq,$(value LOG)) ] || { echo \
		"usage: make report LOG=FILE [ELF=FILE] [CYCLES=FILE] [CORE=u74|u54]" >&2; exit 2; }
	$(Q)tools/deps.sh pyelftools matplotlib
	$(Q)$(REPORT) report $(call shq,$(value LOG)) --out $(REPORT_DIR) --targets $(BENCH_TARGETS) \
		$(if $(value ELF),--elf $(call shq,$(value ELF)),--images $(O)) $(bench_cycles)

# The sweep under -icount and the misaligned-access plugin: bench-check's
# log, which the report's own tests read too.  The boot is made again only
# when the sweep image or the plugin changed (its counts are the image's,
# exact; the stamp .ok says the boot passed, a failed one's log stays to be
# read): tests that read the log, with their own targets beside it, do not
# boot it again while another reads it.
BENCH_CHECK_LOG := $(BENCH_DIR)/check-sweep$(BENCH_SUFFIX).log
BENCH_CHECK_OUT := $(BENCH_DIR)/check-sweep$(BENCH_SUFFIX).out
.PHONY: bench-check-sweep
bench-check-sweep: bench-image-sweep $(PLUGIN_SO)
	$(Q)$(MAKE) --no-print-directory $(BENCH_CHECK_LOG).ok
	$(Q)grep -E '^(PMU: sweep\[wordmerge\]|MISALIGNED-TOTAL|PASS: (no|control) )' $(BENCH_CHECK_OUT)
$(BENCH_CHECK_LOG).ok: $(call bench_elf,sweep) $(PLUGIN_SO) run-qemu.sh
	$(Q)mkdir -p $(BENCH_DIR) && rm -f $@
	$(Q)$(BENCH_QEMU) --timeout 100 --check-alignment --elf $(call bench_elf,sweep) \
		--log $(BENCH_CHECK_LOG) \
		> $(BENCH_CHECK_OUT) 2>&1 || \
		{ tail -n 20 $(BENCH_CHECK_OUT); echo \
			"FAIL: the sweep image did not run or made a misaligned access (log $(BENCH_CHECK_LOG))"; \
			exit 1; }
	$(Q)touch $@

# The cycle model is made after the sweep (a sub-make: whether the tree
# has it is only known once every makefile is read) and must be of the
# same build: report.py refuses it if an instruction count differs.
# Then lib as clang builds it (the cycle model's clang image, in trace mode:
# tests/cycles.mk): its own targets, and its modeled cycles against GCC's.
.PHONY: bench-check
bench-check: bench-check-sweep
	$(Q)$(bench_make_cycles)
	$(Q)$(REPORT) check $(BENCH_CHECK_LOG) --targets $(BENCH_TARGETS) --elf $(call bench_elf,sweep) \
		$(if $(bench_has_cycles),--cycles $(BENCH_CYCLES_WM_CSV))
	$(Q)$(if $(and $(bench_has_cycles),$(cycles_with_clang)),$(bench_check_clang))

BENCH_TARGETS_CLANG := tests/bench-targets-clang.txt
bench_check_clang = echo "lib built by clang:" && \
	$(REPORT) check $(CYCLES_DIR)/trace$(BENCH_SUFFIX)-clang.log --targets $(BENCH_TARGETS_CLANG) \
		--elf $(O)/bench-trace/$(PLATFORM)$(BENCH_SUFFIX)-clang/wordmerge.elf \
		--cycles $(CYCLES_WM_CSV_CLANG) && \
	$(call cycles_clang_check,$(BENCH_CYCLES_WM_CSV))
