/* SPDX-License-Identifier: MIT */
/*
 * A stand-in for the test image, for the tests of how run-qemu.sh ends a
 * run (tests/tests.cfg, section "bad input"): an S-mode payload at
 * 0x80200000 that prints through the SBI legacy console and then waits
 * forever (wfi), never ending QEMU by itself.  tests/stand-in/make-image
 * builds it:
 *   (default)        prints the image's first line, then nothing
 *   -DSILENT         prints nothing at all
 *   -DEXIT_STATUS=n  prints the first line and a whole run of no group:
 *                    "BANNER: build-id " and its sealed "EXIT: STATUS=n ..."
 *                    (make-image computes its seal, EXIT_SEAL)
 *   -DSHUTDOWN       prints the first line, then ends QEMU (SBI shutdown)
 *                    with no EXIT: line
 */
#define STR_(x) #x
#define STR(x) STR_(x)

	.section .text
	.globl _start
_start:
#ifndef SILENT
	la	s0, message
1:	lbu	a0, 0(s0)
	beqz	a0, 2f
	li	a7, 1		/* SBI legacy console_putchar */
	ecall
	addi	s0, s0, 1
	j	1b
#endif
2:
#ifdef SHUTDOWN
	li	a7, 0x53525354	/* SBI system reset (SRST): shutdown, no reason */
	li	a6, 0
	li	a0, 0
	li	a1, 0
	ecall
#endif
3:	wfi
	j	3b

	.section .rodata
message:
	.ascii	"wordmerge test image: stand-in (tests/stand-in/image.S)\n"
#ifdef EXIT_STATUS
	.ascii	"BANNER: build-id \n"
	.ascii	"EXIT: STATUS=" STR(EXIT_STATUS) " lines=1 crc=" STR(EXIT_SEAL) "\n"
#endif
	.byte	0
