// SPDX-License-Identifier: MIT
/*
 * The AArch64 test image: lib's checks (tests/suite.c) at EL1 on QEMU
 * -M virt with alignment checking on (SCTLR_EL1.A, set by start.S before
 * any C and never cleared), in the line protocol of firmware/protocol.h.
 * With the MMU on, RAM is Normal memory, where a misaligned access is
 * allowed unless A is set: then it is an alignment fault (a data abort,
 * ESR_EL1 EC 0x25 with DFSC 0x21), which the exception vector counts.  A
 * positive control (one misaligned load and one store, in assembly) must
 * be counted +1/+1 first, or the run ends unproven; a misaligned access
 * anywhere else, lib's included, ends the run with its address (the host's
 * tools/elf.py symbolize names the function) and the suite's case.  Two
 * pages left out of the map give the suite its guard pages.
 * make A64_ALIGN_CHECK=0 clears A once the MMU is on: the control's own
 * control, a run that must end unproven.
 */
#include <stdint.h>
#include <stdio.h>

#include "../../firmware/firmware.h"
#include "../../firmware/protocol.h"
#include "../../lib/wordmerge.h"
#include "../suite.h"

#ifndef A64_ALIGN_CHECK
#define A64_ALIGN_CHECK 1
#endif

#define SYSREG_READ(name) ({ uint64_t v_; __asm__ volatile("mrs %0, " #name : "=r"(v_)); v_; })
#define SYSREG_WRITE(name, v) __asm__ volatile("msr " #name ", %0" : : "r"((uint64_t)(v)))

#define SCTLR_M (1UL << 0)
#define SCTLR_A (1UL << 1)
#define SCTLR_C (1UL << 2)
#define SCTLR_I (1UL << 12)
#define SCTLR_EE (1UL << 25)

/* ---- the console: the device tree's PL011 (QEMU's semihosting before it is known) ---- */

static volatile uint8_t *a64_uart;

/* QEMU's semihosting (-semihosting): the call op with its parameter block. */
static uint64_t a64_semihost(uint64_t op, const void *arg)
{
	register uint64_t x0 __asm__("x0") = op;
	register const void *x1 __asm__("x1") = arg;

	__asm__ volatile("hlt #0xf000" : "+r"(x0) : "r"(x1) : "memory");
	return x0;
}

void a64_putc(char c)
{
	proto_console(c);		/* the run's line count and CRC, for EXIT:'s seal */
	if (!a64_uart) {
		a64_semihost(0x03, &c);		/* SYS_WRITEC */
		return;
	}
	/* Byte accesses: the same bytes of the little-endian registers in either byte order. */
	while (a64_uart[0x18] & (1 << 5))	/* UARTFR.TXFF */
		;
	a64_uart[0] = (uint8_t)c;		/* UARTDR */
}

/* A 32-bit register of a little-endian device, in either byte order. */
static void a64_mmio_write32(uintptr_t addr, uint32_t v)
{
#ifdef __AARCH64EB__
	v = __builtin_bswap32(v);
#endif
	*(volatile uint32_t *)addr = v;
}

/*
 * SYS_EXIT with reason ADP_Stopped_ApplicationExit: QEMU exits with status.
 * QEMU 7.2 reads the parameter block little-endian whatever SCTLR_EL1.EE
 * says, so a big-endian image writes it so; run.sh takes the status from
 * the EXIT: line all the same, which a QEMU that reads it otherwise cannot
 * change.
 */
static __attribute__((noreturn)) void a64_exit(int status)
{
#ifdef __AARCH64EB__
	const uint64_t block[2] = { __builtin_bswap64(0x20026),
				    __builtin_bswap64((uint64_t)status) };
#else
	const uint64_t block[2] = { 0x20026, (uint64_t)status };
#endif

	for (;;)
		a64_semihost(0x18, block);
}

static __attribute__((noreturn)) void a64_end(int status)
{
	proto_exit(status);		/* sealed, as the RISC-V image's */
	a64_exit(status);
}

/* ---- the exception vector ---------------------------------------------------------- */

/* Alignment faults seen, [0] loads and [1] stores; the control's expected ones. */
static volatile uint64_t a64_faults[2];
static volatile int a64_in_control;

static const char *const a64_kinds[4] = { "synchronous", "IRQ", "FIQ", "SError" };

/*
 * start.S's vectors call this with the vector's number and the saved x0..x30.
 * It returns only for the control's own faults (counted, stepped over).
 */
