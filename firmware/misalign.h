/* SPDX-License-Identifier: MIT */
/*
 * Counting misaligned accesses through the SBI PMU extension's firmware
 * counters.  On cores that trap misaligned loads and stores (SiFive U54/U74)
 * OpenSBI emulates each one in M-mode and counts it as firmware event
 * 0xF0000 (load) or 0xF0001 (store).  Called by the boot hart in S-mode, by
 * the suite's group hooks (main.c) and around the benchmark (bench.c).
 */
#ifndef WM_MISALIGN_H
#define WM_MISALIGN_H

#include <stdint.h>

struct misalign_counts {
	uint64_t loads, stores;
};

enum misalign_verdict {
	MISALIGN_NO_PMU,	/* no PMU extension, or no counter for the events */
	MISALIGN_NOT_TRAPPED,	/* the control was not counted: zeros prove nothing */
	MISALIGN_TRAPPED,	/* the control was counted: zeros are proof */
};

/*
 * Probes the PMU, configures one counter per event, runs the positive
 * control (one misaligned load and one misaligned store) and prints what the
 * counters saw and what that means on this platform.
 */
enum misalign_verdict misalign_init(void);
/* Current counts; 0/0 without a PMU. */
struct misalign_counts misalign_read(void);
/* The counts since `before`. */
struct misalign_counts misalign_since(struct misalign_counts before);
/*
 * Prints "PMU: what[impl]: misaligned loads +L stores +S"; returns L + S
 * when `ours` (a count in wordmerge is a failure), 0 for a reference
 * (informative).
 */
unsigned long misalign_report(const char *what, const char *impl, int ours,
			      struct misalign_counts delta);
/* The deliberate misaligned accesses; named for the QEMU plugin's check. */
void misalign_control(void);

#endif /* WM_MISALIGN_H */
