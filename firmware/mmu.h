/* SPDX-License-Identifier: MIT */
/* mmu.c: Sv39 identity map with guard pages around the suite's guard region. */
#ifndef WM_MMU_H
#define WM_MMU_H

/*
 * Turns on Sv39 with an identity map of the low 256 GiB (RAM and MMIO alike)
 * in which two 4 KiB pages around linker/wordmerge.ld's .guard region are
 * left unmapped, and hands the 8 KiB between them to the suite
 * (suite_set_guard()).  Prints one MMU: line.  Returns 0, or -1 if the hart
 * has no Sv39 (the suite then runs without guard pages, and says so).
 */
int mmu_init(void);

/* Paging off again (bare, as the image started): the benchmarks run without. */
void mmu_off(void);

#endif /* WM_MMU_H */
