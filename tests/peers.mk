# SPDX-License-Identifier: MIT
# The peers: the Linux kernel's riscv assembly, glibc's generic C and
# newlib's riscv code for memcpy, memmove and memset, built from Debian's
# source packages into the image beside ours and picolibc's (PEERS=0: not;
# top Makefile), and glibc's and newlib's C into the host suite
# (HOST_PEERS=1: tests/build.mk).  docs/peers.md says where each comes
# from.  No line of theirs is in this repository: the files are taken from
# the installed packages at build time.  They are references: no version of
# a package stops a build.  The files whose code is measured are looked up
# in tests/peers/known; one not there is built all the same, and the image
# labels the peer wherever it names it; a peer that does not build is left
# out, with a SKIP: line that says why.  Included by the top Makefile.
#
#   make peers         extract the installed packages' files into
#                      $(PEERS_DIR)/PEER/ (again after a package update) and
#                      say, per peer, its version and whether its code is known
#   make peers-hashes  the lines of tests/peers/known the installed versions add
#
# PEERS_DIR: one cache for every build folder (tests/run.py gives its
# builds the main build's): the kernel's tarball is 139 MB of xz, and
# reading the few files out of it takes seconds each time.

PEER_NAMES := linux glibc newlib
PEERS_DIR ?= $(O)/peers
PEERS_KNOWN := tests/peers/known

# Per peer: its Debian package (peer_ver_PEER=V: say it is version V, for
# the tests' stand-in tarballs), the tarball it installs, the folder the
# files sit under in it, the name the image gives it and the prefix its
# renamed symbols get, the sources built into the image (newlib: what its
# riscv Makefile.am builds when not optimizing for size: memmove-stub.c
# includes libc/string/memmove.c), the files whose code is measured (those
# and what they include of their project's code), and the headers that only
# let them build.
peer_pkg_linux := linux-source-6.1
peer_tar_linux := /usr/src/linux-source-6.1.tar.xz
peer_top_linux := linux-source-6.1
peer_impl_linux := linux-asm
peer_srcs_linux := arch/riscv/lib/memcpy.S arch/riscv/lib/memmove.S arch/riscv/lib/memset.S
peer_code_linux := $(peer_srcs_linux)
peer_hdrs_linux := arch/riscv/include/asm/asm.h arch/riscv/include/asm/linkage.h \
	include/linux/linkage.h include/linux/compiler_types.h include/linux/export.h \
	include/linux/stringify.h
peer_pkg_glibc := glibc-source
peer_tar_glibc := /usr/src/glibc/glibc-2.36.tar.xz
peer_top_glibc := glibc-2.36
peer_impl_glibc := glibc-generic
peer_srcs_glibc := string/memcpy.c string/memmove.c string/memset.c string/wordcopy.c
# memcopy.h: the byte and word copy macros the four files are made of.
peer_code_glibc := $(peer_srcs_glibc) sysdeps/generic/memcopy.h
peer_hdrs_glibc := sysdeps/generic/pagecopy.h
peer_pkg_newlib := newlib-source
peer_tar_newlib := /usr/src/newlib/newlib-3.3.0.tar.xz
peer_top_newlib := newlib-salsa/newlib
peer_impl_newlib := newlib
peer_srcs_newlib := libc/machine/riscv/memcpy.c libc/machine/riscv/memmove-stub.c \
	libc/machine/riscv/memset.S
peer_code_newlib := $(peer_srcs_newlib) libc/string/memmove.c
peer_hdrs_newlib :=
peer_files = $(peer_code_$(1)) $(peer_hdrs_$(1))
peer_count = $(if $(strip $(peer_files)),$(words $(peer_files)) files,all its files)
# linux-tree: the whole tarball (no file named: tar extracts all) of Linux 6.12,
# the long-term kernel RISC-V boards run, for make kernel-test
# (tests/kernel/kernel.mk); not one of PEER_NAMES, so make peers leaves its
# 1.7 GB alone.
peer_pkg_linux-tree := linux-source-6.12
peer_tar_linux-tree := /usr/src/linux-source-6.12.tar.xz
peer_top_linux-tree := linux-source-6.12
PEER_STAMPS := $(PEER_NAMES:%=$(PEERS_DIR)/%.ok)

