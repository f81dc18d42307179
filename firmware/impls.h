/* SPDX-License-Identifier: MIT */
/*
 * The implementations the image checks and measures, in one table
 * (impls.c), made from firmware/impls.mk's list: wordmerge's own (the
 * standard names in this image); picolibc's from Debian's two builds, taken
 * unchanged at build time and renamed with objcopy --redefine-sym
 * (tools/extract-refs.sh) so they link beside ours,
 *   picolibc_size_*:  the default build (libc.a), optimized for size
 *   picolibc_speed_*: --picolibc-buildtype=release, optimized for speed
 * the peers, built from Debian's source packages and renamed the same way
 * (tests/peers.mk, docs/peers.md; a peer that does not build is left out,
 * and one whose code is not the known one labeled),
 *   linux_*:  the Linux kernel's riscv assembly (arch/riscv/lib, 6.1)
 *   glibc_*:  glibc's generic C (string/, sysdeps/generic/memcopy.h, 2.36)
 *   newlib_*: newlib's riscv code (libc/machine/riscv, 3.3.0)
 * the user's (make IMPL=NAME=FILE, run-qemu.sh --impl; docs/impl.md),
 *   user_NAME_*
 * and, in the benchmark only, the plain byte loops the 2021 series replaced.
 * The image prints every name it uses, so no reader keeps a copy.
 */
#ifndef WM_IMPLS_H
#define WM_IMPLS_H

#include <stddef.h>

#include "../tests/suite.h"
#include "wm-impls.h"	/* WM_NIMPLS, WM_IMPL_LIST: made by firmware/impls.mk */
#include "wm-peers.h"	/* what the image says of the peers: made by tests/peers.mk */

enum wm_role {
	WM_OURS,	/* wordmerge: every failure and misaligned access counts */
	WM_REF,		/* another project's: its failures are its own, informative */
	WM_USER,	/* the user's: checked as ours (FAIL:); misaligned accesses
			   count with make IMPL_MUST_ALIGN=1 */
	WM_BENCH_ONLY,	/* the byte loop: measured, not checked */
};

struct wm_impl {
	struct suite_impl f;	/* name and the three functions (a user's may be NULL) */
	const char *sym[3];	/* their symbols: memcpy, memmove, memset */
	enum wm_role role;
};

extern const struct wm_impl wm_impls[WM_NIMPLS];

/*
 * Implementation k as the suite calls it: a user's functions through the gate
 * to U-mode (firmware/umode.c), the others as they are.
 */
struct suite_impl impl_suite(int k);

/* Whether a misaligned access counted in the implementation named fails the run. */
int impl_must_align(const char *name);

#endif /* WM_IMPLS_H */
