/* SPDX-License-Identifier: MIT */
/*
 * Entry of the S-mode payload: only what C cannot do.
 *
 * OpenSBI (fw_jump/fw_dynamic on QEMU) or U-Boot's booti (on boards) enters
 * _start in S-mode with a0 = hart id, a1 = physical address of the device
 * tree, MMU off.  Newer OpenSBI starts only the boot hart here (the others
 * wait in its HSM), older firmware and some boards send every hart: the first
 * hart to win boot_lottery runs fw_main, all others park.
 */
#include "../firmware/csr.h"

	.section .text.entry, "ax"
	.globl _start
_start:
	/*
	 * RISC-V Linux "Image" header (Linux's
	 * Documentation/arch/riscv/boot-image-header.rst), so that U-Boot's
	 * booti accepts the image.  code0 jumps over it.
	 */
	.option push
	.option norvc
	j	entry_boot		/* code0 */
	.word	0			/* code1 */
	.dword	WM_TEXT_OFFSET		/* text_offset: from the start of RAM */
	.dword	_end - _start		/* image_size: all it occupies, BSS and stack too */
	.dword	0			/* flags: bit 0 = 0, little-endian */
	.word	2			/* header version 0.2 */
	.word	0			/* res1 */
	.dword	0			/* res2 */
	.ascii	"RISCV\0\0\0"		/* magic (deprecated, still checked) */
	.ascii	"RSC\x05"		/* magic2 */
	.word	0			/* res3: PE/COFF offset, none */
	.option pop

entry_boot:
	csrw	CSR_SIE, zero
	la	t0, trap_entry
	csrw	CSR_STVEC, t0

	/* Only one hart may clear BSS and run C. */
	la	t0, boot_lottery
	li	t1, 1
	amoadd.w t1, t1, (t0)
	bnez	t1, entry_lost

	/*
	 * The one stack (linker/wordmerge.ld), whatever the hart id: only the
	 * lottery's winner runs C; the other harts park without a stack.
	 */
	la	sp, _stack_end

	/* Clear .tbss and .bss (both 16-byte aligned by the linker script). */
	la	t0, _bss_start
	la	t1, _bss_end
1:	bgeu	t0, t1, 2f
	sd	zero, 0(t0)
	addi	t0, t0, 8
	j	1b
2:
	/* picolibc's thread-local data (errno) is used in place. */
	la	tp, _tls_start

	/* fw_main(hart id, device tree) does not return. */
	call	fw_main

/*
 * A hart that lost the lottery parks.  Its traps come back to the park
 * itself, not to trap_entry: it has no stack of its own, and trap_report()
 * belongs to the boot hart.
 */
entry_lost:
	la	t0, entry_park
	csrw	CSR_STVEC, t0
	.balign 4
entry_park:
	wfi
	j	entry_park

/*
 * Every trap is unexpected in this image but a user's function's return
 * through its gate (firmware/umode.c): save the registers and let
 * trap_report() print the cause and end the run.  4-byte aligned, direct
 * mode (stvec MODE = 0).  On a stack of its own (linker/wordmerge.ld, the
 * boot hart's, the only one that comes here): a trap whose sp is in a guard
 * page or anywhere outside the stack (a call that recursed without end) would
 * fault again on its first store there, and report the trap entry instead of
 * its own pc.  sscratch keeps sp at the trap until it is saved; a trap inside
 * the report starts again at the top (trap_report ends the run then).
 */
	.balign 4
	.globl trap_entry
trap_entry:
	csrw	CSR_SSCRATCH, sp
	la	sp, _trap_stack_end
	addi	sp, sp, -32 * 8
	sd	x1, 1 * 8(sp)
	sd	x3, 3 * 8(sp)
	sd	x4, 4 * 8(sp)
	sd	x5, 5 * 8(sp)
	sd	x6, 6 * 8(sp)
	sd	x7, 7 * 8(sp)
	sd	x8, 8 * 8(sp)
	sd	x9, 9 * 8(sp)
	sd	x10, 10 * 8(sp)
	sd	x11, 11 * 8(sp)
	sd	x12, 12 * 8(sp)
	sd	x13, 13 * 8(sp)
	sd	x14, 14 * 8(sp)
	sd	x15, 15 * 8(sp)
	sd	x16, 16 * 8(sp)
	sd	x17, 17 * 8(sp)
	sd	x18, 18 * 8(sp)
	sd	x19, 19 * 8(sp)
	sd	x20, 20 * 8(sp)
	sd	x21, 21 * 8(sp)
	sd	x22, 22 * 8(sp)
	sd	x23, 23 * 8(sp)
	sd	x24, 24 * 8(sp)
	sd	x25, 25 * 8(sp)
	sd	x26, 26 * 8(sp)
	sd	x27, 27 * 8(sp)
	sd	x28, 28 * 8(sp)
	sd	x29, 29 * 8(sp)
	sd	x30, 30 * 8(sp)
	sd	x31, 31 * 8(sp)
	csrr	t0, CSR_SSCRATCH
	sd	t0, 2 * 8(sp)		/* sp at the trap */
	la	tp, _tls_start		/* a user's function in U-mode may have changed it */
	mv	a0, sp
	call	trap_report		/* does not return */
	j	entry_park

	.data
	.balign 4
boot_lottery:
	.word	0