void a64_trap(uint64_t kind, const uint64_t *regs)
{
	static int nesting;
	uint64_t esr = SYSREG_READ(esr_el1), elr = SYSREG_READ(elr_el1);
	uint64_t far = SYSREG_READ(far_el1);
	unsigned ec = (unsigned)(esr >> 26) & 0x3f, fsc = (unsigned)esr & 0x3f;
	int align = kind == 4 && ec == 0x25 && fsc == 0x21, store = (esr >> 6) & 1;
	char now[160];

	if (align)
		a64_faults[store]++;
	if (align && a64_in_control) {
		SYSREG_WRITE(elr_el1, elr + 4);
		return;
	}
	if (nesting++) {
		a64_uart = 0;	/* the console may be what faulted: semihosting */
		printf("\n" TAG_TRAP ": a trap inside the trap report (ESR_EL1 0x%lx)\n",
		       (unsigned long)esr);
		a64_exit(STATUS_TRAP);
	}
	printf("\n");
	if (align)
		proto_line(TAG_TRAP, "alignment fault: misaligned %s (ESR_EL1 0x%lx) elr=0x%lx "
			   "far=0x%lx\n", store ? "store" : "load", (unsigned long)esr,
			   (unsigned long)elr, (unsigned long)far);
	else
		proto_line(TAG_TRAP, "%s exception, vector %lu, ESR_EL1 0x%lx (EC 0x%x, FSC 0x%x) "
			   "elr=0x%lx far=0x%lx\n", a64_kinds[kind & 3], (unsigned long)kind,
			   (unsigned long)esr, ec, fsc, (unsigned long)elr, (unsigned long)far);
	proto_line(TAG_TRAP, "lr=0x%lx sp=0x%lx x0=0x%lx x1=0x%lx x2=0x%lx\n",
		   (unsigned long)regs[30], (unsigned long)(uintptr_t)(regs + 32),
		   (unsigned long)regs[0], (unsigned long)regs[1], (unsigned long)regs[2]);
	if (suite_current(now, sizeof(now)))
		proto_line(TAG_TRAP, "during %s\n", now);
	proto_line(TAG_FAIL, "%s\n", align ? "a misaligned access outside the control"
					  : "unexpected trap");
	a64_end(STATUS_TRAP);
}

/*
 * One misaligned 4-byte load and one store, in assembly: in C, -mstrict-align
 * would split an access GCC knows is misaligned into bytes.
 */
static __attribute__((noinline)) void a64_control(void)
{
	static _Alignas(16) unsigned char buf[16];
	uint32_t tmp;

	a64_in_control = 1;
	__asm__ volatile("ldr %w0, [%1, #1]\n\tstr %w0, [%1, #5]"
			 : "=&r"(tmp)
			 : "r"(buf)
			 : "memory");
	a64_in_control = 0;
}

/* ---- the MMU: an identity map, RAM Normal, devices Device, two guard pages unmapped ---- */

#define PAGE 4096UL
#define D_VALID 1UL
#define D_TABLE 3UL		/* a table at levels 1-2, a page at level 3 */
#define D_NORMAL (1UL << 2)	/* MAIR_EL1 attribute 1; 0 is Device-nGnRnE */
#define D_INNER (3UL << 8)	/* inner shareable */
#define D_AF (1UL << 10)
#define D_XN (3UL << 53)
#define RAM_DESC (D_NORMAL | D_INNER | D_AF)

static _Alignas(4096) uint64_t a64_l1[512], a64_l2[512], a64_l3[512];
/* Four pages, the first and last unmapped: the suite's guard region is the middle two. */
static _Alignas(4 * 4096) unsigned char a64_guard[4 * 4096];

static const char *a64_mmu_on(uint64_t base, uint64_t size)
{
	uint64_t g = (uintptr_t)a64_guard, gib = base >> 30, i;

	if (size < (2UL << 20) || (base & ((2UL << 20) - 1)) || (base + size - 1) >> 30 != gib ||
	    !gib || gib >= 512)
		return "the memory node is not within one GiB above the first, in 2 MiB blocks";
	a64_l1[0] = 0 | D_AF | D_XN | D_VALID;		/* the first GiB: virt's devices */
	a64_l1[gib] = (uintptr_t)a64_l2 | D_TABLE;
	for (i = 0; i < 512; i++) {
		uint64_t a = (gib << 30) | (i << 21);

		if (a >= base && a - base < size)
			a64_l2[i] = a | RAM_DESC | D_VALID;
	}
	for (i = 0; i < 512; i++)
		a64_l3[i] = ((g & ~((2UL << 20) - 1)) + i * PAGE) | RAM_DESC | D_TABLE;
	a64_l3[(g >> 12) & 511] = 0;
	a64_l3[((g >> 12) & 511) + 3] = 0;
	a64_l2[(g >> 21) & 511] = (uintptr_t)a64_l3 | D_TABLE;

	SYSREG_WRITE(mair_el1, 0xffUL << 8);	/* 0 Device-nGnRnE, 1 Normal write-back */
	/* T0SZ 25 (39-bit VA, walks from level 1), write-back walks, inner shareable,
	 * 4 KiB granule, TTBR1 walks off (EPD1), 40-bit PA. */
	SYSREG_WRITE(tcr_el1, 25UL | 1UL << 8 | 1UL << 10 | 3UL << 12 | 1UL << 23 | 2UL << 32);
	SYSREG_WRITE(ttbr0_el1, (uintptr_t)a64_l1);
	__asm__ volatile("dsb ish\n\ttlbi vmalle1\n\tdsb ish\n\tisb" : : : "memory");
	SYSREG_WRITE(sctlr_el1, SYSREG_READ(sctlr_el1) | SCTLR_M | SCTLR_C | SCTLR_I);
	__asm__ volatile("isb" : : : "memory");
	suite_set_guard(a64_guard + PAGE, a64_guard + 3 * PAGE);
	return NULL;
}

