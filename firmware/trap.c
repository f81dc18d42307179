// SPDX-License-Identifier: MIT
/*
 * The S-mode trap handler: boot/entry.S saves the registers and calls
 * trap_report().  Nothing in this image should trap (no interrupts are
 * enabled, and a misaligned access on a core that traps is handled by
 * OpenSBI in M-mode, not here), so any trap is a failure: print what and
 * where, then end the run with STATUS_TRAP.  Addresses are printed raw: the
 * image carries no symbol table.  run-qemu.sh shows them as sym+offset
 * (tools/elf.py symbolize, with the ELF it boots), and the same command
 * turns a board's serial log plus the ELF into that (docs/boards.md).
 */
#include <stdio.h>

#include "csr.h"
#include "firmware.h"
#include "sbi.h"
#include "protocol.h"
#include "umode.h"

static const char *trap_cause_name(unsigned long cause)
{
	static const char *const names[] = {
		[CAUSE_MISALIGNED_FETCH] = "instruction address misaligned",
		[CAUSE_FETCH_ACCESS] = "instruction access fault",
		[CAUSE_ILLEGAL_INSN] = "illegal instruction",
		[CAUSE_BREAKPOINT] = "breakpoint",
		[CAUSE_MISALIGNED_LOAD] = "load address misaligned",
		[CAUSE_LOAD_ACCESS] = "load access fault",
		[CAUSE_MISALIGNED_STORE] = "store/AMO address misaligned",
		[CAUSE_STORE_ACCESS] = "store/AMO access fault",
		[CAUSE_USER_ECALL] = "environment call from U-mode",
		[CAUSE_SUPERVISOR_ECALL] = "environment call from S-mode",
		[CAUSE_FETCH_PAGE_FAULT] = "instruction page fault",
		[CAUSE_LOAD_PAGE_FAULT] = "load page fault",
		[CAUSE_STORE_PAGE_FAULT] = "store/AMO page fault",
	};

	if (cause >> SCAUSE_INTERRUPT_BIT)
		return "interrupt";
	if (cause < sizeof(names) / sizeof(names[0]) && names[cause])
		return names[cause];
	return "unknown";
}

/* A word in hex through the legacy console alone (no printf, no buffer). */
static void trap_raw_hex(unsigned long v)
{
	int shift;

	sbi_legacy_putchar('0');
	sbi_legacy_putchar('x');
	for (shift = (int)sizeof(v) * 8 - 4; shift >= 0; shift -= 4)
		sbi_legacy_putchar("0123456789abcdef"[(v >> shift) & 15]);
}

static void trap_raw_puts(const char *s)
{
	while (*s)
		sbi_legacy_putchar(*s++);
}

/*
 * A trap while one is being reported, or while the run ends: printf or the
 * exit path itself may be what faulted.  One line through the legacy
 * console (protocol.h's tags, not its printf writer), then out: the finisher once (a trap in that
 * write comes back here a third time and only shuts down), else SBI.
 */
static __attribute__((noreturn)) void trap_nested(unsigned long cause, int nesting)
{
	trap_raw_puts("\n" TAG_TRAP ": a trap inside the trap report or the exit path: scause=");
	trap_raw_hex(cause);
	trap_raw_puts(" sepc=");
	trap_raw_hex(csr_read(CSR_SEPC));
	trap_raw_puts("; ending the run\n" TAG_EXIT ": STATUS=2\n");
	if (nesting == 1)
		platform_exit_raw(STATUS_TRAP);
	sbi_system_reset(0, 1);
	sbi_legacy_shutdown();
	for (;;)
		__asm__ volatile("wfi");
}

int (*trap_context)(char *buf, size_t size);

/*
 * regs[i] is x<i> at the trap (regs[0] unused).  A trap from U-mode is a
 * user's function's (firmware/umode.c): its return through the gate goes back
 * to its caller, anything else is reported here with the case.
 */
void trap_report(const unsigned long *regs)
{
	static volatile int nesting;
	unsigned long cause = csr_read(CSR_SCAUSE);
	int from_user = !(csr_read(CSR_SSTATUS) & SSTATUS_SPP);

	if (from_user)
		umode_trap(regs, cause);	/* the gate's ecall: back to the caller */
	if (nesting++)
		trap_nested(cause, nesting - 1);
	printf("\n");
	proto_line(TAG_TRAP, "scause=0x%lx (%s) ", cause, trap_cause_name(cause));
#if WM_TRAP_SELFTEST == 3
	/* make TRAP_SELFTEST=3: the report itself traps (tests/tests.cfg: exit-nested-trap). */
	__asm__ volatile("unimp");
#endif
	printf("sepc=0x%lx stval=0x%lx\n", csr_read(CSR_SEPC), csr_read(CSR_STVAL));
	proto_line(TAG_TRAP, "ra=0x%lx sp=0x%lx a0=0x%lx a1=0x%lx a2=0x%lx\n", regs[1], regs[2],
	       regs[10], regs[11], regs[12]);
	if (from_user && !umode_report())
		proto_line(TAG_TRAP, "in U-mode, where a user's functions run: they may touch "
			   "their own code, stack and the buffers they are given, and nothing else "
			   "(no SBI, no console, no finisher, none of the image's memory)\n");
	/* The trap entry runs on a stack of its own (boot/entry.S), so that this
	 * report still comes, with its own sepc, when sp was not in the stack. */
	extern char _stack_start[], _stack_end[], _umode_stack_start[], _umode_stack_end[];
	char *lo = from_user ? _umode_stack_start : _stack_start;
	char *hi = from_user ? _umode_stack_end : _stack_end;
	if (regs[2] < (unsigned long)lo || regs[2] > (unsigned long)hi)
		proto_line(TAG_TRAP, "sp=0x%lx is outside the stack 0x%lx..0x%lx: it overflowed "
			   "(a call that recursed without end?) or sp was overwritten\n", regs[2],
			   (unsigned long)lo, (unsigned long)hi);
	/* A page fault on the guard pages names the suite's case. */
	char now[160];
	if (trap_context && trap_context(now, sizeof(now)))
		proto_line(TAG_TRAP, "during %s\n", now);
	proto_line(TAG_FAIL, "unexpected trap\n");
	proto_exit(STATUS_TRAP);
	platform_exit(STATUS_TRAP);
}

/*
 * Executes an illegal instruction on purpose, so that a test can check the
 * trap report (make TRAP_SELFTEST=1, 2 or 3).  noinline: it must be the symbol that
 * the symbolized report names.
 */
__attribute__((noinline)) void trap_selftest(void)
{
	proto_line(TAG_TRAP_SELFTEST, "executing an illegal instruction on purpose\n");
	__asm__ volatile("unimp");
}
