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

# No source word read wholly outside [src, src + n): tests/bounds.c under ASan.
$(HOST_DIR)/bounds/%: lib/wordmerge.c lib/wordmerge.h tests/bounds.c tests/host.mk
	@mkdir -p $(@D)
	$(quiet) HOSTCC $@
	$(Q)$* $(HOST_WARN) -O1 -g $(HOST_NOBUILTIN_$*) $(HOST_SAN) -DWORDMERGE_PREFIX -Ilib \
		-o $@ $(if $(BOUNDS_LIB),$(BOUNDS_LIB),lib/wordmerge.c) tests/bounds.c
.PHONY: test-bounds
test-bounds: $(HOST_DIR)/bounds/gcc $(HOST_DIR)/bounds/clang
	$(Q)for t in $^; do echo "== $$t"; $$t || exit 1; done
TESTS += test-bounds
