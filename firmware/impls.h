/* SPDX-License-Identifier: MIT */
/*
 * The implementations the image checks and measures, in one table
 * (impls.c): wordmerge's own (the standard names in this image), picolibc's
 * from Debian's two builds, taken unchanged at build time and renamed with
 * objcopy --redefine-sym (tools/extract-refs.sh) so they link beside ours,
 *   picolibc_size_*:  the default build (libc.a), optimized for size
 *   picolibc_speed_*: --picolibc-buildtype=release, optimized for speed
 * the peers, built from Debian's source packages and renamed the same way
 * (tests/peers.mk, docs/peers.md),
 *   linux_*:  the Linux kernel's riscv assembly (arch/riscv/lib, 6.1)
 *   glibc_*:  glibc's generic C (string/, sysdeps/generic/memcopy.h, 2.36)
 *   newlib_*: newlib's riscv code (libc/machine/riscv, 3.3.0)
 * and, in the benchmark only, the plain byte loops the 2021 series replaced.
 * The image prints every name it uses, so no reader keeps a copy.
 */
#ifndef WM_IMPLS_H
#define WM_IMPLS_H

#include <stddef.h>

#include "../tests/suite.h"

struct wm_impl {
	struct suite_impl f;	/* name and the three functions */
	const char *sym[3];	/* their symbols: memcpy, memmove, memset */
	int in_suite;		/* checked by the suite, not only measured */
};

/* make PEERS=0: an image without the peers (tests/peers.mk). */
#ifndef WM_PEERS
#define WM_PEERS 1
#endif
#define WM_NIMPLS (4 + 3 * WM_PEERS)
extern const struct wm_impl wm_impls[WM_NIMPLS];

#endif /* WM_IMPLS_H */
