# SPDX-License-Identifier: MIT
# Host builds of the correctness suite (tests/suite.c + tests/host_main.c,
# lib built with WORDMERGE_PREFIX so it links beside the host libc).
# Included by the top Makefile.

HOST_DIR := $(O)/host
HOST_WARN := -std=c11 -Wall -Wextra -Werror
# lib and the suite's model must stay loops (see the image's flags).
HOST_NOBUILTIN_gcc := -fno-builtin -fno-tree-loop-distribute-patterns
HOST_NOBUILTIN_clang := -fno-builtin
HOST_SAN := -fsanitize=address,undefined -fsanitize=alignment -fno-sanitize-recover=all -fno-omit-frame-pointer

# $(call host_suite,NAME,CC,FLAGS[,LIBSRC]): build $(HOST_DIR)/NAME/suite
define host_suite
$(HOST_DIR)/$(1)/suite: lib/wordmerge.c lib/wordmerge.h tests/suite.c tests/suite.h tests/host_main.c $(4) tests/host.mk
	@mkdir -p $$(@D)
	$$(quiet) HOSTCC $$@
	$$(Q)$(2) $(HOST_WARN) $(3) $(HOST_NOBUILTIN_$(2)) -DWORDMERGE_PREFIX -Ilib \
		-o $$@ $(if $(4),$(4),lib/wordmerge.c) tests/suite.c tests/host_main.c
HOST_SUITES += $(HOST_DIR)/$(1)/suite
endef

HOST_SUITES :=
$(foreach cc,gcc clang,$(foreach opt,O0 O2 Os O3,\
	$(eval $(call host_suite,$(cc)-$(opt),$(cc),-$(opt)))))
$(foreach cc,gcc clang,$(eval $(call host_suite,$(cc)-san,$(cc),-O1 -g $(HOST_SAN))))
# The size-first build of lib (make LIB_SIZE=small): its own code path.
$(foreach cc,gcc clang,$(eval $(call host_suite,$(cc)-small-Os,$(cc),-Os -DWM_SMALL_CODE=1)))
$(eval $(call host_suite,gcc-small-san,gcc,-O1 -g -DWM_SMALL_CODE=1 $(HOST_SAN)))

# Run every host build; each prints its PASS:/FAIL: lines and an EXIT: line.
.PHONY: test-host
test-host: $(HOST_SUITES)
	$(Q)set -e; for t in $(HOST_SUITES); do \
		echo "== $$t"; \
		$$t > $$t.log 2>&1 || { cat $$t.log; echo "FAIL: $$t"; exit 1; }; \
		grep -E '^(TARGET|SUMMARY):' $$t.log; \
	done
TESTS += test-host
TEST_DEPS += gcc clang libclang-rt-14-dev

# Show that the suite can fail: build lib with each deliberate one-line fault
# of tests/faults.txt and require the suite to catch it.
.PHONY: test-faults
test-faults: tools/fault-check.sh tests/faults.txt
	$(Q)tools/fault-check.sh $(HOST_DIR)/faults tests/faults.txt gcc -O1 -g $(HOST_WARN) $(HOST_NOBUILTIN_gcc) $(HOST_SAN)
TESTS += test-faults

# No source word read wholly outside [src, src + n): tests/bounds.c places
# every source against PROT_NONE pages, so an over-read faults in any build:
# under ASan (gcc, clang, the size-first build) and plain at -O2 (gcc, clang,
# gcc -m32, the size-first build).
BOUNDS := gcc clang gcc-small gcc-O2 clang-O2 gcc-small-O2 gcc-m32-O2
BOUNDS_CC_gcc-small := gcc
BOUNDS_FLAGS_gcc-small := -DWM_SMALL_CODE=1
$(foreach b,gcc clang gcc-small,$(eval BOUNDS_OPT_$(b) := -O1 -g $(HOST_SAN)))
BOUNDS_CC_gcc-O2 := gcc
BOUNDS_CC_clang-O2 := clang
BOUNDS_CC_gcc-small-O2 := gcc
BOUNDS_FLAGS_gcc-small-O2 := -DWM_SMALL_CODE=1
BOUNDS_CC_gcc-m32-O2 := gcc
BOUNDS_FLAGS_gcc-m32-O2 := -m32
$(HOST_DIR)/bounds/%: lib/wordmerge.c lib/wordmerge.h tests/bounds.c tests/host.mk
	@mkdir -p $(@D)
	$(quiet) HOSTCC $@
	$(Q)$(or $(BOUNDS_CC_$*),$*) $(HOST_WARN) $(or $(BOUNDS_OPT_$*),-O2) $(HOST_NOBUILTIN_$(or $(BOUNDS_CC_$*),$*)) \
		$(BOUNDS_FLAGS_$*) -DWORDMERGE_PREFIX -Ilib -o $@ lib/wordmerge.c tests/bounds.c
