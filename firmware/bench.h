/* SPDX-License-Identifier: MIT */
/*
 * The benchmarks (firmware/bench.c).  The benchmark image (make
 * BENCH=sweep|big|full, see tests/bench.mk; BENCH=trace for make cycles,
 * tests/cycles.mk) links bench_main.c as its main, which runs the mode the
 * Makefile gives it as WM_BENCH, a string; the suite image (main.c) runs
 * mode "quick" after its suite.  Every image gets
 *   WM_BENCH_CC          the compiler's name
 *   WM_BENCH_CFLAGS      the code generation flags of the image
 *   WM_BENCH_LIB_CFLAGS  what lib's object gets on top of them
 * Output format: see the comment at the top of bench.c.
 */
#ifndef WM_BENCH_H
#define WM_BENCH_H

#include "firmware.h"

/* Runs the benchmark of `mode`; returns the exit status. */
int bench_run(const struct fdt_info *fdt, const char *mode);

#endif /* WM_BENCH_H */
