/* SPDX-License-Identifier: MIT */
/*
 * The benchmarks (firmware/bench.c).  The benchmark image is built instead
 * of the correctness suite when the Makefile's BENCH variable is set (make
 * BENCH=sweep|big|full, see tests/bench.mk; BENCH=trace for make cycles,
 * tests/cycles.mk), which defines WM_BENCH, the mode as a string; the
 * default image runs mode "quick" after its suite.  Every image gets
 *   WM_BENCH_CC       the compiler's name
 *   WM_BENCH_CFLAGS   the code generation flags of the image (and of lib)
 * Output format: see the comment at the top of bench.c.
 */
#ifndef WM_BENCH_H
#define WM_BENCH_H

#include "firmware.h"

/* Runs the benchmark of `mode`; returns the exit status. */
int bench_run(const struct fdt_info *fdt, const char *mode);

#endif /* WM_BENCH_H */
