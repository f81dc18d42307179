// SPDX-License-Identifier: MIT
/*
 * The benchmark image: wordmerge's memcpy/memmove/memset (the standard names
 * in this image) against picolibc's two Debian builds (firmware/refs.h) and a
 * plain byte loop, timed with rdcycle, rdinstret and rdtime around each call.
 * Built instead of the correctness suite when the Makefile's BENCH variable
 * is set (see bench.h and tests/bench.mk).  Modes:
 *   sweep  sizes 1 .. 1 MiB at six (dst%8, src%8) pairs, every function;
 *          quick (make bench-check runs it under QEMU -icount on every
 *          make test)
 *   big    the 2021 series' own method: two 32 MiB buffers, memcpy at all
 *          8x8 (dst%8, src%8) offsets, memset at 8, memmove both ways at six
 *   full   sweep then big (make bench)
 *   quick  the default image's closing benchmark (issue 9): memcpy and
 *          backward memmove at one co-aligned and one misaligned pair,
 *          memset at two offsets, 8 B to 1 MiB: what one serial log of a
 *          board should show, in well under a second there
 *   trace  the sweep's cells up to 64 KiB, each call made once, and a few
 *          extra cells: the instructions of each call are recorded by a
 *          QEMU plugin and fed to a pipeline model (make cycles:
 *          tests/cycles.mk, tools/trace-plugin.c, tools/cycles.py)
 *
 * Output: human-readable tables, and machine-readable lines that tools/
 * report.py reads, all starting "CSV:" (fields comma-separated, strings in
 * double quotes):
 *   CSV:begin,wordmerge-bench,<format>,<mode>
 *   CSV:meta,<key>,<value>...
 *   CSV:size,<impl>,<fn>,<symbol>,<bytes>          symbol sizes (wm_code_sizes)
 *   CSV:sweep,<fn>,<impl>,<dst%8>,<src%8>,<n>,<runs>,<cycles>,<instret>,<instret max>
 *   CSV:big,<fn>,<impl>,<dst off>,<src off>,<n>,<runs>,<cycles>,<instret>,<time ticks>
 *   CSV:extra,<fn>,<impl>,<dst%8>,<src%8>,<n>,<runs>,<cycles>,<instret>,<instret max>
 *                                    trace mode only: a cell outside the sweep
 *   CSV:end,<number of CSV lines between begin and end>
 * <fn> is memcpy, memmove_fwd (dst < src), memmove_bwd (dst > src, the
 * buffers overlap) or memset (src field empty).  cycles and instret are the
 * minimum over the runs, net of the measurement overhead (see
 * bench_calibrate()); time ticks are of the device tree's timebase.
 *
 * Trace mode: after the calibration the image calls bench_trace_start()
 * once, then makes exactly one timed call per CSV:sweep and CSV:extra line,
 * in the order of those lines, so that the k-th timed call after that mark
 * is the k-th such line (tools/cycles.py relies on it).
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../lib/wordmerge.h"
#include "bench.h"
#include "csr.h"
#include "firmware.h"
#include "misalign.h"
#include "refs.h"

#ifndef WM_BENCH_CC
#define WM_BENCH_CC "cc"
#endif
#ifndef WM_BENCH_CFLAGS
#define WM_BENCH_CFLAGS "(not recorded)"
#endif
/* What lib's object gets on top of WM_BENCH_CFLAGS (make LIB_SIZE=small). */
#ifndef WM_BENCH_LIB_CFLAGS
#define WM_BENCH_LIB_CFLAGS ""
#endif
/* Runs per point of the 32 MiB phase (the sweep's are in sweep_runs()). */
#ifndef WM_BENCH_BIG_RUNS
#define WM_BENCH_BIG_RUNS 2
#endif

#define BENCH_FORMAT	1
#define KIB		((size_t)1024)
#define MIB		(1024 * KIB)
#define BIG_SIZE	(32 * MIB)	/* the series' buffers */
#define SWEEP_MAX	MIB		/* the sweep's largest size */
#define SLACK		(4 * KIB)	/* room for offsets and overlap */
#define MOVE_GAP	64		/* 32 MiB memmove: distance dst..src */

typedef void *(*cpy_fn)(void *, const void *, size_t);
typedef void *(*set_fn)(void *, int, size_t);

/*
 * The plain byte loops: the generic code the 2021 series replaced.  The
 * image is built with -fno-tree-loop-distribute-patterns, so they stay loops
 * (not calls to memcpy); noinline keeps each a function of its own.
 */
static __attribute__((noinline)) void *byteloop_memcpy(void *dst, const void *src,
							size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	while (n--)
		*d++ = *s++;
	return dst;
}

static __attribute__((noinline)) void *byteloop_memmove(void *dst, const void *src,
							 size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if ((uintptr_t)d <= (uintptr_t)s) {
		while (n--)
			*d++ = *s++;
	} else {
		d += n;
		s += n;
		while (n--)
			*--d = *--s;
	}
	return dst;
}

static __attribute__((noinline)) void *byteloop_memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;

	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}

/*
 * Functions of exactly one instruction (ret), called the way the functions
 * under test are: the counter deltas around them, minus that instruction,
 * are the measurement's own overhead.
 */
