/* SPDX-License-Identifier: MIT */
/* mmu.c: the Sv39 identity map: guard pages for the suite, U-mode for a user's functions. */
#ifndef WM_MMU_H
#define WM_MMU_H

/*
 * Turns on Sv39 with an identity map of the low 256 GiB (RAM and MMIO alike,
 * S-mode only) in which two 4 KiB pages around linker/wordmerge.ld's .guard
 * region are left unmapped, and the pages a user's functions may touch in
 * U-mode are U pages; *guard_lo, *guard_hi get the 8 KiB between the guard
 * pages, for the suite (suite_set_guard()).  Prints one MMU: line.  Returns
 * 0, or -1 if the hart has no Sv39 (then no guard pages, and no U-mode).
 */
int mmu_init(void **guard_lo, void **guard_hi);

/* satp with the map, or 0 without one: what firmware/umode.c runs U-mode under. */
unsigned long mmu_satp(void);

/* [lo, hi) (page-aligned) becomes U-mode's too: the benchmark's buffers.  0, or -1. */
int mmu_user_buffers(void *lo, void *hi);

/* Paging off again (bare, as the image started): the built-in functions are timed so. */
void mmu_off(void);

#endif /* WM_MMU_H */
