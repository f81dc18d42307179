// SPDX-License-Identifier: MIT
/*
 * One Sv39 page table, an identity map (every virtual address is its
 * physical one), so that the image's code, data, stack and devices stay where
 * they are.  It serves two ends:
 *
 * - Guard pages for the correctness suite: two unmapped 4 KiB pages around
 *   the 8 KiB the suite's calls run against.  Any access to those is a page
 *   fault, which trap.c reports with the case the suite was running
 *   (suite_current()) and ends the run with STATUS_TRAP.
 * - U-mode for a user's functions (firmware/umode.c): U pages are only the
 *   gate's (read and run), the users' own sections, their stack, the buffers
 *   the suite and the benchmark give them, and the thread-local block their
 *   thread-local data shares with picolibc's errno (read and write; a user's
 *   section is run too, since it holds the user's code, data and BSS
 *   together).  Everything else is S-mode only: U-mode reaches neither the
 *   image's state nor the finisher, and its ecall comes to trap.c, not to
 *   the SBI.
 *
 * 0..256 GiB are 1 GiB leaves, RWX, global, S-mode only, A and D set (no A/D
 * update faults); a range mapped otherwise splits the leaves it needs into
 * 2 MiB, then 4 KiB ones.  Devices are reached through the same map: the test
 * finisher (0x100000 on virt), which ends the run on a trap, lies in the first
 * GiB page.  The image never touches the UART itself: its console is SBI
 * calls (console.c, sbi.c).
 */
#include <stdint.h>
#include <stdio.h>

#include "csr.h"
#include "mmu.h"
#include "protocol.h"

#define PAGE 4096UL
#define PTE_S (PTE_V | PTE_R | PTE_W | PTE_X | PTE_G | PTE_A | PTE_D)
#define PTE_U_RW (PTE_V | PTE_R | PTE_W | PTE_U | PTE_A | PTE_D)
#define PTE_U_RX (PTE_V | PTE_R | PTE_X | PTE_U | PTE_A)
#define MMU_TABLES 16	/* the root and the tables split leaves take: a few of each */

extern char _guard_start[], _guard_end[], _users_start[], _users_end[];
extern char _umode_gate_start[], _umode_gate_end[], _tls_start[], _umode_data_end[];
extern char _umode_stack_start[], _umode_stack_end[];

/* 4 KiB each, 4 KiB aligned (BSS); mmu_tables[0] is the root. */
static uint64_t mmu_tables[MMU_TABLES][512] __attribute__((aligned(4096)));
static int mmu_used = 1;
static unsigned long mmu_on;	/* satp with this map, once the hart took it; else 0 */

static uint64_t pte(uintptr_t pa, uint64_t flags)
{
	return (uint64_t)(pa >> 12) << PTE_PPN_SHIFT | flags;
}

/* The page of va at level (2: 1 GiB, 1: 2 MiB, 0: 4 KiB) gets flags (0: unmapped). */
static int map_page(uintptr_t va, int level, uint64_t flags)
{
	uint64_t *t = mmu_tables[0];
	int l, i;

	for (l = 2; l > level; l--) {
		uint64_t *e = &t[(va >> (12 + 9 * l)) & 511];

		if (!(*e & PTE_V) || (*e & (PTE_R | PTE_W | PTE_X))) {
			/* A leaf (or nothing): a table of 512 smaller leaves like it. */
			uint64_t *n = mmu_tables[mmu_used];

			if (mmu_used == MMU_TABLES)
				return -1;
			mmu_used++;
			for (i = 0; i < 512; i++)
				n[i] = *e & PTE_V ? *e + ((uint64_t)i << (9 * (l - 1)) << PTE_PPN_SHIFT)
						  : 0;
			*e = pte((uintptr_t)n, PTE_V);
		}
		t = (uint64_t *)(uintptr_t)((*e >> PTE_PPN_SHIFT) << 12);
	}
	t[(va >> (12 + 9 * level)) & 511] = flags ? pte(va, flags) : 0;
	return 0;
}

/* [lo, hi) (page-aligned) gets flags, with the largest pages that fit. */
static int map(uintptr_t lo, uintptr_t hi, uint64_t flags)
{
	while (lo < hi) {
		int l = 2;

		while (l && ((lo & ((1UL << (12 + 9 * l)) - 1)) || hi - lo < 1UL << (12 + 9 * l)))
			l--;
		if (map_page(lo, l, flags))
			return -1;
		lo += 1UL << (12 + 9 * l);
	}
	return 0;
}

int mmu_init(void **guard_lo, void **guard_hi)
{
	uintptr_t g = (uintptr_t)_guard_start, hi = (uintptr_t)_guard_end - PAGE;
	unsigned long satp = SATP_MODE_SV39 | (uintptr_t)mmu_tables[0] >> 12;

	if (map(0, 256UL << 30, PTE_S) || map(g, g + PAGE, 0) || map(hi, hi + PAGE, 0) ||
	    map(g + PAGE, hi, PTE_U_RW) ||
	    map((uintptr_t)_umode_gate_start, (uintptr_t)_umode_gate_end, PTE_U_RX) ||
	    map((uintptr_t)_users_start, (uintptr_t)_users_end, PTE_U_RW | PTE_X) ||
	    map((uintptr_t)_tls_start, (uintptr_t)_umode_data_end, PTE_U_RW) ||
	    map((uintptr_t)_umode_stack_start, (uintptr_t)_umode_stack_end, PTE_U_RW)) {
		proto_line(TAG_MMU, "the page table needs more than %d tables: no paging\n",
			   MMU_TABLES);
		return -1;
	}
	/* S-mode touches the buffers it shares with U-mode (SUM); U-mode reads the counters. */
	__asm__ volatile("csrs " CSR_STR(CSR_SSTATUS) ", %0\n\tcsrw " CSR_STR(CSR_SCOUNTEREN)
			 ", 7" :: "r"(SSTATUS_SUM));
	__asm__ volatile("sfence.vma zero, zero\n\tcsrw " CSR_STR(CSR_SATP) ", %0\n\t"
			 "sfence.vma zero, zero" :: "r"(satp) : "memory");
	if (csr_read(CSR_SATP) != satp) {
		proto_line(TAG_MMU, "no Sv39 on this hart (satp reads 0x%lx): no guard pages\n",
		       csr_read(CSR_SATP));
		return -1;
	}
	mmu_on = satp;
	proto_line(TAG_MMU, "Sv39 identity map of 0..256 GiB; unmapped guard pages at 0x%lx and 0x%lx\n",
	       (unsigned long)g, (unsigned long)hi);
	*guard_lo = (void *)(g + PAGE);
	*guard_hi = (void *)hi;
	return 0;
}

unsigned long mmu_satp(void)
{
	return mmu_on;
}

int mmu_user_buffers(void *lo, void *hi)
{
	int r = map((uintptr_t)lo, (uintptr_t)hi, PTE_U_RW);

	__asm__ volatile("sfence.vma zero, zero" ::: "memory");
	return r;
}

void mmu_off(void)
{
	__asm__ volatile("csrw " CSR_STR(CSR_SATP) ", zero\n\tsfence.vma zero, zero" ::: "memory");
}