void *bench_empty_cpy(void *dst, const void *src, size_t n);
void *bench_empty_set(void *dst, int c, size_t n);
__asm__(".pushsection .text.bench_empty, \"ax\", @progbits\n"
	".p2align 2\n"
	".globl bench_empty_cpy\n"
	".type bench_empty_cpy, @function\n"
	"bench_empty_cpy:\n"
	"	ret\n"
	".size bench_empty_cpy, . - bench_empty_cpy\n"
	".p2align 2\n"
	".globl bench_empty_set\n"
	".type bench_empty_set, @function\n"
	"bench_empty_set:\n"
	"	ret\n"
	".size bench_empty_set, . - bench_empty_set\n"
	".popsection\n");

/*
 * Trace mode's mark (see the top): a function of its own, so that its
 * address names the moment the traced cells begin.
 */
void bench_trace_start(void);
__asm__(".pushsection .text.bench_trace_start, \"ax\", @progbits\n"
	".p2align 2\n"
	".globl bench_trace_start\n"
	".type bench_trace_start, @function\n"
	"bench_trace_start:\n"
	"	ret\n"
	".size bench_trace_start, . - bench_trace_start\n"
	".popsection\n");

struct bench_impl {
	const char *name;
	cpy_fn cpy, move;
	set_fn set;
	const char *sym[3];	/* symbols of cpy, move, set */
};

static const struct bench_impl impls[] = {
	{ "wordmerge", memcpy, memmove, memset, { "memcpy", "memmove", "memset" } },
	{ "picolibc-size", picolibc_size_memcpy, picolibc_size_memmove,
	  picolibc_size_memset,
	  { "picolibc_size_memcpy", "picolibc_size_memmove", "picolibc_size_memset" } },
	{ "picolibc-speed", picolibc_speed_memcpy, picolibc_speed_memmove,
	  picolibc_speed_memset,
	  { "picolibc_speed_memcpy", "picolibc_speed_memmove", "picolibc_speed_memset" } },
	{ "byte-loop", byteloop_memcpy, byteloop_memmove, byteloop_memset,
	  { "byteloop_memcpy", "byteloop_memmove", "byteloop_memset" } },
};
#define NIMPLS ((int)(sizeof(impls) / sizeof(impls[0])))

enum bench_fn { FN_MEMCPY, FN_MOVE_FWD, FN_MOVE_BWD, FN_MEMSET, NFNS };
static const char *const fn_names[NFNS] = { "memcpy", "memmove_fwd", "memmove_bwd",
					    "memset" };
static const char *const fn_desc[NFNS] = {
	"memcpy", "memmove forward (dst < src)",
	"memmove backward (dst > src, overlapping)", "memset",
};

static const size_t sweep_sizes[] = {
	1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 63, 64, 127, 128, 255, 256,
	KIB, 4 * KIB, 64 * KIB, MIB,
};
#define NSIZES ((int)(sizeof(sweep_sizes) / sizeof(sweep_sizes[0])))

static const struct { int d, s; } copy_pairs[] = {
	{ 0, 0 }, { 0, 1 }, { 0, 4 }, { 1, 0 }, { 3, 5 }, { 7, 7 },
};
#define NPAIRS ((int)(sizeof(copy_pairs) / sizeof(copy_pairs[0])))
static const int set_offs[] = { 0, 1, 3, 7 };
#define NSETOFFS ((int)(sizeof(set_offs) / sizeof(set_offs[0])))

/*
 * Trace mode: the largest sweep size (the byte loops' 1 MiB calls would be
 * millions of instructions each for the model), and cells that the sweep's
 * pairs do not cover, from issue 8's table: a memcpy whose source is
 * misaligned by 3 at 4 KiB, and a backward memmove with dst = src + 3
 * (sweep_args() places src at src%8 and dst at the smallest distance with
 * dst%8, here 3).
 */
#define TRACE_MAX	(64 * KIB)
static const struct { int fn, d, s; size_t n; } trace_extras[] = {
	{ FN_MEMCPY, 0, 3, 4 * KIB },
	{ FN_MOVE_BWD, 3, 0, 64 },
};
#define NEXTRAS ((int)(sizeof(trace_extras) / sizeof(trace_extras[0])))

/* One measured call (or the minimum of several). */
struct meas {
	unsigned long cyc, ins, ins_max, tim;
};

/* Measurement overhead: subtracted from every cycle and instret delta. */
static struct meas ovh_cpy, ovh_set;
static unsigned long csv_lines, points;
static unsigned char *buf_a, *buf_b;	/* source side, destination side */
/* Trace mode (see the top): one call per cell, sizes up to TRACE_MAX. */
static int trace_mode;
/* Quick mode (the default image): the cells quick_cell() picks. */
static int quick_mode;
static uint32_t bench_hz;	/* the timebase, for MB/s */

/* ---- output ---------------------------------------------------------------- */

static __attribute__((format(printf, 1, 2))) void csv(const char *fmt, ...)
{
	va_list ap;

	printf("CSV:");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	csv_lines++;
}

/* A string for a CSV field: double quotes and control characters become '. */
static const char *csv_clean(const char *s, char *buf, size_t len)
{
	size_t i;

	for (i = 0; s[i] && i + 1 < len; i++)
		buf[i] = (s[i] == '"' || (unsigned char)s[i] < ' ') ? '\'' : s[i];
	buf[i] = 0;
	return buf;
}

