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
 *
 * The gate's reads are in registers the function can write, and it can jump
 * to the gate's ecall itself: so S reads the counters too, before the sret
 * and after the ecall, outside the gate's window, and takes the gate's counts
 * only inside its own.  Where the counts are instructions exactly
 * (umode_exact()), an honest call's reads lie a fixed number of instructions
 * from S's, and any other gap is a forgery; elsewhere the window bounds them
 * (a function can still claim less than it ran, inside it).
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
/* S's reads just before the sret (umode_enter): time, cycle, instret. */
unsigned long umode_before[3];

/* The function called, which a refused return names. */
static uintptr_t umode_fn;
/*
 * The gaps from S's reads (time, cycle, instret) to the gate's first, and from
 * the gate's last to S's after the ecall: the last call's, and, once
 * umode_exact() has measured them, every honest call's.
 */
static struct gaps {
	unsigned long in[3], out[3];
} last, honest;
static int exact;
/* Why umode_trap() refused the last return through the gate, for umode_report(). */
static char refused[256];

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
 * U-mode's stack, S's reads in umode_before (instret the last before the
 * sret), sret to the gate with fn in s4.  umode_leave(a0): the
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
	"	la t0, umode_before\n"
	"	rdtime t1\n"
	"	sd t1, 0(t0)\n"
	"	rdcycle t1\n"
	"	sd t1, 8(t0)\n"
	"	rdinstret t1\n"
	"	sd t1, 16(t0)\n"
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
	umode_fn = fn;
	return umode_enter(a0, a1, a2, fn, mmu_satp());
}

void umode_exact(void)
{
	umode_call((uintptr_t)umode_gate_empty, 0, 0, 0);
	honest = last;
	exact = 1;
}

/* Why the gate's reads g0 (before the call) and g1 (after) cannot be the call's, or 0. */
static int forged(const unsigned long *g0, const unsigned long *g1, const unsigned long *after)
{
	static const char *const name[] = { "time", "cycle", "instret" };
	int k;

	for (k = 0; k < 3; k++) {
		const unsigned long before = umode_before[k], in = g0[k] - before;
		const unsigned long out = after[k] - g1[k];

		last.in[k] = in;
		last.out[k] = out;
		if (!(before <= g0[k] && g0[k] <= g1[k] && g1[k] <= after[k]))
			return snprintf(refused, sizeof(refused), "its %s %lu..%lu is not inside "
					"the image's %lu..%lu, read before the sret and after the "
					"ecall", name[k], g0[k], g1[k], before, after[k]);
		/* time: of the timebase, not instructions; its bounds are all it has */
		if (exact && k && (in != honest.in[k] || out != honest.out[k]))
			return snprintf(refused, sizeof(refused), "its %s %lu..%lu lies %lu and "
					"%lu from the image's reads before the sret and after the "
					"ecall, where every honest call's lies %lu and %lu",
					name[k], g0[k], g1[k], in, out, honest.in[k],
					honest.out[k]);
	}
	return 0;
}

void umode_trap(const unsigned long *regs, unsigned long cause)
{
	/* S's reads after the ecall, first: the way here is the same on every return. */
	const unsigned long ins = csr_read(CSR_INSTRET), cyc = csr_read(CSR_CYCLE);
	const unsigned long after[3] = { csr_read(CSR_TIME), cyc, ins };

	if (cause != CAUSE_USER_ECALL || csr_read(CSR_SEPC) != (uintptr_t)umode_gate_ret)
		return;
	/* regs[i] is x<i>: the gate's reads in s1..s3 = x9, x18, x19 and s5..s7 = x21..x23. */
	const unsigned long g0[3] = { regs[9], regs[18], regs[19] };
	const unsigned long g1[3] = { regs[23], regs[22], regs[21] };

	if (forged(g0, g1, after))
		return;		/* trap.c reports it, umode_report() says why */
	umode_counts.tim = g1[0] - g0[0];
	umode_counts.cyc = g1[1] - g0[1];
	umode_counts.ins = g1[2] - g0[2];
	umode_leave(regs[10]);
}

int umode_report(void)
{
	if (!refused[0])
		return 0;
	proto_line(TAG_TRAP, "the gate's counts around fn=0x%lx are forged: %s\n",
		   (unsigned long)umode_fn, refused);
	return 1;
}
