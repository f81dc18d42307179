// SPDX-License-Identifier: MIT
/*
 * The benchmark image's fw_main() (make BENCH=MODE links it instead of
 * main.c, and no correctness suite): the start every image shares
 * (fw_start(), start.c), then the benchmark of the mode the Makefile names
 * in WM_BENCH (sweep, big, full or trace; bench.c), whose status ends the
 * run.
 */
#include "bench.h"
#include "firmware.h"
#include "mmu.h"

#ifndef WM_BENCH
#error "bench_main.c is the benchmark image's: build it with make BENCH=MODE"
#endif

void fw_main(unsigned long hartid, const void *dtb)
{
	struct fdt_info fdt;
	void *guard_lo, *guard_hi;

	fw_start(hartid, dtb, &fdt);
	/* The page table a user's functions run under (firmware/umode.c); paging off between. */
	mmu_init(&guard_lo, &guard_hi);
	mmu_off();
	fw_exit(bench_run(&fdt, WM_BENCH));
}
