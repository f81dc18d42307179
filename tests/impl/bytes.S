/* SPDX-License-Identifier: MIT */
/* A user's memcpy and memset in assembly, byte loops; no memmove (tests.cfg). */
	.text
	.globl	memcpy
	.type	memcpy, @function
memcpy:
	mv	t0, a0
	beqz	a2, 2f
1:	lbu	t1, 0(a1)
	sb	t1, 0(t0)
	addi	a1, a1, 1
	addi	t0, t0, 1
	addi	a2, a2, -1
	bnez	a2, 1b
2:	ret
	.size	memcpy, . - memcpy

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
