# SPDX-License-Identifier: MIT
# The implementations the image checks and measures: this list is their one
# owner.  The image's table (firmware/impls.c) is generated from it, the link
# takes their objects from it, and every reader takes the names from what the
# image prints.  Included by the top Makefile, after tests/peers.mk.
#
# Each entry is NAME:PREFIX:KIND, in the order the image runs them:
#   ours  wordmerge (lib, the standard names): the suite and the benchmark
#         take entry 0 for ours
#   ref   another project's code, renamed PREFIX_memcpy etc. by
#         tools/extract-refs.sh from $(impl_obj_PREFIX): its failures and
#         misaligned accesses are its own (REF-FAILED:, informative)
#   peer  a ref built from a Debian source package (tests/peers.mk): may be
#         labeled, or left out when it does not build (its wm-peers.h)
#   user  a user's file, IMPL="NAME=FILE ..." (below): renamed the same way,
#         checked as ours is (FAIL:, counted in the status)
#   loop  the plain byte loop (firmware/impls.c), measured only; last, the
#         benchmark's cache-warming load takes it
#
# IMPL="NAME=FILE ..."  up to four; FILE a C source, an assembly source (.S,
#   .s) or an RV64 ELF object defining any of memcpy, memmove, memset
#   (docs/impl.md).  IMPL_CFLAGS= adds to the flags sources are built with;
#   IMPL_MUST_ALIGN=1 makes a misaligned access the PMU counts in a user's
#   function fail the run, as one in ours does.
IMPL ?=
IMPL_CFLAGS ?=
IMPL_MUST_ALIGN ?= 0

# PICOLIBC_REFS=0: without picolibc's two builds as references (make test's
# images but those whose tests look at them: tests/run.py says why).
PICOLIBC_REFS ?= 1
$(if $(filter $(PICOLIBC_REFS),0 1),,$(error PICOLIBC_REFS=$(PICOLIBC_REFS): 0 or 1))
PICOLIBC_IMPLS := picolibc-size:picolibc_size:ref picolibc-speed:picolibc_speed:ref
IMPL_LIST := wordmerge:wm:ours $(if $(filter 1,$(PICOLIBC_REFS)),$(PICOLIBC_IMPLS))
impl_obj_picolibc_size := $(IMG_DIR)/obj/picolibc-size.o
impl_obj_picolibc_speed := $(IMG_DIR)/obj/picolibc-speed.o
PEER_IMPLS := $(foreach p,$(PEER_NAMES),$(peer_impl_$(p)):$(p):peer)
IMPL_LIST += $(if $(filter 1,$(PEERS)),$(PEER_IMPLS))
$(foreach p,$(PEER_NAMES),$(eval impl_obj_$(p) := $(IMG_DIR)/obj/peer-$(p).o))
# Every built-in name, those left out too (PEERS=0, PICOLIBC_REFS=0): a user's NAME
# is none of them.
IMPL_BUILTIN := $(foreach e,$(IMPL_LIST) $(if $(filter 1,$(PICOLIBC_REFS)),,$(PICOLIBC_IMPLS)) \
	$(if $(filter 1,$(PEERS)),,$(PEER_IMPLS)),\
	$(word 1,$(subst :, ,$(e)))) byte-loop