/* num / den with `dec` decimals, rounded, into buf. */
static const char *fixed(char *buf, size_t len, uint64_t num, uint64_t den, int dec)
{
	uint64_t scale = 1, q;
	int i;

	for (i = 0; i < dec; i++)
		scale *= 10;
	if (!den) {
		snprintf(buf, len, "-");
		return buf;
	}
	q = (num * scale + den / 2) / den;
	if (dec)
		snprintf(buf, len, "%llu.%0*llu", (unsigned long long)(q / scale), dec,
			 (unsigned long long)(q % scale));
	else
		snprintf(buf, len, "%llu", (unsigned long long)q);
	return buf;
}

/* MB/s (10^6 bytes per second) of n bytes in `ticks` of the timebase. */
static const char *mbps(char *buf, size_t len, uint64_t n, uint64_t ticks,
			uint32_t timebase_hz)
{
	/* n * hz / ticks / 1e6 with one decimal; n <= 32 MiB, hz < 2^32. */
	return fixed(buf, len, n * (uint64_t)timebase_hz / 100000, ticks ? ticks * 10 : 0, 1);
}

/* ---- measuring --------------------------------------------------------------- */

/*
 * The counters around one call.  cycle and instret are read innermost, time
 * outermost; the calls go through a pointer the way every implementation is
 * called, so bench_empty_* see exactly the same harness.
 */
#define TIME_CALL(m, call)                          \
	do {                                        \
		unsigned long t0, c0, i0, t1, c1, i1; \
                                                    \
		t0 = csr_read(CSR_TIME);            \
		c0 = csr_read(CSR_CYCLE);           \
		i0 = csr_read(CSR_INSTRET);         \
		call;                               \
		i1 = csr_read(CSR_INSTRET);         \
		c1 = csr_read(CSR_CYCLE);           \
		t1 = csr_read(CSR_TIME);            \
		(m)->cyc = c1 - c0;                 \
		(m)->ins = i1 - i0;                 \
		(m)->tim = t1 - t0;                 \
	} while (0)

static __attribute__((noinline)) void time_cpy(cpy_fn f, void *d, const void *s,
					       size_t n, struct meas *m)
{
	TIME_CALL(m, f(d, s, n));
}

static __attribute__((noinline)) void time_set(set_fn f, void *d, int c, size_t n,
					       struct meas *m)
{
	TIME_CALL(m, f(d, c, n));
}

static unsigned long net(unsigned long v, unsigned long ovh)
{
	return v > ovh ? v - ovh : 0;
}

/* Fold one run into the minimum so far (run 0 starts it). */
static void keep_min(struct meas *best, const struct meas *m, int run)
{
	if (run == 0) {
		*best = *m;
		best->ins_max = m->ins;
		return;
	}
	if (m->cyc < best->cyc)
		best->cyc = m->cyc;
	if (m->ins < best->ins)
		best->ins = m->ins;
	if (m->ins > best->ins_max)
		best->ins_max = m->ins;
	if (m->tim < best->tim)
		best->tim = m->tim;
}

/*
 * Misaligned-access traps (firmware/pmu.c) counted while each implementation
 * ran, per phase: read outside the timed calls, printed and reset at the end
 * of every phase by trap_phase_end().  A count for wordmerge fails the run.
 */
static struct misalign_counts trap_phase[NIMPLS];
static int trap_fail;

/* Adds the counts since `before` to implementation k's for this phase. */
static void trap_count(int k, struct misalign_counts before)
{
	struct misalign_counts d = misalign_since(before);

	trap_phase[k].loads += d.loads;
	trap_phase[k].stores += d.stores;
}

static void trap_phase_end(const char *phase)
{
	static const struct misalign_counts zero = { 0, 0 };
	int k;

	for (k = 0; k < NIMPLS; k++) {
		if (misalign_report(phase, impls[k].name, k == 0, trap_phase[k]))
			trap_fail = 1;
		trap_phase[k] = zero;
	}
}

/* A point's minimum, net of the measurement overhead `ovh`. */
static void meas_finish(struct meas *best, const struct meas *ovh)
{
	best->cyc = net(best->cyc, ovh->cyc);
	best->ins = net(best->ins, ovh->ins);
	best->ins_max = net(best->ins_max, ovh->ins);
	points++;
}

static void measure_cpy(int k, cpy_fn f, void *d, const void *s, size_t n,
			int runs, struct meas *best)
{
	struct misalign_counts before = misalign_read();
	struct meas m;
	int r;

	for (r = 0; r < runs; r++) {
		time_cpy(f, d, s, n, &m);
		keep_min(best, &m, r);
	}
	meas_finish(best, &ovh_cpy);
	trap_count(k, before);
}

static void measure_set(int k, set_fn f, void *d, int c, size_t n, int runs,
			struct meas *best)
{
	struct misalign_counts before = misalign_read();
	struct meas m;
	int r;

	for (r = 0; r < runs; r++) {
		time_set(f, d, c, n, &m);
		keep_min(best, &m, r);
	}
	meas_finish(best, &ovh_set);
	trap_count(k, before);
}

/*
 * The overhead: the empty one-instruction functions, measured many times;
 * the minimum delta minus that one instruction (cycle: minus one cycle) is
 * subtracted from every figure, so a figure counts what the function itself
 * executes, from its first instruction through its ret.
 *
 * Returns whether cycle and instret moved in lockstep (as under QEMU
 * -icount, where both count instructions): cycle - instret the same on
 * every calibration call and around 4 KiB copies (the cycle reads enclose
 * the instret reads, so the difference is a small constant, not 0).  A real
 * core almost never hits the same difference on a 4 KiB copy.
 */
