# SPDX-License-Identifier: MIT
# The peers: the Linux kernel's riscv assembly, glibc's generic C and
# newlib's riscv code for memcpy, memmove and memset, built from Debian's
# source packages into the image beside ours and picolibc's (PEERS=0: not;
# top Makefile), and glibc's and newlib's C into the host suite
# (HOST_PEERS=1: tests/build.mk).  docs/peers.md
# says where each comes from.  No line of theirs is in this repository: the
# files are taken from the installed packages at build time, and their
# sha256 (tests/peers/sha256) are checked.  Included by the top Makefile.
#
#   make peers        extract the files tests/peers/sha256 lists into
#                     $(PEERS_DIR)/PEER/, once, printing each package's
#                     version and checking every file's sha256
#   make peers-check  check the extracted files again (and extract any
#                     peer not yet there)
#
# PEERS_DIR: one cache for every build folder (tests/run.py gives its
# builds the main build's): the kernel's tarball is 139 MB of xz, and
# reading the few files out of it takes seconds each time.

PEER_NAMES := linux glibc newlib
PEERS_DIR ?= $(O)/peers
PEERS_SUMS := tests/peers/sha256

# Per peer: its Debian package, the tarball it installs, the folder the
# files sit under in it, the prefix its renamed symbols get, the sources
# built into the image (newlib: what its riscv Makefile.am builds when not
# optimizing for size: memmove-stub.c includes libc/string/memmove.c).
peer_pkg_linux := linux-source-6.1
peer_tar_linux := /usr/src/linux-source-6.1.tar.xz
peer_top_linux := linux-source-6.1
peer_srcs_linux := arch/riscv/lib/memcpy.S arch/riscv/lib/memmove.S arch/riscv/lib/memset.S
peer_pkg_glibc := glibc-source
peer_tar_glibc := /usr/src/glibc/glibc-2.36.tar.xz
peer_top_glibc := glibc-2.36
peer_srcs_glibc := string/memcpy.c string/memmove.c string/memset.c string/wordcopy.c
peer_pkg_newlib := newlib-source
peer_tar_newlib := /usr/src/newlib/newlib-3.3.0.tar.xz
peer_top_newlib := newlib-salsa/newlib
peer_srcs_newlib := libc/machine/riscv/memcpy.c libc/machine/riscv/memmove-stub.c \
	libc/machine/riscv/memset.S
# linux-tree: linux's whole tarball, for make kernel-test (tests/kernel/kernel.mk):
# the same package, its files checked against linux's sha256; not a peer of
# PEER_NAMES (make peers leaves its 1.5 GB alone).
peer_pkg_linux-tree := $(peer_pkg_linux)
peer_tar_linux-tree := $(peer_tar_linux)
peer_top_linux-tree := $(peer_top_linux)
peer_sums_linux-tree := linux
peer_whole_linux-tree := 1
# $(call peer_sums,PEER): the name PEER's files have in $(PEERS_SUMS).
peer_sums = $(or $(peer_sums_$(1)),$(1))

# $(call peer_files,PEER): its files, as the list names them under PEER/.
peer_files = $(shell sed -n 's|^[0-9a-f]\{64\}  $(1)/||p' $(PEERS_SUMS))
PEER_STAMPS := $(PEER_NAMES:%=$(PEERS_DIR)/%.ok)

.PHONY: peers peers-check
peers: $(PEER_STAMPS)
peers-check:
	$(Q)$(MAKE) --no-print-directory -B $(PEER_STAMPS)

# Under a lock, as builds in other folders share the cache.  A peer already
# there is only checked; else its files are extracted into a new folder,
# checked, and only then renamed into place.  A file whose sha256 differs
# from the list is an error that names it, and leaves no stamp (nor a new
# folder) behind.
$(PEERS_DIR)/%.ok: $(PEERS_SUMS) tests/peers.mk
	@mkdir -p $(@D)
	$(Q)set -e; exec 9>$(PEERS_DIR)/.lock; flock 9; \
	d=$(PEERS_DIR)/$*; ver=$$(dpkg-query -W -f='$${Version}' $(peer_pkg_$*) 2>/dev/null) || \
		ver="(no dpkg record)"; \
	from="the cache"; \
	if [ ! -d $$d ]; then \
		[ -r $(peer_tar_$*) ] || { echo "peers: error: no $(peer_tar_$*): install Debian's $(peer_pkg_$*) (tools/deps.sh $(peer_pkg_$*))" >&2; exit 1; }; \
		rm -rf $$d.tmp; mkdir -p $$d.tmp; from=$(peer_tar_$*); \
		tar -xJf $(peer_tar_$*) -C $$d.tmp --transform 's|^$(peer_top_$*)/||' \
			$(if $(peer_whole_$*),,$(addprefix $(peer_top_$*)/,$(call peer_files,$*))) || \
			{ rm -rf $$d.tmp; echo "peers: error: $(peer_tar_$*) lacks a file of $(PEERS_SUMS) (package $(peer_pkg_$*) $$ver)" >&2; exit 1; }; \
	fi; \
	dir=$$d; [ -d $$d.tmp ] && dir=$$d.tmp; \
	bad=$$(sed -n 's|^\([0-9a-f]\{64\}  \)$(call peer_sums,$*)/|\1|p' $(PEERS_SUMS) | (cd $$dir && sha256sum -c 2>/dev/null) | sed -n 's/: FAILED.*//p'); \
	if [ -n "$$bad" ]; then \
		rm -rf $$d.tmp; \
		for f in $$bad; do echo "peers: error: $$d/$$f: its sha256 is not the one $(PEERS_SUMS) gives (package $(peer_pkg_$*) $$ver, from $$from)" >&2; done; \
		[ "$$dir" = "$$d" ] && echo "peers: remove $$d to extract it again" >&2; \
		exit 1; \
	fi; \
	[ "$$dir" = "$$d" ] || mv $$d.tmp $$d; \
	printf '  %-7s %s\n' PEER "$*: $(peer_pkg_$*) $$ver, $(if $(peer_whole_$*),the whole tree,$(words \
		$(call peer_files,$*)) files) from $$from, sha256 checked"
	$(Q)touch $@

