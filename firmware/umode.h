/* SPDX-License-Identifier: MIT */
/* umode.c: a user's functions called in U-mode, through the gate. */
#ifndef WM_UMODE_H
#define WM_UMODE_H

#include <stdint.h>

/* The counters the gate read around the last call, in U-mode: cycle, instret, time. */
struct umode_counts {
	unsigned long cyc, ins, tim;
};
extern struct umode_counts umode_counts;

/*
 * fn(a0, a1, a2) in U-mode under mmu.c's map; returns its a0.  Without a map
 * (no Sv39) the run ends with STATUS_NO_FDT: a user's code does not run in
 * S-mode.  A trap in it other than its return to the gate is trap.c's report.
 */
unsigned long umode_call(uintptr_t fn, unsigned long a0, unsigned long a1, unsigned long a2);

/* The gate's own function of one instruction (ret): the benchmark's overhead. */
void umode_gate_empty(void);

/*
 * bench.c, where cycle and instret count instructions exactly (in lockstep,
 * as under QEMU -icount): every call after this one, of the image's own empty
 * function, must read the counters exactly as far from S's reads as it did.
 */
void umode_exact(void);

/*
 * trap.c, on a trap from U-mode: the gate's ecall returns from umode_call()
 * (this does not return then), unless the gate's counts are not the call's;
 * any other is the trap report's.
 */
void umode_trap(const unsigned long *regs, unsigned long cause);

/* trap.c's report of that trap: why its counts were refused, if they were (returns 1). */
int umode_report(void);

#endif /* WM_UMODE_H */