static int bench_calibrate(void)
{
	static const cpy_fn loads[] = { memcpy, byteloop_memcpy };
	struct meas m;
	unsigned long diff = 0;
	int r, equal = 1;

	for (r = 0; r < 32; r++) {
		time_cpy(bench_empty_cpy, buf_b, buf_a, 0, &m);
		if (r == 0)
			diff = m.cyc - m.ins;
		equal &= m.cyc - m.ins == diff;
		keep_min(&ovh_cpy, &m, r);
		time_set(bench_empty_set, buf_b, 0, 0, &m);
		equal &= m.cyc - m.ins == diff;
		keep_min(&ovh_set, &m, r);
	}
	equal &= ovh_cpy.ins == ovh_cpy.ins_max && ovh_set.ins == ovh_set.ins_max;
	for (r = 0; r < 4; r++) {
		time_cpy(loads[r & 1], buf_b, buf_a + 1, 4 * KIB, &m);
		equal &= m.cyc - m.ins == diff;
	}
	ovh_cpy.cyc = net(ovh_cpy.cyc, 1);
	ovh_cpy.ins = net(ovh_cpy.ins, 1);
	ovh_set.cyc = net(ovh_set.cyc, 1);
	ovh_set.ins = net(ovh_set.ins, 1);
	return equal;
}

/* ---- header and code size ----------------------------------------------------- */

static void header(const struct fdt_info *fdt, const char *mode, int equal)
{
	char model[sizeof(fdt->model)], flags[512], libflags[128];
	int qemu = strstr(fdt->model, "qemu") != NULL;

	csv_clean(fdt->model, model, sizeof(model));
	csv_clean(WM_BENCH_CFLAGS, flags, sizeof(flags));
	csv_clean(WM_BENCH_LIB_CFLAGS, libflags, sizeof(libflags));
	printf("BENCH: wordmerge benchmark, mode %s\n", mode);
	printf("BENCH: platform \"%s\" (device tree model), timebase %lu Hz, %llu MiB RAM\n",
	       model, (unsigned long)fdt->timebase_hz,
	       (unsigned long long)(fdt->mem_size >> 20));
	printf("BENCH: compiler %s %s\n", WM_BENCH_CC, __VERSION__);
	printf("BENCH: flags %s\n", flags);
	printf("BENCH: lib's flags: the same%s%s\n", libflags[0] ? " and then " : "",
	       libflags);
	printf("BENCH: implementations: wordmerge = lib's memcpy/memmove/memset (this image's own);\n"
	       "BENCH:   picolibc-size = picolibc's default build (libc.a), picolibc-speed = its\n"
	       "BENCH:   release build; byte-loop = a plain byte loop (firmware/bench.c)\n");
	printf("BENCH: counters: cycle = rdcycle, instret = rdinstret, time = rdtime (timebase ticks).\n"
	       "BENCH:   On QEMU with -icount shift=0 (make bench, make bench-check), cycle and\n"
	       "BENCH:   instret both count retired instructions exactly and time advances 1 ns per\n"
	       "BENCH:   instruction, so MB/s is that of a virtual machine retiring one instruction\n"
	       "BENCH:   per ns; on QEMU without -icount, cycle and instret read the host's tick\n"
	       "BENCH:   counter and mean nothing; on hardware all three are the core's counters.\n");
	printf("BENCH:   This run: cycle and instret in lockstep (calibration and 4 KiB copies): %s%s\n",
	       equal ? "yes" : "no",
	       qemu ? (equal ? " (QEMU, consistent with -icount)"
			     : " (QEMU without -icount? then counts are not instructions)")
		    : "");
	printf("BENCH: figures are net of the measurement overhead, which is subtracted: %lu\n"
	       "BENCH:   instret and %lu cycles (memcpy/memmove), %lu and %lu (memset), measured\n"
	       "BENCH:   around a one-instruction function, less that instruction; a figure\n"
	       "BENCH:   counts the function's own work from its first instruction through ret\n",
	       ovh_cpy.ins, ovh_cpy.cyc, ovh_set.ins, ovh_set.cyc);
	if (trace_mode)
		printf("BENCH: each point is one call (trace mode: the sweep up to %lu KiB, then %d\n"
		       "BENCH:   extra cells; make cycles models each call's instructions)\n",
		       (unsigned long)(TRACE_MAX / KIB), NEXTRAS);
	else
		printf("BENCH: each point is the minimum of several runs (sweep: 5 up to 4 KiB, 3 at\n"
		       "BENCH:   64 KiB, 2 at 1 MiB; 32 MiB phase: %d)\n", WM_BENCH_BIG_RUNS);

	csv("begin,wordmerge-bench,%d,%s", BENCH_FORMAT, mode);
	csv("meta,platform,\"%s\"", model);
	csv("meta,compiler,\"%s %s\"", WM_BENCH_CC, __VERSION__);
	csv("meta,cflags,\"%s\"", flags);
	csv("meta,lib_cflags,\"%s%s%s\"", flags, libflags[0] ? " " : "", libflags);
	csv("meta,timebase_hz,%lu", (unsigned long)fdt->timebase_hz);
	csv("meta,mem_mib,%llu", (unsigned long long)(fdt->mem_size >> 20));
	csv("meta,word_bytes,%u", (unsigned)sizeof(unsigned long));
	csv("meta,counters_lockstep,%d", equal);
	csv("meta,overhead_subtracted,1");
	csv("meta,overhead_cpy,%lu,%lu", ovh_cpy.ins, ovh_cpy.cyc);
	csv("meta,overhead_set,%lu,%lu", ovh_set.ins, ovh_set.cyc);
	csv("meta,memcpy_addr,0x%lx", (unsigned long)(uintptr_t)memcpy);
	csv("meta,big_size,%lu", (unsigned long)BIG_SIZE);
}