.PHONY: test-bounds
test-bounds: $(addprefix $(HOST_DIR)/bounds/,$(BOUNDS))
	$(Q)for t in $^; do echo "== $$t"; $$t || exit 1; done
TESTS += test-bounds

# Lengths past PTRDIFF_MAX (tests/huge.c): gcc -m32, lib built with UBSan's
# pointer-overflow check, moves forward and backward, copies and sets
# 2 GiB + 8 MiB - 1 bytes, both builds of lib (side by side: ~10 s and 2 GiB
# of memory each; a machine without them prints SKIP:).  The control: lib
# whose 32-bit END() adds the length to a pointer (as lib did before) must
# be stopped by the check.
HUGE_DIR := $(HOST_DIR)/huge
HUGE_CFLAGS := -m32 $(HOST_WARN) -O2 -g $(HOST_NOBUILTIN_gcc) -DWORDMERGE_PREFIX -Ilib
HUGE_SAN := -fsanitize=undefined,pointer-overflow -fno-sanitize-recover=all
HUGE_LIBFLAGS_fast :=
HUGE_LIBFLAGS_small := -DWM_SMALL_CODE=1
HUGE_LIBSRC_control := $(HUGE_DIR)/control.c
$(HUGE_DIR)/control.c: lib/wordmerge.c tests/host.mk
	@mkdir -p $(@D)
	$(Q)sed -e 's/^#define END(T, p, n) ((T)((uintptr_t)(p) + (n)))$$/#define END(T, p, n) ((T)((unsigned char *)(p) + (n)))/' $< >$@
	$(Q)n=$$(diff $< $@ | grep -c '^>'); [ "$$n" = 1 ] || \
		{ echo "error: the huge control changed $$n lines of $<, expected 1: update tests/host.mk" >&2; rm -f $@; exit 1; }
$(HUGE_DIR)/huge.o: tests/huge.c lib/wordmerge.h tests/host.mk
	@mkdir -p $(@D)
	$(Q)gcc $(HUGE_CFLAGS) -c $< -o $@
$(HUGE_DIR)/huge-control: $(HUGE_DIR)/control.c
$(HUGE_DIR)/huge-%: lib/wordmerge.c $(HUGE_DIR)/huge.o tests/host.mk
	$(quiet) HOSTCC $@
	$(Q)gcc $(HUGE_CFLAGS) $(HUGE_SAN) $(HUGE_LIBFLAGS_$*) -c $(or $(HUGE_LIBSRC_$*),lib/wordmerge.c) -o $@.lib.o
	$(Q)gcc -m32 -fsanitize=undefined -o $@ $@.lib.o $(HUGE_DIR)/huge.o
