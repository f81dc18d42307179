/* SPDX-License-Identifier: MIT */
/*
 * A byte-loop memset that reads a byte of a table of its own in a section named .tbl: one of
 * the user's sections like any other, not thread-local data (.tdata, .tbss) for starting so.
 */
	.section .tbl, "a"
	.p2align 3
fill:	.byte 0, 0, 0, 0, 0, 0, 0, 0

	.text
	.globl	memset
	.type	memset, @function
memset:
	la	t2, fill
	lbu	t3, 0(t2)
	mv	t0, a0
1:	beqz	a2, 2f
	sb	a1, 0(t0)
	addi	t0, t0, 1
	addi	a2, a2, -1
	j	1b
2:	ret
	.size	memset, . - memset