/*
 * The code size of each function of impls[]: its symbol size after the
 * link, which relaxes code, so neither the compiler nor this file can know
 * it.  The Makefile writes the sizes into this table after linking
 * (tools/elf.py fill-sizes, which reads the names and fills in each size
 * field of the ELF; the table's size is fixed, so nothing moves).  The
 * sizes are read through a volatile pointer: the 0 they start as must not
 * be folded in.
 */
struct code_size {
	char name[32];		/* tools/elf.py: SIZES_NAME */
	unsigned long size;
};
__attribute__((used)) const struct code_size wm_code_sizes[] = {
	{ "memcpy", 0 }, { "memmove", 0 }, { "memset", 0 },
	{ "picolibc_size_memcpy", 0 }, { "picolibc_size_memmove", 0 },
	{ "picolibc_size_memset", 0 },
	{ "picolibc_speed_memcpy", 0 }, { "picolibc_speed_memmove", 0 },
	{ "picolibc_speed_memset", 0 },
	{ "byteloop_memcpy", 0 }, { "byteloop_memmove", 0 }, { "byteloop_memset", 0 },
};

static unsigned long sym_size(const char *name)
{
	unsigned i;

	for (i = 0; i < sizeof(wm_code_sizes) / sizeof(wm_code_sizes[0]); i++)
		if (strcmp(wm_code_sizes[i].name, name) == 0)
			return *(const volatile unsigned long *)&wm_code_sizes[i].size;
	return 0;
}

/*
 * Code size of the public functions (wm_code_sizes[]); make report adds
 * lib's static helpers from the ELF.
 */
static void code_size(void)
{
	int i, f;

	printf("\nCode size, bytes (symbol sizes; wordmerge's static helpers such as wm_copy_fwd\n"
	       "are not in these columns: make report adds them from the ELF)\n");
	printf("%-16s %8s %8s %8s %8s\n", "", "memcpy", "memmove", "memset", "sum");
	for (i = 0; i < NIMPLS; i++) {
		unsigned long sz[3], sum = 0;

		for (f = 0; f < 3; f++) {
			sz[f] = sym_size(impls[i].sym[f]);
			sum += sz[f];
		}
		printf("%-16s %8lu %8lu %8lu %8lu\n", impls[i].name, sz[0], sz[1], sz[2], sum);
	}
	for (i = 0; i < NIMPLS; i++)
		for (f = 0; f < 3; f++)
			csv("size,%s,%s,%s,%lu", impls[i].name,
			    f == 0 ? "memcpy" : f == 1 ? "memmove" : "memset",
			    impls[i].sym[f], sym_size(impls[i].sym[f]));
}

/* ---- the size sweep ------------------------------------------------------------ */

static int sweep_runs(size_t n)
{
	if (trace_mode)
		return 1;
	return n <= 4 * KIB ? 5 : n <= 64 * KIB ? 3 : 2;
}

/* How many of sweep_sizes[] (ascending) this mode measures. */
static int sweep_nsizes(void)
{
	int i = 0;

	while (i < NSIZES && (!trace_mode || sweep_sizes[i] <= TRACE_MAX))
		i++;
	return i;
}

/*
 * Quick mode's cells: memcpy and backward memmove at (0,0) and (3,5) (the
 * co-aligned pair, and the misaligned pair that costs most in the cycle
 * model), memset at dst%8 = 0 and 3; sizes 8 B, 64 B, 4 KiB, 64 KiB, 1 MiB.
 */
static int quick_cell(int fn, int doff, int soff, size_t n)
{
	if (!quick_mode)
		return 1;
	if (n != 8 && n != 64 && n != 4 * KIB && n != 64 * KIB && n != MIB)
		return 0;
	if (fn == FN_MEMSET)
		return doff == 0 || doff == 3;
	return fn != FN_MOVE_FWD && ((doff == 0 && soff == 0) || (doff == 3 && soff == 5));
}

/*
 * dst and src of one sweep call.  memcpy: separate buffers.  memmove: one
 * buffer, src - dst (forward) or dst - src (backward) the smallest positive
 * distance with the wanted residues, so the two overlap as much as they can;
 * a backward case needs dst - src < n, or memmove would copy forward: such
 * cells (n <= that distance) are skipped.
 */
