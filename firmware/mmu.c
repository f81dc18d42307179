// SPDX-License-Identifier: MIT
/*
 * Guard pages for the correctness suite: Sv39 paging in S-mode with an
 * identity map, so that the image's code, data, stack and devices stay
 * where they are (every virtual address is its physical one), and two
 * unmapped 4 KiB pages.  Any access to those is a page fault, which trap.c
 * reports with the case the suite was running (suite_current()) and ends
 * the run with STATUS_TRAP.
 *
 * The map: the root table maps 0..256 GiB with 1 GiB pages, except the GiB
 * that holds .guard, which goes to a table of 2 MiB pages, except the 2 MiB
 * that holds .guard, which goes to a table of 4 KiB pages: there .guard's
 * first and last page are left invalid.  .guard (linker/wordmerge.ld) is 16
 * KiB, 16 KiB aligned: guard page, 8 KiB for the suite, guard page.  All
 * leaves are RWX with A and D set (no A/D update faults), global, and
 * S-mode only.  Devices are reached through the same map: the test
 * finisher (0x100000 on virt), which ends the run on a trap in the suite,
 * lies in the first GiB page.  The image never touches the UART itself: its
 * console is SBI calls (console.c, sbi.c).
 */
#include <stdint.h>
#include <stdio.h>

#include "../tests/suite.h"
#include "csr.h"
#include "mmu.h"
#include "protocol.h"

#define PAGE 4096UL
#define PTE_LEAF (PTE_V | PTE_R | PTE_W | PTE_X | PTE_G | PTE_A | PTE_D)

extern unsigned char _guard_start[], _guard_end[];

/* root, the GiB of .guard, its 2 MiB: 4 KiB each, 4 KiB aligned (BSS). */
static uint64_t mmu_root[512] __attribute__((aligned(4096)));
static uint64_t mmu_l1[512] __attribute__((aligned(4096)));
static uint64_t mmu_l0[512] __attribute__((aligned(4096)));

static uint64_t pte(uintptr_t pa, uint64_t flags)
{
	return (uint64_t)(pa >> 12) << PTE_PPN_SHIFT | flags;
}

int mmu_init(void)
{
	uintptr_t g = (uintptr_t)_guard_start;
	uintptr_t giga = g >> 30, mega = (g >> 21) & 511;
	uintptr_t lo = g + PAGE, hi = (uintptr_t)_guard_end - PAGE;
	unsigned long i, satp;

	for (i = 0; i < 256; i++)
		mmu_root[i] = pte(i << 30, PTE_LEAF);
	for (i = 0; i < 512; i++)
		mmu_l1[i] = pte(giga << 30 | i << 21, PTE_LEAF);
	for (i = 0; i < 512; i++) {
		uintptr_t pa = (g & ~((1UL << 21) - 1)) | i << 12;

		mmu_l0[i] = pa == g || pa == hi ? 0 : pte(pa, PTE_LEAF);
	}
	mmu_l1[mega] = pte((uintptr_t)mmu_l0, PTE_V);
	mmu_root[giga] = pte((uintptr_t)mmu_l1, PTE_V);

	satp = SATP_MODE_SV39 | (uintptr_t)mmu_root >> 12;
	__asm__ volatile("sfence.vma zero, zero\n\tcsrw " CSR_STR(CSR_SATP) ", %0\n\t"
			 "sfence.vma zero, zero" :: "r"(satp) : "memory");
	if (csr_read(CSR_SATP) != satp) {
		proto_line(TAG_MMU, "no Sv39 on this hart (satp reads 0x%lx): no guard pages\n",
		       csr_read(CSR_SATP));
		return -1;
	}
	proto_line(TAG_MMU, "Sv39 identity map of 0..256 GiB; unmapped guard pages at 0x%lx and 0x%lx\n",
	       (unsigned long)g, (unsigned long)hi);
	suite_set_guard((void *)lo, (void *)hi);
	return 0;
}

void mmu_off(void)
{
	__asm__ volatile("csrw " CSR_STR(CSR_SATP) ", zero\n\tsfence.vma zero, zero" ::: "memory");
	suite_set_guard(NULL, NULL);
}
