// SPDX-License-Identifier: MIT
/*
 * A user's functions (make IMPL=, docs/impl.md) run in U-mode, under
 * mmu.c's map: they reach their own code, the buffers they are given, a
 * stack of their own and the gate below, not the console, the SBI, the
 * finisher or the image's state, so that nothing their code does can speak
 * for the image.  umode_call() saves the S-mode caller's registers and enters
 * the gate with sret; the gate calls the function, reading the counters
 * around it itself (the benchmark's TIME_CALL, in U-mode: the switch of
 * modes is not counted), and comes back with ecall, which trap.c hands to
 * umode_trap(); that restores the caller's registers and returns from
 * umode_call().  Any other trap from U-mode is reported as a trap of the case
 * the image was running.
 */
#include <stdint.h>
#include <stdio.h>

#include "csr.h"
#include "firmware.h"
#include "mmu.h"
#include "protocol.h"
#include "umode.h"

struct umode_counts umode_counts;

/* ra, sp, s0..s11 and satp of umode_call()'s caller. */
unsigned long umode_saved[15];

unsigned long umode_enter(unsigned long a0, unsigned long a1, unsigned long a2, uintptr_t fn,
			 unsigned long satp);
__attribute__((noreturn)) void umode_leave(unsigned long a0);
extern char umode_gate[], umode_gate_ret[], _umode_stack_end[];

#define SAVE_REGS(op)									\
	"	" op " ra, 0(t0)\n	" op " sp, 8(t0)\n	" op " s0, 16(t0)\n"	\
	"	" op " s1, 24(t0)\n	" op " s2, 32(t0)\n	" op " s3, 40(t0)\n"	\
	"	" op " s4, 48(t0)\n	" op " s5, 56(t0)\n	" op " s6, 64(t0)\n"	\
	"	" op " s7, 72(t0)\n	" op " s8, 80(t0)\n	" op " s9, 88(t0)\n"	\
	"	" op " s10, 96(t0)\n	" op " s11, 104(t0)\n"
/*
 * umode_enter(a0, a1, a2, fn, satp): the map on (the benchmark runs bare),
 * U-mode's stack, sret to the gate with fn in s4.  umode_leave(a0): the
 * caller's registers and satp back, a0 returned from umode_enter().  Neither
 * is C: they switch stacks and modes.
 */
__asm__(".pushsection .text.umode_enter, \"ax\", @progbits\n"
	".p2align 2\n"
	".globl umode_enter\n"
	".type umode_enter, @function\n"
	"umode_enter:\n"
	"	la t0, umode_saved\n"
	SAVE_REGS("sd")
	"	csrr t1, " CSR_STR(CSR_SATP) "\n"
	"	sd t1, 112(t0)\n"
	"	csrw " CSR_STR(CSR_SATP) ", a4\n"
	"	mv s4, a3\n"
	"	la sp, _umode_stack_end\n"
	"	la t1, umode_gate\n"
	"	csrw " CSR_STR(CSR_SEPC) ", t1\n"
	"	li t1, " CSR_STR(SSTATUS_SPP) "\n"
	"	csrc " CSR_STR(CSR_SSTATUS) ", t1\n"
	"	sret\n"
	".size umode_enter, . - umode_enter\n"
	".globl umode_leave\n"
	".type umode_leave, @function\n"
	"umode_leave:\n"
	"	la t0, umode_saved\n"
	"	ld t1, 112(t0)\n"
	"	csrw " CSR_STR(CSR_SATP) ", t1\n"
	SAVE_REGS("ld")
	"	ret\n"
	".size umode_leave, . - umode_leave\n"
	".popsection\n");

/*
 * The gate, in U-mode, in a page of its own (linker/wordmerge.ld): time,
 * cycle and instret read around the call as TIME_CALL does, into s1..s3 and
 * s5..s7, which the function keeps (the calling convention); tools/cycles.py
 * takes its two instret reads for a harness's.  umode_gate_empty is the
 * benchmark's function of one instruction for U-mode's overhead.
 */
__asm__(".pushsection .umode_gate, \"ax\", @progbits\n"
	".p2align 2\n"
	".globl umode_gate\n"
	".type umode_gate, @function\n"
	"umode_gate:\n"
	"	rdtime s1\n"
	"	rdcycle s2\n"
	"	rdinstret s3\n"
	"	jalr s4\n"
	"	rdinstret s5\n"
	"	rdcycle s6\n"
	"	rdtime s7\n"
	"umode_gate_ret:\n"
	"	ecall\n"
	".size umode_gate, . - umode_gate\n"
	".globl umode_gate_empty\n"
	".type umode_gate_empty, @function\n"
	"umode_gate_empty:\n"
	"	ret\n"
	".size umode_gate_empty, . - umode_gate_empty\n"
	".popsection\n");

unsigned long umode_call(uintptr_t fn, unsigned long a0, unsigned long a1, unsigned long a2)
{
	if (!mmu_satp()) {
		proto_line(TAG_FAIL, "no Sv39 page table: a user's functions run only in U-mode, "
			   "which needs one\n");
		fw_exit(STATUS_NO_FDT);
	}
	return umode_enter(a0, a1, a2, fn, mmu_satp());
}

void umode_trap(const unsigned long *regs, unsigned long cause)
{
	if (cause != CAUSE_USER_ECALL || csr_read(CSR_SEPC) != (uintptr_t)umode_gate_ret)
		return;
	/* regs[i] is x<i>: s1 = x9, s2..s7 = x18..x23. */
	umode_counts.tim = regs[23] - regs[9];
	umode_counts.cyc = regs[22] - regs[18];
	umode_counts.ins = regs[21] - regs[19];
	umode_leave(regs[10]);
}