static int sweep_args(int fn, int doff, int soff, size_t n, unsigned char **d,
		      unsigned char **s)
{
	unsigned char *base = buf_b + 64;
	size_t dist;

	switch (fn) {
	case FN_MEMCPY:
		*d = buf_b + 64 + doff;
		*s = buf_a + 64 + soff;
		return 1;
	case FN_MOVE_FWD:
		dist = (size_t)((soff - doff) & 7);
		*d = base + doff;
		*s = *d + (dist ? dist : 8);
		return 1;
	case FN_MOVE_BWD:
		dist = (size_t)((doff - soff) & 7);
		dist = dist ? dist : 8;
		*s = base + soff;
		*d = *s + dist;
		return dist < n;
	default: /* FN_MEMSET */
		*d = buf_b + 64 + doff;
		*s = NULL;
		return 1;
	}
}

/* One cell's measurement for implementation k. */
static void measure_cell(int fn, int k, unsigned char *d, unsigned char *s, size_t n,
			 struct meas *m)
{
	if (fn == FN_MEMCPY)
		measure_cpy(k, impls[k].cpy, d, s, n, sweep_runs(n), m);
	else if (fn == FN_MEMSET)
		measure_set(k, impls[k].set, d, 0xa5, n, sweep_runs(n), m);
	else
		measure_cpy(k, impls[k].move, d, s, n, sweep_runs(n), m);
}

/* One cell's CSV line: kind is "sweep" or (trace mode) "extra". */
static void cell_csv(const char *kind, int fn, int k, int doff, int soff, size_t n,
		     const struct meas *m)
{
	if (fn == FN_MEMSET)
		csv("%s,%s,%s,%d,,%lu,%d,%lu,%lu,%lu", kind, fn_names[fn], impls[k].name,
		    doff, (unsigned long)n, sweep_runs(n), m->cyc, m->ins, m->ins_max);
	else
		csv("%s,%s,%s,%d,%d,%lu,%d,%lu,%lu,%lu", kind, fn_names[fn], impls[k].name,
		    doff, soff, (unsigned long)n, sweep_runs(n), m->cyc, m->ins, m->ins_max);
}

static void sweep_table(int fn, int doff, int soff)
{
	static struct meas res[NSIZES][NIMPLS];
	static char ok[NSIZES];
	char b1[24];
	int i, k, nsizes = sweep_nsizes();

	if (fn == FN_MEMSET)
		printf("\n%s, dst%%8=%d: ", fn_desc[fn], doff);
	else
		printf("\n%s, dst%%8=%d src%%8=%d: ", fn_desc[fn], doff, soff);
	if (quick_mode) {
		/* One line per call: every counter, as a board's log should show. */
		printf("per call (the fastest of its runs)\n%8s %-15s %10s %10s %10s %9s\n",
		       "n", "", "rdcycle", "rdinstret", "rdtime", "MB/s");
	} else {
		printf("instructions per call, cycles per byte\n%8s", "n");
		for (k = 0; k < NIMPLS; k++)
			printf(" | %21s", impls[k].name);
		printf("\n");
	}
	for (i = 0; i < nsizes; i++) {
		size_t n = sweep_sizes[i];
		unsigned char *d, *s;

		ok[i] = (char)(quick_cell(fn, doff, soff, n) &&
			       sweep_args(fn, doff, soff, n, &d, &s));
		if (quick_mode) {
			for (k = 0; ok[i] && k < NIMPLS; k++) {
				struct meas *m = &res[i][k];

				measure_cell(fn, k, d, s, n, m);
				printf("%8lu %-15s %10lu %10lu %10lu %9s\n", (unsigned long)n,
				       impls[k].name, m->cyc, m->ins, m->tim,
				       mbps(b1, sizeof(b1), n, m->tim, bench_hz));
			}
			continue;
		}
		printf("%8lu", (unsigned long)n);
		for (k = 0; k < NIMPLS && ok[i]; k++) {
			struct meas *m = &res[i][k];

			measure_cell(fn, k, d, s, n, m);
			printf(" | %8lu %8s c/B", m->ins, fixed(b1, sizeof(b1), m->cyc, n, 3));
		}
		if (!ok[i])
			printf(" | (dst - src >= n: no backward overlap possible)");
		printf("\n");
	}
	/* In the order of the calls (trace mode depends on it). */
	for (i = 0; i < nsizes; i++)
		for (k = 0; k < NIMPLS && ok[i]; k++)
			cell_csv("sweep", fn, k, doff, soff, sweep_sizes[i], &res[i][k]);
}

static void sweep(void)
{
	int fn, p;

	printf("\n=== Size sweep: %d sizes, %d implementations\n", sweep_nsizes(), NIMPLS);
	for (fn = 0; fn < NFNS; fn++) {
		if (fn == FN_MEMSET) {
			for (p = 0; p < NSETOFFS; p++)
				if (quick_cell(fn, set_offs[p], 0, 8))
					sweep_table(fn, set_offs[p], 0);
		} else {
			for (p = 0; p < NPAIRS; p++)
				if (quick_cell(fn, copy_pairs[p].d, copy_pairs[p].s, 8))
					sweep_table(fn, copy_pairs[p].d, copy_pairs[p].s);
		}
	}
}