# The user's: every error is reported here, before anything is built.
impl_err = $(error impl: error: $(1): $(2))
impl_name = $(firstword $(subst =, ,$(1)))
impl_file = $(patsubst $(impl_name)=%,%,$(1))
impl_len = $(shell printf %s '$(impl_name)' | wc -c)
impl_long = NAME is $(impl_len) characters long; at most 64 (it names the object's files and \
	symbols)
IMPL_NAMES := $(foreach i,$(IMPL),$(if $(filter =%,$(i)),,$(call impl_name,$(i))))
$(if $(word 5,$(IMPL)),$(error impl: error: $(words $(IMPL)) implementations given; at most 4))
define impl_check
$(if $(findstring =,$(1)),,$(call impl_err,$(1),not NAME=FILE))
$(if $(filter =%,$(1)),$(call impl_err,$(1),the NAME before = is empty))
$(if $(or $(findstring ',$(impl_name)),$(shell printf '%s\n' '$(impl_name)' | \
	grep -qx '[a-z0-9_]*' || echo bad)),$(call impl_err,$(1),NAME '$(impl_name)' may hold only \
	a-z 0-9 _))
$(if $(shell [ $(impl_len) -le 64 ] || echo long),$(call impl_err,$(1),$(impl_long)))
$(if $(filter $(impl_name),$(IMPL_BUILTIN)),$(call impl_err,$(1),'$(impl_name)' is a built-in \
	implementation's name (built-in: $(IMPL_BUILTIN))))
$(if $(word 2,$(filter $(impl_name),$(IMPL_NAMES))),$(call impl_err,$(1),NAME '$(impl_name)' is \
	given twice))
$(if $(impl_file),,$(call impl_err,$(1),the FILE after = is empty))
$(if $(wildcard $(impl_file)),,$(call impl_err,$(1),no such file: $(impl_file)))
$(if $(shell test -f $(call shq,$(impl_file)) && test -r $(call shq,$(impl_file)) && echo ok),, \
	$(call impl_err,$(1),$(impl_file) is not a regular file this user can read))
$(if $(filter %.c %.S %.s %.o,$(impl_file)),,$(call impl_err,$(1),$(impl_file) is not a C source \
	(.c) nor assembly (.S or .s) nor an object (.o)))
IMPL_LIST += $(impl_name):user_$(impl_name):user
impl_obj_user_$(impl_name) := $(IMG_DIR)/obj/user-$(impl_name).o
impl_src_$(impl_name) := $(impl_file)
endef
$(foreach i,$(IMPL),$(eval $(call impl_check,$(i))))
IMPL_LIST += byte-loop:byteloop:loop

impl_field = $(word $(2),$(subst :, ,$(1)))
IMPL_OBJS := $(foreach e,$(IMPL_LIST),$(impl_obj_$(call impl_field,$(e),2)))
IMG_REFS += $(IMPL_OBJS)

# The table as the image's C reads it, rewritten only when it changes.
IMPLS_H := $(IMG_DIR)/gen/wm-impls.h
IMG_CFLAGS += -I$(IMG_DIR)/gen -DWM_IMPL_MUST_ALIGN=$(IMPL_MUST_ALIGN)
IMPLS_H_LINES = '\#define WM_NIMPLS $(words $(IMPL_LIST))' \
	'\#define WM_NUSERS $(words $(filter %:user,$(IMPL_LIST)))' '\#define WM_IMPL_LIST(X) \' \
	$(foreach e,$(IMPL_LIST),'	X($(call impl_field,$(e),3), "$(call impl_field,$(e),1)", \
	$(call impl_field,$(e),2)) \') ''
$(IMPLS_H): FORCE
	@mkdir -p $(@D)
	@printf '%s\n' $(IMPLS_H_LINES) | cmp -s - $@ || printf '%s\n' $(IMPLS_H_LINES) > $@
# Made before any object; only those that include it (their .d files) are
# rebuilt when it changes: a user's file added or taken away relinks the
# image, it does not rebuild it.
$(IMG_OBJS): | $(IMPLS_H) $(PEERS_H)
# The users' output sections, which linker/wordmerge.ld includes (from -L), rewritten only when
# they change: none (an empty file) without IMPL=.  Every section of the object but its
# thread-local .tdata* and .tbss* (ld's patterns are fnmatch's, with no "but": each prefix of
# the two names, and each next letter but theirs), which go with the image's; its code first, up
# to the absolute .user.NAME.code_end (the code-size table's total, whatever the symbols' .size
# say), then the rest.
USERS_LD := $(IMG_DIR)/gen/wordmerge-users.ld
IMG_LDFLAGS += -Wl,-L$(IMG_DIR)/gen
users_in = *(.user.$(1).[!t]* .user.$(1).t .user.$(1).t[!bd]* $(foreach p,tb:s tbs:s td:a tda:t \
	tdat:a,.user.$(1).$(word 1,$(subst :, ,$(p))) .user.$(1).$(subst :,[!,$(p))]*))
USERS_LD_LINES = $(foreach n,$(IMPL_NAMES),'.user.$(n) : ALIGN(16) {' \
	'	INPUT_SECTION_FLAGS(SHF_EXECINSTR) $(call users_in,$(n))' \
	'	.user.$(n).code_end = ABSOLUTE(.);' '	$(call users_in,$(n))' '}') ''
$(USERS_LD): FORCE
	@mkdir -p $(@D)
	@printf '%s\n' $(USERS_LD_LINES) | cmp -s - $@ || printf '%s\n' $(USERS_LD_LINES) > $@
$(IMG).elf: $(USERS_LD)

# A user's source, built with the image's compiler and code generation
# flags (not its -Werror: the code is not ours to keep warning-free).  The
# image links machine code: -fno-lto last, over an -flto of IMPL_CFLAGS, whose
# object would hold only the compiler's bytecode, none of the three functions.
IMPL_SRC_CFLAGS = $(IMG_CODEGEN) -Wall -Wextra $(IMPL_CFLAGS) -fno-lto
# The file is the user's: no rule of make's own may remake it (an x.o
# beside an x.s would be rebuilt by the host's as).  The object, as
# compiled or as given, must be one the image can link (tools/elf.py user): an
# RV64 little-endian soft-float relocatable whose memcpy, memmove, memset
# (one at least) are functions, and that needs nothing else (the image is
# freestanding: no C library beneath it).  It is then renamed (IMPL_RENAME).
# The object is built anew on every make, from a private copy of the file in a
# folder of its own, and renamed into place: no stamp or date decides that a
# user's code is current, since no list of what a compile reads (headers, an
# assembler's .include or .incbin, IMPL_CFLAGS=@FILE, a header that comes to
# shadow another) is complete; a C file compiles in about a second.  The
# copy keeps the file's name (the compiler's messages name it), and
# -iquote its folder finds its own headers there first, as for the original
# (and the assembler's -I its .include files).  The object names the file
# where it is, not the copy (-ffile-prefix-map, and the assembler's
# --debug-prefix-map for a .S), so that the same code gives
# the same bytes: it replaces the last only if it differs, and the image is
# relinked only then (a test may be reading the image a build of the same
# folder would otherwise link anew, with another build id).
define impl_rules
$(impl_src_$(1)): ;
$(IMG_DIR)/obj/user/$(1).o: FORCE
	@mkdir -p $$(@D)
	$$(quiet) CC "$(impl_src_$(1)) (IMPL $(1))"
	$$(Q)d=$$$$(mktemp -d $$(@D)/$(1).XXXXXX) && trap 'rm -rf "$$$$d"' EXIT && \
	cp $(call shq,$(impl_src_$(1))) "$$$$d"/$(call shq,$(notdir $(impl_src_$(1)))) && \
	$(if $(filter %.o,$(impl_src_$(1))),cp "$$$$d"/$(call shq,$(notdir $(impl_src_$(1)))) \
		"$$$$d/out.o",{ $$(CC) $$(IMPL_SRC_CFLAGS) -iquote $(call shq,$(dir $(impl_src_$(1)))) \
		-Xassembler -I$(call shq,$(dir $(impl_src_$(1)))) \
		-ffile-prefix-map="$$$$d"=$(call shq,$(patsubst %/,%,$(dir $(impl_src_$(1))))) \
		-Xassembler --debug-prefix-map="$$$$d"=$(call shq,$(patsubst %/,%,$(dir \
		$(impl_src_$(1))))) \
		-c "$$$$d"/$(call shq,$(notdir $(impl_src_$(1)))) -o "$$$$d/out.o" || \
		{ rm -f $$@; echo "impl: error: $(1)=$(impl_src_$(1)): does not compile" \
			"(the compiler's messages above)" >&2; exit 1; }; }) && \
	{ cmp -s "$$$$d/out.o" $$@ || mv -f "$$$$d/out.o" $$@; }
$(IMG_DIR)/obj/user-$(1).o: $(IMG_DIR)/obj/user/$(1).o tools/elf.py firmware/impls.mk
	$$(quiet) REFS $$@
	$$(Q)why=$$$$(/usr/bin/python3 tools/elf.py user $$<) || \
		{ echo "impl: error: $(1)=$(impl_src_$(1)): $$$$why" >&2; exit 1; }; \
	i=$$$$($(CROSS_COMPILE)nm --defined-only $$< | awk '$$$$2 == "i" { print $$$$3 }') && \
	{ [ -z "$$$$i" ] || { echo "impl: error: $(1)=$(impl_src_$(1)): $$$$i: an indirect" \
		"function (STT_GNU_IFUNC), which the image cannot resolve" >&2; exit 1; }; } && \
	l=$$$$($(CROSS_COMPILE)nm --defined-only $$< | awk -v p=user_$(1) '$$(IMPL_RENAME)') && \
	$(OBJCOPY) --prefix-alloc-sections=.user.$(1) $$$$l $$< $$@
endef
# objcopy's arguments that rename a user's object: its global or weak memcpy, memmove, memset
# (a Linux-style __memcpy beside them is a helper like any other) become user_NAME_memcpy etc.,
# the functions under test; every other global symbol, data too, is localized, and it and the
# file's static functions are renamed user_NAME.SYMBOL (a name starting with a dot too; an
# assembler's $ mapping symbols and .L labels are no functions): no NAME holds a dot, so no two
# files' symbols share a name, and user_* names each in the plugin's table and --impl-must-align.
# Its loaded sections are renamed .user.NAME.* (--prefix-alloc-sections), which the link puts
# in an output section .user.NAME of their own (USERS_LD): where each byte of a user's lies is
# the ELF's to say, not what the user's symbols claim (a .size too small).
# nm's u (STB_GNU_UNIQUE) is a global too: a user's unique strcmp took the place of the
# image's own.  An indirect function (nm's i, STT_GNU_IFUNC) is refused before: the image
# resolves none (and ld aborts on one).
IMPL_RENAME = $$2 ~ /^[A-Z]$$/ && $$3 ~ /^mem(cpy|move|set)$$/ { print "--redefine-sym " $$3 "=" \
	p "_" $$3; next } $$3 ~ /^([$$]|\.L)/ { next } $$2 ~ /^([A-Z]|[tu])$$/ { print "--redefine-sym " \
	$$3 "=" p "." $$3 } $$2 ~ /^([A-Z]|u)$$/ { print "--localize-symbol " p "." $$3 }
$(foreach n,$(IMPL_NAMES),$(eval $(call impl_rules,$(n))))
# The user's first: a file that cannot be used fails the build at once.
$(IMG_OBJS): | $(IMPL_NAMES:%=$(IMG_DIR)/obj/user-%.o)