/* ---- the suite's hooks: the alignment faults of every group --------------------------- */

static uint64_t a64_before[2];

static void a64_group_begin(const char *group, const struct suite_impl *impl)
{
	(void)group;
	(void)impl;
	a64_before[0] = a64_faults[0];
	a64_before[1] = a64_faults[1];
}

static unsigned long a64_group_end(const char *group, const struct suite_impl *impl)
{
	return proto_misaligned(group, impl->name, 1, a64_faults[0] - a64_before[0],
				a64_faults[1] - a64_before[1]);
}

/* The build id's bytes, from the linker's note (link.ld: after the name "GNU"). */
extern const unsigned char _build_id[];

void a64_main(uint64_t x0)
{
	static const struct suite_impl impls[] = {
		{ "wordmerge", wm_memcpy, wm_memmove, wm_memset, 1, NULL },
	};
	static const struct suite_hooks hooks = { a64_group_begin, a64_group_end };
	struct suite_result res = { 0, 0, 0, 0 };
	struct fdt_info fdt;
	uint64_t el = (SYSREG_READ(currentel) >> 2) & 3, sctlr;
	/*
	 * For a bare ELF QEMU leaves x0 at 0 and puts the device tree at the start of
	 * -M virt's RAM; a loader that passes one in x0 (Linux's boot protocol) is heard.
	 */
	const void *dtb = x0 ? (const void *)(uintptr_t)x0 : (const void *)0x40000000UL;
	const char *why = fdt_scan(dtb, &fdt);
	uint32_t n, i;

	if (!why && !fdt.pl011)
		why = "no arm,pl011 node";
	if (why) {
		printf(TAG_FAIL ": device tree at %p: %s\n", dtb, why);
		a64_end(STATUS_NO_FDT);
	}
	a64_uart = (volatile uint8_t *)(uintptr_t)fdt.pl011;
	a64_mmio_write32(fdt.pl011 + 0x30, 0x301);	/* UARTCR: UARTEN, TXE, RXE */
	printf("\n");
	proto_line(TAG_BANNER, "build-id ");
	n = *(const uint32_t *)(_build_id + 4);		/* the note's descsz */
	for (i = 0; i < n; i++)
		printf("%02x", _build_id[16 + i]);
	printf("\n");
	proto_line(TAG_BANNER, "model \"%s\", boot hart 0 of %d harts, timebase %lu Hz\n",
		   fdt.model, fdt.nharts, (unsigned long)SYSREG_READ(cntfrq_el0));
	proto_line(TAG_BANNER, "memory 0x%llx..0x%llx (%llu MiB), console: PL011 at 0x%llx\n",
		   (unsigned long long)fdt.mem_base,
		   (unsigned long long)(fdt.mem_base + fdt.mem_size),
		   (unsigned long long)(fdt.mem_size >> 20), (unsigned long long)fdt.pl011);
	if (el != 1) {
		proto_line(TAG_FAIL, "running at EL%lu, not EL1 (QEMU -M virt without "
			   "virtualization=on or secure=on enters at EL1)\n", (unsigned long)el);
		a64_end(STATUS_NO_FDT);
	}
	why = a64_mmu_on(fdt.mem_base, fdt.mem_size);
	if (why) {
		proto_line(TAG_FAIL, "%s\n", why);
		a64_end(STATUS_NO_FDT);
	}
	if (!A64_ALIGN_CHECK)
		SYSREG_WRITE(sctlr_el1, SYSREG_READ(sctlr_el1) & ~SCTLR_A);
	sctlr = SYSREG_READ(sctlr_el1);
	proto_line(TAG_MMU, "EL1, 39-bit identity map: RAM Normal write-back, the first GiB "
		   "Device-nGnRnE; SCTLR_EL1 0x%lx: A=%d, EE=%d (%s-endian data)\n",
		   (unsigned long)sctlr, !!(sctlr & SCTLR_A), !!(sctlr & SCTLR_EE),
		   sctlr & SCTLR_EE ? "big" : "little");
	proto_line(TAG_PMU, "alignment faults counted by the exception vector (data abort, "
		   "ESR_EL1 EC 0x25, DFSC 0x21)\n");
	a64_control();
	if (!proto_control(a64_faults[0], a64_faults[1], "the control was not counted: "
			   "alignment checking is off, so zero counts would prove nothing: the run "
			   "is unproven")) {
		proto_line(TAG_FAIL, "unproven: the control's misaligned load and store did not "
			   "trap\n");
		a64_end(STATUS_NO_FDT);
	}
	a64_faults[0] = a64_faults[1] = 0;
	suite_run(impls, 1, &hooks, &res);
	a64_end(suite_summary(&res));
}