/* Trace mode: the cells of trace_extras[], after the sweep. */
static void trace_extra_cells(void)
{
	static struct meas res[NEXTRAS][NIMPLS];
	static char ok[NEXTRAS];
	char b1[24];
	int e, k;

	printf("\n=== Extra cells (trace mode): instructions per call, cycles per byte\n");
	printf("%-36s", "");
	for (k = 0; k < NIMPLS; k++)
		printf(" | %21s", impls[k].name);
	printf("\n");
	for (e = 0; e < NEXTRAS; e++) {
		int fn = trace_extras[e].fn, doff = trace_extras[e].d, soff = trace_extras[e].s;
		size_t n = trace_extras[e].n;
		unsigned char *d, *s;

		ok[e] = (char)sweep_args(fn, doff, soff, n, &d, &s);
		printf("%-11s dst%%8=%d src%%8=%d n=%-6lu", fn_names[fn], doff, soff,
		       (unsigned long)n);
		for (k = 0; k < NIMPLS && ok[e]; k++) {
			measure_cell(fn, k, d, s, n, &res[e][k]);
			printf(" | %8lu %8s c/B", res[e][k].ins,
			       fixed(b1, sizeof(b1), res[e][k].cyc, n, 3));
		}
		if (!ok[e])
			printf(" | (dst - src >= n: no backward overlap possible)");
		printf("\n");
	}
	for (e = 0; e < NEXTRAS; e++)
		for (k = 0; k < NIMPLS && ok[e]; k++)
			cell_csv("extra", trace_extras[e].fn, k, trace_extras[e].d,
				 trace_extras[e].s, trace_extras[e].n, &res[e][k]);
}

/* ---- the 32 MiB phase ---------------------------------------------------------- */

static void big_memcpy(uint32_t hz)
{
	static struct meas res[8][8];
	char b1[24];
	int k, i, j;

	printf("\n=== memcpy(dst + i, src + j, 32 MiB - max(i, j)), i, j in 0..7: two 32 MiB buffers\n");
	for (k = 0; k < NIMPLS; k++) {
		for (i = 0; i < 8; i++) {
			printf("PROGRESS: memcpy 32 MiB, %s, row i=%d of 0..7\n", impls[k].name, i);
			for (j = 0; j < 8; j++)
				measure_cpy(k, impls[k].cpy, buf_b + i, buf_a + j,
					    BIG_SIZE - (size_t)(i > j ? i : j),
					    WM_BENCH_BIG_RUNS, &res[i][j]);
		}
		printf("\nmemcpy 32 MiB, %s: MB/s (rows: dst offset i, columns: src offset j)\n",
		       impls[k].name);
		printf("%6s", "i\\j");
		for (j = 0; j < 8; j++)
			printf(" %8d", j);
		printf("\n");
		for (i = 0; i < 8; i++) {
			printf("%6d", i);
			for (j = 0; j < 8; j++)
				printf(" %8s", mbps(b1, sizeof(b1),
						    BIG_SIZE - (size_t)(i > j ? i : j),
						    res[i][j].tim, hz));
			printf("\n");
		}
		printf("memcpy 32 MiB, %s: cycles per byte\n", impls[k].name);
		for (i = 0; i < 8; i++) {
			printf("%6d", i);
			for (j = 0; j < 8; j++)
				printf(" %8s", fixed(b1, sizeof(b1), res[i][j].cyc,
						     BIG_SIZE - (size_t)(i > j ? i : j), 3));
			printf("\n");
		}
		for (i = 0; i < 8; i++)
			for (j = 0; j < 8; j++)
				csv("big,memcpy,%s,%d,%d,%lu,%d,%lu,%lu,%lu", impls[k].name, i, j,
				    (unsigned long)(BIG_SIZE - (size_t)(i > j ? i : j)),
				    WM_BENCH_BIG_RUNS, res[i][j].cyc, res[i][j].ins, res[i][j].tim);
	}
}

static void big_memset(uint32_t hz)
{
	static struct meas res[8][NIMPLS];
	char b1[24], b2[24];
	int k, i;

	printf("\n=== memset(dst + i, 0, 32 MiB - i), i in 0..7\n");
	for (k = 0; k < NIMPLS; k++) {
		printf("PROGRESS: memset 32 MiB, %s\n", impls[k].name);
		for (i = 0; i < 8; i++)
			measure_set(k, impls[k].set, buf_b + i, 0, BIG_SIZE - (size_t)i,
				    WM_BENCH_BIG_RUNS, &res[i][k]);
	}
	printf("\nmemset 32 MiB: MB/s, cycles per byte\n%6s", "i");
	for (k = 0; k < NIMPLS; k++)
		printf(" | %21s", impls[k].name);
	printf("\n");
	for (i = 0; i < 8; i++) {
		printf("%6d", i);
		for (k = 0; k < NIMPLS; k++)
			printf(" | %8s %8s c/B",
			       mbps(b1, sizeof(b1), BIG_SIZE - (size_t)i, res[i][k].tim, hz),
			       fixed(b2, sizeof(b2), res[i][k].cyc, BIG_SIZE - (size_t)i, 3));
		printf("\n");
	}
	for (k = 0; k < NIMPLS; k++)
		for (i = 0; i < 8; i++)
			csv("big,memset,%s,%d,,%lu,%d,%lu,%lu,%lu", impls[k].name, i,
			    (unsigned long)(BIG_SIZE - (size_t)i), WM_BENCH_BIG_RUNS,
			    res[i][k].cyc, res[i][k].ins, res[i][k].tim);
}

/*
 * memmove within one 32 MiB buffer, MOVE_GAP bytes apart (plus the
 * offsets): forward moves the data down, backward up, overlapping.
 */