# ---- built into the image ------------------------------------------------------
# Each as its own project builds it for rv64 (-O2 whatever the image's OPT),
# against the stand-ins of tests/peers/ (each definition says why) where a
# header of their build is missing.  The kernel's assembly without -g, as
# a kernel without CONFIG_DEBUG_INFO: gas would describe memmove in
# .debug_info, and objcopy cannot then drop the weak alias that
# tools/extract-refs.sh replaces with __memmove.  The C files get
# -fno-tree-loop-distribute-patterns, which their own builds put on these
# functions: a loop must not become a call to memcpy (in this image, ours).
peer_flags_linux = $(ARCH_FLAGS) -D__ASSEMBLY__ -nostdinc -Itests/peers/linux \
	-I$(PEERS_DIR)/linux/arch/riscv/include -I$(PEERS_DIR)/linux/include -include asm/asm-offsets.h
# picolibc's release headers: its default ones define PREFER_SIZE_OVER_SPEED,
# which would give newlib's size-first variants (byte loops), not the code
# a newlib built for speed links.
peer_cflags = $(ARCH_FLAGS) -O2 -g --specs=picolibc.specs --picolibc-buildtype=release \
	-fno-tree-loop-distribute-patterns
peer_flags_glibc = $(peer_cflags) -include $(PEER_GLIBC_H) -I$(PEERS_DIR)/glibc/sysdeps/generic
peer_flags_newlib = $(peer_cflags) -Itests/peers/newlib
peer_stand_ins_linux := tests/peers/linux/asm/asm-offsets.h
# FAULT=NAME of a fault in the glibc stand-in (tests/faults.txt): its copy.
PEER_GLIBC_H := $(if $(filter tests/peers/glibc.h,$(FAULT_FILE)),$(FAULT_SRC),tests/peers/glibc.h)
peer_stand_ins_glibc := $(PEER_GLIBC_H)
peer_stand_ins_newlib := tests/peers/newlib/_ansi.h $(PEERS_DIR)/newlib/libc/string/local.h
# newlib's memcpy.c and memmove.c include "local.h" from libc/string/, as a
# path relative to themselves: the stand-in goes there (written whole, then
# renamed: builds share the folder).
$(PEERS_DIR)/newlib/libc/string/local.h: tests/peers/newlib/local.h $(PEERS_DIR)/newlib.ok
	$(Q)cp $< $@.$$$$ && mv -f $@.$$$$ $@

define peer_rules
$$(addprefix $$(PEERS_DIR)/$(1)/,$$(call peer_files,$(1))): $$(PEERS_DIR)/$(1).ok ;
$$(IMG_DIR)/obj/peers/$(1)/%.o: $$(PEERS_DIR)/$(1)/% $$(peer_stand_ins_$(1)) tests/peers.mk
	@mkdir -p $$(@D)
	$$(quiet) CC $$<
	$$(Q)$$(CC) $$(peer_flags_$(1)) -MMD -MP -c $$< -o $$@
$$(IMG_DIR)/obj/peer-$(1).o: $$(peer_srcs_$(1):%=$$(IMG_DIR)/obj/peers/$(1)/%.o) tools/extract-refs.sh
	$$(quiet) REFS $$@
	$$(Q)tools/extract-refs.sh $$(CROSS_COMPILE) $(1) $$@ $$(filter %.o,$$^)
endef
$(foreach p,$(PEER_NAMES),$(eval $(call peer_rules,$(p))))

# The image links them unless PEERS=0 (firmware/impls.mk, the table).

# ---- glibc's and newlib's C in the host suite (make host HOST_PEERS=1) --------
host_peer_flags = $(HOST_OPT) -g $(HOST_ARCH) -fno-tree-loop-distribute-patterns
host_peer_srcs_glibc := $(peer_srcs_glibc)
host_peer_srcs_newlib := $(filter %.c,$(peer_srcs_newlib))
define host_peer_rules
$$(O)/host/peers/$(1)/%.o: $$(PEERS_DIR)/$(1)/% $$(peer_stand_ins_$(1)) tests/peers.mk $$(O)/host/flags
	@mkdir -p $$(@D)
	$$(quiet) HOSTCC $$<
	$$(Q)$$(HOSTCC) $$(host_peer_flags) $$(filter-out $$(peer_cflags),$$(peer_flags_$(1))) -c $$< -o $$@
$$(O)/host/peer-$(1).o: $$(host_peer_srcs_$(1):%=$$(O)/host/peers/$(1)/%.o) tools/extract-refs.sh
	$$(quiet) REFS $$@
	$$(Q)tools/extract-refs.sh '' $(1) $$@ $$(filter %.o,$$^)
endef
$(foreach p,glibc newlib,$(eval $(call host_peer_rules,$(p))))
-include $(foreach p,$(PEER_NAMES),$(peer_srcs_$(p):%=$(IMG_DIR)/obj/peers/$(p)/%.d))