PEER_STATE := tests/peers/state.sh
.PHONY: peers peers-hashes
peers: $(PEER_STAMPS)
	@for p in $(PEER_NAMES); do s=$$($(PEER_STATE) state $(PEERS_DIR) $$p) && \
		printf '  %-7s %s\n' PEER \
			"$$p: $$(sed -n 's/^version //p' $(PEERS_DIR)/$$p.ok), $${s:-code known}"; \
	done
peers-hashes: $(PEER_STAMPS)
	@$(PEER_STATE) hashes $(PEERS_DIR) $(PEER_NAMES)

# Each peer's files, extracted under a lock (builds in other folders share
# the cache) when its package's version or tarball changed since (its
# sha256: another tarball of the same size, date and version is new), into
# a new folder renamed into place; the stamp then records the package, its
# version and the measured files (tests/peers/state.sh hashes them as they
# are when a build reads them), or why the files could not be had.
# Checked at every build (the stamp changes only when the package does, so
# nothing is rebuilt for nothing): an update of the package is taken at once.
# The tarball is hashed again only when its file changed since (PEER.sum: its
# device, inode, size and times, then the sha256): a rewrite sets its ctime,
# which no user can set back, and the linux tarball takes 0.3 s to hash.
$(PEERS_DIR)/%.ok: FORCE
	@mkdir -p $(@D)
	$(Q)set -e; exec 9>$(PEERS_DIR)/.lock; flock 9; \
	d=$(PEERS_DIR)/$*; tar=$(peer_tar_$*); \
	ver='$(peer_ver_$*)'; [ -n "$$ver" ] || \
		ver=$$(dpkg-query -W -f='$${Version}' $(peer_pkg_$*) 2>/dev/null) || \
		ver="(no dpkg record)"; \
	st=$$(stat -L -c '%d:%i:%s:%.9Y:%.9Z' $$tar 2>/dev/null) || st=; \
	sum=$$(awk -v s="$$st" '$$1 == s { print $$2 }' $(PEERS_DIR)/$*.sum 2>/dev/null) || sum=; \
	[ -n "$$st" ] && [ -n "$$sum" ] || { sum=$$(sha256sum < $$tar 2>/dev/null | cut -c1-64); \
		[ -z "$$st" ] || echo "$$st $$sum" > $(PEERS_DIR)/$*.sum; }; \
	key="$$tar $$ver $$sum $(call peer_files,$*)"; \
	[ -d $$d ] && [ "$$(sed -n 's/^key //p' $@ 2>/dev/null)" = "$$key" ] && exit 0; \
	rm -rf $$d.tmp; mkdir -p $$d.tmp; err=; \
	if [ ! -r $$tar ]; then \
		err="no $$tar: install Debian's $(peer_pkg_$*) (tools/deps.sh $(peer_pkg_$*))"; \
	elif ! tar -xJmf $$tar -C $$d.tmp --transform 's|^$(peer_top_$*)/||' \
		$(addprefix $(peer_top_$*)/,$(call peer_files,$*)) 2>$$d.err; then \
		err="$$tar: $$(grep -m1 . $$d.err)"; fi; \
	rm -f $$d.err; \
	{ echo "key $$key"; echo "version $(peer_pkg_$*) $$ver"; [ -z "$$err" ] || echo "error $$err"; \
	  for f in $(peer_code_$*); do [ ! -f $$d.tmp/$$f ] || echo "measured $$f"; done; } > $@.tmp; \
	rm -rf $$d.old; [ ! -d $$d ] || mv $$d $$d.old; mv $$d.tmp $$d; mv $@.tmp $@; rm -rf $$d.old; \
	printf '  %-7s %s\n' PEER \
		"$*: $(peer_pkg_$*) $$ver, $${err:-$(call peer_count,$*)} from $$tar"

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
	$(Q)mkdir -p $(@D) && cp $< $@.$$$$ && mv -f $@.$$$$ $@

