/* SPDX-License-Identifier: MIT */
/*
 * The AArch64 test image's entry and exception vectors: what C cannot do.
 * QEMU -M virt enters a bare ELF at EL1 (no EL2 or EL3 unless asked), with
 * SCTLR_EL1.EE set for a big-endian ELF.  Alignment checking (SCTLR_EL1.A)
 * goes on before the first C instruction and stays on for the whole run
 * (but in the A64_ALIGN_CHECK=0 control, main.c); the MMU, whose Normal
 * memory is what A=1 makes trap, is C's (main.c).
 */
	.section .text.start, "ax"
	.global _start
_start:
	mrs	x1, sctlr_el1
	orr	x1, x1, #(1 << 1)		/* A: alignment fault checking */
	orr	x1, x1, #(1 << 3)		/* SA: stack alignment checking */
	msr	sctlr_el1, x1
	mov	x1, #(3 << 20)			/* CPACR_EL1.FPEN: FP and SIMD at EL1 */
	msr	cpacr_el1, x1
	adr	x1, a64_vectors
	msr	vbar_el1, x1
	isb
	ldr	x1, =_stack_end
	mov	sp, x1
	ldr	x1, =_bss_start
	ldr	x2, =_bss_end
1:	cmp	x1, x2
	b.hs	2f
	str	xzr, [x1], #8
	b	1b
2:	bl	a64_main			/* x0: what QEMU left there (a DTB or 0) */
3:	wfe
	b	3b

/*
 * Sixteen vectors of 0x80 bytes: each saves x0 and x1 and passes its number
 * (0-3 current EL with SP_EL0, 4-7 with SP_ELx, 8-15 lower ELs; sync, IRQ,
 * FIQ, SError in each) to a64_trap(kind, regs), which returns only for a
 * fault it chose to step over (the control's): then every x register comes
 * back and eret goes on at ELR_EL1, which it may have moved.
 */
	.macro	vector kind
	.balign	0x80
	sub	sp, sp, #(32 * 8)
	stp	x0, x1, [sp]
	mov	x0, #\kind
	b	a64_vector_common
	.endm

	.balign	0x800
a64_vectors:
	.irp	k, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	vector	\k
	.endr

/* x2..x29 to the frame or back from it: op is stp or ldp, one list for both. */
	.macro	pairs op
	\op	x2, x3, [sp, #(2 * 8)]
	\op	x4, x5, [sp, #(4 * 8)]
	\op	x6, x7, [sp, #(6 * 8)]
	\op	x8, x9, [sp, #(8 * 8)]
	\op	x10, x11, [sp, #(10 * 8)]
	\op	x12, x13, [sp, #(12 * 8)]
	\op	x14, x15, [sp, #(14 * 8)]
	\op	x16, x17, [sp, #(16 * 8)]
	\op	x18, x19, [sp, #(18 * 8)]
	\op	x20, x21, [sp, #(20 * 8)]
	\op	x22, x23, [sp, #(22 * 8)]
	\op	x24, x25, [sp, #(24 * 8)]
	\op	x26, x27, [sp, #(26 * 8)]
	\op	x28, x29, [sp, #(28 * 8)]
	.endm

a64_vector_common:
	pairs	stp
	str	x30, [sp, #(30 * 8)]
	mov	x1, sp
	bl	a64_trap
	pairs	ldp
	ldr	x30, [sp, #(30 * 8)]
	ldp	x0, x1, [sp]
	add	sp, sp, #(32 * 8)
	eret