.PHONY: test-huge
test-huge: $(HUGE_DIR)/huge-fast $(HUGE_DIR)/huge-small $(HUGE_DIR)/huge-control
	$(Q)for v in fast small; do $(HUGE_DIR)/huge-$$v >$(HUGE_DIR)/$$v.log 2>&1 & done; wait; \
	fail=0; for v in fast small; do echo "== lib $$v, gcc -m32 -fsanitize=undefined,pointer-overflow"; \
		grep -aE '^(TARGET|PASS|FAIL|SKIP|EXIT)|runtime error' $(HUGE_DIR)/$$v.log | sed 's/^/    /'; \
		grep -aqE '^(EXIT: STATUS=0|SKIP:)' $(HUGE_DIR)/$$v.log && ! grep -aq 'runtime error' $(HUGE_DIR)/$$v.log || fail=1; \
	done; \
	rc=0; $(HUGE_DIR)/huge-control >$(HUGE_DIR)/control.log 2>&1 || rc=$$?; \
	if grep -aq '^SKIP:' $(HUGE_DIR)/control.log; then echo "SKIP: control (see above)"; \
	elif [ $$rc != 0 ] && grep -aq 'runtime error: pointer index expression' $(HUGE_DIR)/control.log; then \
		echo "PASS: control: lib with END() as a pointer addition is stopped:"; \
		grep -a -m1 'runtime error' $(HUGE_DIR)/control.log | sed 's/^/    /'; \
	else echo "FAIL: control: lib with END() as a pointer addition passed the check (log $(HUGE_DIR)/control.log)"; fail=1; fi; \
	[ $$fail = 0 ]
TESTS += test-huge

# lib calls nothing, whatever the flags: compilers turn byte loops into calls
# to memcpy/memset (here: to ourselves) unless told not to, and lib tells
# them in its source.  Built here with plain flags, none of the build's
# -fno-builtin, and with the wm_ names (a function named memset is spared
# a call to memset by the compiler itself; wm_memset is not): `nm -u` must
# be empty.  The control shows that the check can see such a call.
NOCALL_CCS := gcc clang $(CROSS_COMPILE)gcc
# The RISC-V compiler finds <stdint.h> through picolibc (not -ffreestanding,
# which would imply -fno-builtin).
NOCALL_FLAGS_$(CROSS_COMPILE)gcc := --specs=picolibc.specs -march=rv64imac -mabi=lp64
.PHONY: test-no-libcalls
test-no-libcalls:
	$(Q)mkdir -p $(HOST_DIR)/nocall; fail=0; \
	$(foreach cc,$(NOCALL_CCS),bad=0; \
	for small in 0 1; do for opt in -O0 -O1 -O2 -O3 -Os; do \
		o=$(HOST_DIR)/nocall/lib.o; \
		$(cc) $(NOCALL_FLAGS_$(cc)) $$opt -std=c11 -Wall -Wextra -Werror -DWM_SMALL_CODE=$$small -DWORDMERGE_PREFIX \
			-c lib/wordmerge.c -o $$o || { bad=1; continue; }; \
		u=$$(nm -u $$o | awk '{print $$NF}' | tr '\n' ' '); \
		if [ -n "$$u" ]; then echo "FAIL: $(cc) $$opt WM_SMALL_CODE=$$small: lib/wordmerge.o calls $$u"; bad=1; fi; \
	done; done; \
	if [ $$bad = 0 ]; then echo "PASS: $(cc) -O0 -O1 -O2 -O3 -Os, both builds: lib/wordmerge.o calls nothing"; \
	else echo "FAIL: $(cc): lib/wordmerge.o is not self-contained at every level"; fail=1; fi;) \
	o=$(HOST_DIR)/nocall/unprotected.o; \
	sed -e 's/^#define WM_NO_LIBCALLS __attribute__((no_builtin))$$/#define WM_NO_LIBCALLS/' lib/wordmerge.c \
		> $(HOST_DIR)/nocall/unprotected.c; \
	clang -O2 -DWORDMERGE_PREFIX -Ilib -c $(HOST_DIR)/nocall/unprotected.c -o $$o && \
	if nm -u $$o | grep -q 'mem'; then echo "PASS: control: without WM_NO_LIBCALLS, clang -O2 makes lib call $$(nm -u $$o | awk '{print $$NF}' | tr '\n' ' ')"; \
	else echo "FAIL: control: clang -O2 no longer makes the unprotected lib call memset: this check proves nothing"; fail=1; fi; \
	[ $$fail = 0 ]
TESTS += test-no-libcalls