static void big_memmove(uint32_t hz)
{
	static struct meas res[2][NPAIRS][NIMPLS];
	const size_t n = BIG_SIZE - 2 * MOVE_GAP;
	char b1[24], b2[24];
	int dir, p, k;

	for (dir = 0; dir < 2; dir++) {
		printf("\n=== %s, 32 MiB - %d bytes, %d bytes apart plus the offsets\n",
		       fn_desc[dir ? FN_MOVE_BWD : FN_MOVE_FWD], 2 * MOVE_GAP, MOVE_GAP);
		for (k = 0; k < NIMPLS; k++) {
			printf("PROGRESS: %s 32 MiB, %s\n", fn_names[dir ? FN_MOVE_BWD : FN_MOVE_FWD],
			       impls[k].name);
			for (p = 0; p < NPAIRS; p++) {
				int doff = copy_pairs[p].d, soff = copy_pairs[p].s;
				unsigned char *d = buf_a + (dir ? MOVE_GAP : 0) + doff;
				unsigned char *s = buf_a + (dir ? 0 : MOVE_GAP) + soff;

				measure_cpy(k, impls[k].move, d, s, n, WM_BENCH_BIG_RUNS,
					    &res[dir][p][k]);
			}
		}
		printf("\n%s 32 MiB: MB/s, cycles per byte\n%9s",
		       fn_names[dir ? FN_MOVE_BWD : FN_MOVE_FWD], "dst,src%8");
		for (k = 0; k < NIMPLS; k++)
			printf(" | %21s", impls[k].name);
		printf("\n");
		for (p = 0; p < NPAIRS; p++) {
			printf("%7d,%d", copy_pairs[p].d, copy_pairs[p].s);
			for (k = 0; k < NIMPLS; k++)
				printf(" | %8s %8s c/B", mbps(b1, sizeof(b1), n, res[dir][p][k].tim, hz),
				       fixed(b2, sizeof(b2), res[dir][p][k].cyc, n, 3));
			printf("\n");
		}
	}
	for (dir = 0; dir < 2; dir++)
		for (k = 0; k < NIMPLS; k++)
			for (p = 0; p < NPAIRS; p++)
				csv("big,%s,%s,%d,%d,%lu,%d,%lu,%lu,%lu",
				    fn_names[dir ? FN_MOVE_BWD : FN_MOVE_FWD], impls[k].name,
				    copy_pairs[p].d, copy_pairs[p].s, (unsigned long)n,
				    WM_BENCH_BIG_RUNS, res[dir][p][k].cyc, res[dir][p][k].ins,
				    res[dir][p][k].tim);
}

/* ---- the run ----------------------------------------------------------------- */

extern char _end[];

int bench_run(const struct fdt_info *fdt, const char *mode)
{
	int do_sweep = strcmp(mode, "sweep") == 0 || strcmp(mode, "full") == 0 ||
		       strcmp(mode, "trace") == 0 || strcmp(mode, "quick") == 0;
	int do_big = strcmp(mode, "big") == 0 || strcmp(mode, "full") == 0;
	size_t bufsize = do_big ? BIG_SIZE : SWEEP_MAX;
	uintptr_t base = ((uintptr_t)_end + 4095) & ~(uintptr_t)4095;
	uint64_t need = 2 * (uint64_t)(bufsize + SLACK);
	int equal;

	if (!do_sweep && !do_big) {
		printf("FAIL: unknown benchmark mode \"%s\" (sweep, big, full, trace or quick)\n", mode);
		return 1;
	}
	trace_mode = strcmp(mode, "trace") == 0;
	quick_mode = strcmp(mode, "quick") == 0;
	bench_hz = fdt->timebase_hz;
	if (base < fdt->mem_base || base + need > fdt->mem_base + fdt->mem_size) {
		printf("FAIL: the benchmark needs %llu MiB of RAM after the image (0x%lx); the device tree gives 0x%llx..0x%llx (run QEMU with -m 256M or more)\n",
		       (unsigned long long)(need >> 20), (unsigned long)base,
		       (unsigned long long)fdt->mem_base,
		       (unsigned long long)(fdt->mem_base + fdt->mem_size));
		return 1;
	}
	buf_a = (unsigned char *)base;
	buf_b = buf_a + bufsize + SLACK;
	/* Touch every page once; the source gets a non-zero pattern. */
	memset(buf_a, 0x5a, bufsize + SLACK);
	memset(buf_b, 0, bufsize + SLACK);

	misalign_init();
	equal = bench_calibrate();
	header(fdt, mode, equal);
	code_size();
	if (do_sweep) {
		if (trace_mode)
			bench_trace_start();
		sweep();
		if (trace_mode)
			trace_extra_cells();
		trap_phase_end("sweep");
	}
	if (do_big) {
		big_memcpy(fdt->timebase_hz);
		trap_phase_end("memcpy 32 MiB");
		big_memset(fdt->timebase_hz);
		trap_phase_end("memset 32 MiB");
		big_memmove(fdt->timebase_hz);
		trap_phase_end("memmove 32 MiB");
	}
	csv("end,%lu", csv_lines - 1);	/* begin excluded; this line not yet counted */
	/* The default image's verdict is the suite's SUMMARY: line. */
	printf("%s: benchmark %s: %lu points measured, %d failures%s\n",
	       quick_mode ? "BENCH" : "SUMMARY", mode, points, trap_fail,
	       trap_fail ? " (misaligned accesses counted in wordmerge)" : "");
	return trap_fail;
}

