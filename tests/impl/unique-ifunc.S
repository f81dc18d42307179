/* SPDX-License-Identifier: MIT */
/*
 * A user's memset (a byte loop) beside a global strcmp of its own that the
 * GNU extensions make unique (STB_GNU_UNIQUE) or, -DIFUNC, an indirect
 * function (STT_GNU_IFUNC): a helper like any other, made local and renamed,
 * never the image's strcmp (tests.cfg).  It answers "differ" to everything,
 * so an image that called it would take no benchmark mode for its own.
 */
	.text
	.globl	memset
	.type	memset, @function
memset:
	mv	t0, a0
	beqz	a2, 2f
1:	sb	a1, 0(t0)
	addi	t0, t0, 1
	addi	a2, a2, -1
	bnez	a2, 1b
2:	ret
	.size	memset, . - memset

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
