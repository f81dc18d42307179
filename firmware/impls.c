// SPDX-License-Identifier: MIT
/* The implementations' table (impls.h). */
#include <stdint.h>
#include <string.h>

#include "impls.h"
#include "umode.h"

/*
 * The table's entries come from firmware/impls.mk's list (the generated
 * wm-impls.h): X(KIND, name, prefix) each.  A reference's and a user's three
 * functions are renamed PREFIX_memcpy etc. (tools/extract-refs.sh), and the
 * same prefix gives the symbols the benchmark announces.  A user's file may
 * define only some of the three: its declarations are weak, so that one it
 * lacks is a null pointer, which the suite and the benchmark skip.
 */
#define DECL_FNS(p, attr)						\
	attr void *p##_memcpy(void *, const void *, size_t);		\
	attr void *p##_memmove(void *, const void *, size_t);		\
	attr void *p##_memset(void *, int, size_t);
#define DECL_ours(p)
#define DECL_loop(p)
#define DECL_ref(p) DECL_FNS(p, )
#define DECL_peer(p) DECL_FNS(p, WM_PEER_ATTR_##p)	/* weak: left out (wm-peers.h) */
#define DECL_user(p) DECL_FNS(p, __attribute__((weak)))
#define DECL(kind, name, p) DECL_##kind(p)
WM_IMPL_LIST(DECL)

/*
 * The plain byte loops: the generic code the 2021 series replaced.  The
 * image is built with -fno-tree-loop-distribute-patterns, so they stay loops
 * (not calls to memcpy); noinline keeps each a function of its own.
 */
static __attribute__((noinline)) void *byteloop_memcpy(void *dst, const void *src,
							size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	while (n--)
		*d++ = *s++;
	return dst;
}

static __attribute__((noinline)) void *byteloop_memmove(void *dst, const void *src,
							 size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if ((uintptr_t)d <= (uintptr_t)s) {
		while (n--)
			*d++ = *s++;
	} else {
		d += n;
		s += n;
		while (n--)
			*--d = *--s;
	}
	return dst;
}

static __attribute__((noinline)) void *byteloop_memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;

	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}

/*
 * Each KIND's entry: wordmerge's functions carry the standard names, the
 * others their prefix; every one but a reference's is the suite's own
 * (FAIL: lines, counted in the status).
 */
#define ROLE_ours WM_OURS
#define ROLE_ref WM_REF
#define ROLE_peer WM_REF
#define ROLE_user WM_USER
#define ROLE_loop WM_BENCH_ONLY
#define FNS_ours(p) memcpy, memmove, memset
#define SYMS_ours(p) "memcpy", "memmove", "memset"
#define FNS_other(p) p##_memcpy, p##_memmove, p##_memset
#define SYMS_other(p) #p "_memcpy", #p "_memmove", #p "_memset"
#define FNS_ref FNS_other
#define FNS_peer FNS_other
#define FNS_user FNS_other
#define FNS_loop FNS_other
#define SYMS_ref SYMS_other
#define SYMS_peer SYMS_other
#define SYMS_user SYMS_other
#define SYMS_loop SYMS_other
#define NOTE_ours(p) 0
#define NOTE_ref(p) 0
#define NOTE_user(p) 0
#define NOTE_loop(p) 0
#define NOTE_peer(p) WM_PEER_NOTE_##p	/* its label, or 0 (wm-peers.h) */
#define ENTRY(kind, name, p)						\
	{ { name, FNS_##kind(p), ROLE_##kind != WM_REF, NOTE_##kind(p) }, { SYMS_##kind(p) },	\
	  ROLE_##kind },

/* In the list's order: ours first, the byte loop last (firmware/impls.mk). */
const struct wm_impl wm_impls[WM_NIMPLS] = { WM_IMPL_LIST(ENTRY) };

/*
 * A user's functions as the suite calls them: through the gate, in U-mode
 * (firmware/umode.c); a function the file lacks stays a null pointer.  Named
 * gate_user_NAME_*: no symbol of the image's starts with a user's prefix, which
 * the code-size table and the plugin's take for the user's.
 */
#define GATE_FNS(p)										\
	static void *gate_##p##_memcpy(void *d, const void *s, size_t n)				\
	{											\
		return (void *)umode_call((uintptr_t)p##_memcpy, (uintptr_t)d, (uintptr_t)s, n); \
	}											\
	static void *gate_##p##_memmove(void *d, const void *s, size_t n)				\
	{											\
		return (void *)umode_call((uintptr_t)p##_memmove, (uintptr_t)d, (uintptr_t)s, n); \
	}											\
	static void *gate_##p##_memset(void *d, int c, size_t n)					\
	{											\
		return (void *)umode_call((uintptr_t)p##_memset, (uintptr_t)d, (unsigned long)c, n); \
	}
#define GATE_user(p) GATE_FNS(p)
#define GATE_ours(p)
#define GATE_ref(p)
#define GATE_peer(p)
#define GATE_loop(p)
#define GATE(kind, name, p) GATE_##kind(p)
WM_IMPL_LIST(GATE)

struct suite_impl impl_suite(int k)
{
	struct suite_impl f = wm_impls[k].f;
	int i = 0;

#define SWAP_user(p)								\
	if (i == k) {								\
		f.cpy = f.cpy ? gate_##p##_memcpy : NULL;				\
		f.move = f.move ? gate_##p##_memmove : NULL;			\
		f.set = f.set ? gate_##p##_memset : NULL;				\
	}
#define SWAP_ours(p)
#define SWAP_ref(p)
#define SWAP_peer(p)
#define SWAP_loop(p)
#define SWAP(kind, name, p) SWAP_##kind(p) i++;
	WM_IMPL_LIST(SWAP)
	return f;
}

int impl_must_align(const char *name)
{
	int k;

	for (k = 0; k < WM_NIMPLS; k++)
		if (strcmp(wm_impls[k].f.name, name) == 0)
			return wm_impls[k].role == WM_OURS ||
			       (wm_impls[k].role == WM_USER && WM_IMPL_MUST_ALIGN);
	return 0;
}