# A source that does not build leaves its compiler's messages in OBJ.err
# and no object; the peer is then an empty object and a skip file, whose
# line the image prints as SKIP: (the version, the file, the first error).
define peer_rules
$$(addprefix $$(PEERS_DIR)/$(1)/,$$(call peer_files,$(1))): $$(PEERS_DIR)/$(1).ok ;
$$(IMG_DIR)/obj/peers/$(1)/%.o: $$(PEERS_DIR)/$(1)/% $$(peer_stand_ins_$(1)) tests/peers.mk
	@mkdir -p $$(@D)
	$$(quiet) CC $$<
	$$(Q)rm -f $$@ $$@.err; $$(IMG_CCACHE) $$(CC) $$(peer_flags_$(1)) -MMD -MP -c $$< -o $$@ \
		2>$$@.log || mv $$@.log $$@.err; cat $$@.log $$@.err 2>/dev/null >&2; rm -f $$@.log
$$(IMG_DIR)/obj/peer-$(1).o: $$(peer_srcs_$(1):%=$$(IMG_DIR)/obj/peers/$(1)/%.o) \
		$$(PEERS_DIR)/$(1).ok tools/extract-refs.sh
	$$(quiet) REFS $$@
	$$(Q)rm -f $$@.skip; for f in $$(peer_srcs_$(1)); do \
		e=$$(IMG_DIR)/obj/peers/$(1)/$$$$f.o.err; [ -f $$$$e ] || continue; \
		why=$$$$(sed -n 's/^error //p' $$(PEERS_DIR)/$(1).ok); \
		echo "$(peer_impl_$(1)): $$$$(sed -n 's/^version //p' $$(PEERS_DIR)/$(1).ok):" \
			"$$$${why:-$$$${f##*/} does not build: $$$$(grep -m1 -i error $$$$e || head -n1 $$$$e)}" | \
			sed 's|$$(PEERS_DIR)/$(1)/||g' > $$@.skip; \
		break; \
	done; \
	if [ -f $$@.skip ]; then printf '' | $$(CC) $$(ARCH_FLAGS) -c -x assembler - -o $$@; \
	else tools/extract-refs.sh $$(CROSS_COMPILE) $(1) $$@ $$(filter %.o,$$^); fi
endef
$(foreach p,$(PEER_NAMES),$(eval $(call peer_rules,$(p))))

# What the image says of its peers (firmware/impls.c: labels, SKIP: lines,
# CSV:source records), from tests/peers/state.sh; rewritten only when it
# changes.
PEERS_H := $(IMG_DIR)/gen/wm-peers.h
PEERS_H_ARGS := $(if $(filter 1,$(PEERS)),$(foreach p,$(PEER_NAMES),$(p)=$(peer_impl_$(p))))
$(PEERS_H): $(if $(PEERS_H_ARGS),$(PEER_NAMES:%=$(IMG_DIR)/obj/peer-%.o)) $(PEERS_KNOWN) \
	$(PEER_STATE) FORCE
	@mkdir -p $(@D)
	$(Q)$(PEER_STATE) header $(PEERS_DIR) $(IMG_DIR)/obj $(PEERS_H_ARGS) > $@.tmp
	$(Q)cmp -s $@.tmp $@ && rm -f $@.tmp || mv -f $@.tmp $@

# ---- glibc's and newlib's C in the host suite (make host HOST_PEERS=1) --------
host_peer_flags = $(HOST_OPT) -g $(HOST_ARCH) -fno-tree-loop-distribute-patterns
host_peer_srcs_glibc := $(peer_srcs_glibc)
host_peer_srcs_newlib := $(filter %.c,$(peer_srcs_newlib))
define host_peer_rules
$$(O)/host/peers/$(1)/%.o: $$(PEERS_DIR)/$(1)/% $$(peer_stand_ins_$(1)) tests/peers.mk \
	$$(O)/host/flags
	@mkdir -p $$(@D)
	$$(quiet) HOSTCC $$<
	$$(Q)$$(HOSTCC) $$(host_peer_flags) $$(filter-out $$(peer_cflags),$$(peer_flags_$(1))) -c $$< \
		-o $$@
$$(O)/host/peer-$(1).o: $$(host_peer_srcs_$(1):%=$$(O)/host/peers/$(1)/%.o) tools/extract-refs.sh
	$$(quiet) REFS $$@
	$$(Q)tools/extract-refs.sh '' $(1) $$@ $$(filter %.o,$$^)
endef
$(foreach p,glibc newlib,$(eval $(call host_peer_rules,$(p))))
-include $(foreach p,$(PEER_NAMES),$(peer_srcs_$(p):%=$(IMG_DIR)/obj/peers/$(p)/%.d))
