// SPDX-License-Identifier: MIT
/*
 * See pmu.h.  SBI PMU extension (EID 0x504D55), SBI specification v1.0+:
 *   FID 0 num_counters, FID 2 counter_config_matching, FID 5 counter_fw_read.
 */
#include <stdio.h>

#include "pmu.h"
#include "sbi.h"

#define PMU_NUM_COUNTERS	0
#define PMU_CONFIG_MATCHING	2
#define PMU_FW_READ		5

/* counter_config_matching flags */
#define PMU_CFG_CLEAR_VALUE	(1UL << 1)
#define PMU_CFG_AUTO_START	(1UL << 2)	/* 2 would be CLEAR_VALUE alone: stopped */

/* Firmware events: type 0xF in bits 16..19, code below. */
#define PMU_FW_MISALIGNED_LOAD	0xF0000UL
#define PMU_FW_MISALIGNED_STORE	0xF0001UL

static int pmu_ready;
static unsigned long pmu_load_ctr, pmu_store_ctr;

static long pmu_config(unsigned long ncounters, unsigned long event, const char *what)
{
	/* The mask may only name counters that exist (and fit in a long). */
	unsigned long mask = ncounters >= 8 * sizeof(long) ? ~0UL : (1UL << ncounters) - 1;
	struct sbiret r = sbi_ecall(SBI_EXT_PMU, PMU_CONFIG_MATCHING, 0, mask,
				    PMU_CFG_CLEAR_VALUE | PMU_CFG_AUTO_START,
				    event, 0, 0);

	if (r.error) {
		printf("PMU: no counter for the misaligned-%s event 0x%lx (SBI error %ld)\n",
		       what, event, r.error);
		return -1;
	}
	return r.value;
}

static uint64_t pmu_read(unsigned long ctr)
{
	struct sbiret r = sbi_ecall(SBI_EXT_PMU, PMU_FW_READ, ctr, 0, 0, 0, 0, 0);

	return r.error ? 0 : (uint64_t)r.value;
}

struct misalign_counts misalign_read(void)
{
	struct misalign_counts c = { 0, 0 };

	if (pmu_ready) {
		c.loads = pmu_read(pmu_load_ctr);
		c.stores = pmu_read(pmu_store_ctr);
	}
	return c;
}

/*
 * One misaligned lw and one misaligned sw, in assembly: written in C through
 * a cast pointer, GCC may split the access into byte loads when it can see
 * the alignment, and the control would control nothing.
 */
__attribute__((noinline)) void misalign_control(void)
{
	static _Alignas(8) unsigned char misalign_buf[16];
	unsigned long tmp;

	__asm__ volatile("lw %0, 1(%1)\n\tsw %0, 5(%1)"
			 : "=&r"(tmp)
			 : "r"(misalign_buf)
			 : "memory");
}

enum misalign_verdict misalign_init(void)
{
	struct sbiret r;
	long ld, st;
	struct misalign_counts before, after;

	if (!sbi_probe_extension(SBI_EXT_PMU)) {
		printf("PMU: not available (the SBI implementation has no PMU extension): misaligned accesses cannot be counted here\n");
		return MISALIGN_NO_PMU;
	}
	r = sbi_ecall(SBI_EXT_PMU, PMU_NUM_COUNTERS, 0, 0, 0, 0, 0, 0);
	if (r.error || r.value <= 0) {
		printf("PMU: extension present but reports no counters (error %ld)\n", r.error);
		return MISALIGN_NO_PMU;
	}
	ld = pmu_config((unsigned long)r.value, PMU_FW_MISALIGNED_LOAD, "load");
	st = pmu_config((unsigned long)r.value, PMU_FW_MISALIGNED_STORE, "store");
	if (ld < 0 || st < 0)
		return MISALIGN_NO_PMU;
	pmu_load_ctr = (unsigned long)ld;
	pmu_store_ctr = (unsigned long)st;
	pmu_ready = 1;
	printf("PMU: %ld counters; misaligned loads on counter %ld, stores on counter %ld\n",
	       r.value, ld, st);

	before = misalign_read();
	misalign_control();
	after = misalign_read();
	printf("PMU: control (1 misaligned load, 1 misaligned store): counted loads +%llu stores +%llu\n",
	       (unsigned long long)(after.loads - before.loads),
	       (unsigned long long)(after.stores - before.stores));
	if (after.loads - before.loads >= 1 && after.stores - before.stores >= 1) {
		printf("PMU: VERDICT: this platform traps misaligned accesses: the zero counts below are proof\n");
		return MISALIGN_TRAPPED;
	}
	printf("PMU: VERDICT: does not trap here: the control was not counted (QEMU performs misaligned accesses without trapping), so zero counts prove nothing on this platform; the proof here is ./run-qemu.sh --check-alignment\n");
	return MISALIGN_NOT_TRAPPED;
}
