/* SPDX-License-Identifier: MIT */
/*
 * bytes.S (a user's byte-loop memcpy and memset) beside a global strcmp of
 * its own that the GNU extensions make unique (STB_GNU_UNIQUE) or, -DIFUNC,
 * an indirect function (STT_GNU_IFUNC): a helper like any other, made local
 * and renamed, never the image's strcmp (tests.cfg).  It answers "differ" to
 * everything, so an image that called it would take no benchmark mode for
 * its own.
 */
#include "bytes.S"

	.globl	strcmp
#ifdef IFUNC
	.type	strcmp, @gnu_indirect_function
#else
	.type	strcmp, @gnu_unique_object
#endif
strcmp:
	li	a0, 1
	ret
	.size	strcmp, . - strcmp
