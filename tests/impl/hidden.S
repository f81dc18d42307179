/* SPDX-License-Identifier: MIT */
/*
 * A byte-loop memcpy whose misaligned loads hide behind names the build does not give:
 * a global helper whose name starts with a dot, and code in a writable data section
 * under a label that names lib's memcpy.  Both are this file's, wherever they lie.
 */
	.text
	.globl	memcpy
	.type	memcpy, @function
memcpy:
	mv	t0, a0
	tail	.helper
	.size	memcpy, . - memcpy

	.globl	.helper
	.type	.helper, @function
.helper:
	li	t3, 9
	bltu	a2, t3, 1f
	ld	t2, 1(a1)
1:	j	wm_memcpy
	.size	.helper, . - .helper

	.section .data.code, "aw"
	.p2align 2
wm_memcpy:
	li	t3, 9
	bltu	a2, t3, 1f
	ld	t2, 1(a1)
1:	beqz	a2, 2f
	lbu	t1, 0(a1)
	sb	t1, 0(t0)
	addi	a1, a1, 1
	addi	t0, t0, 1
	addi	a2, a2, -1
	j	1b
2:	ret
