/* SPDX-License-Identifier: MIT */
/*
 * The benchmark image (firmware/bench.c): built instead of the correctness
 * suite when the Makefile's BENCH variable is set (make BENCH=sweep|big|full,
 * see tests/bench.mk; BENCH=trace for make cycles, tests/cycles.mk), which
 * defines
 *   WM_BENCH          the mode as a string: "sweep", "big", "full" or "trace"
 *   WM_BENCH_CC       the compiler's name
 *   WM_BENCH_CFLAGS   the code generation flags of the image (and of lib)
 * Output format: see the comment at the top of bench.c.
 */
#ifndef WM_BENCH_H
#define WM_BENCH_H

#include "firmware.h"

/* Runs the benchmark of mode WM_BENCH; returns the exit status. */
int bench_run(const struct fdt_info *fdt);

#endif /* WM_BENCH_H */
