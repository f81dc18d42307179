// SPDX-License-Identifier: MIT
/*
 * The benchmark: wordmerge's memcpy/memmove/memset (the standard names in
 * this image) against every other implementation the image carries
 * (firmware/impls.mk: the peers, picolibc's two Debian builds among them, a
 * user's IMPL= entries) and a plain byte loop, timed with rdcycle,
 * rdinstret and rdtime around each call.
 * The benchmark image (make BENCH=MODE: bench_main.c, tests/bench.mk) runs
 * one mode instead of the correctness suite; the suite image (main.c) runs
 * mode quick after its suite (see bench.h).  Modes:
 *   sweep  sizes 1 .. 1 MiB at six (dst%8, src%8) pairs, every function;
 *          quick (make bench-check runs it under QEMU -icount on every
 *          make test)
 *   big    the 2021 series' own method: two 32 MiB buffers, memcpy at all
 *          8x8 (dst%8, src%8) offsets, memset at 8, memmove both ways at six
 *   full   sweep then big (make bench)
 *   quick  the default image's closing benchmark: memcpy and
 *          backward memmove at one co-aligned and one misaligned pair,
 *          memset at two offsets, 8 B to 1 MiB: what one serial log of a
 *          board should show, in well under a second there
 *   trace  the sweep's cells up to 64 KiB, each call made once, and a few
 *          extra cells: the instructions of each call are recorded by a
 *          QEMU plugin and fed to a pipeline model (make cycles:
 *          tests/cycles.mk, tools/plugin.c, tools/cycles.py)
 * Every mode but big ends with the fleet call mix: for each implementation,
 * memcpy, memmove and memset each make the same FLEETMIX_CALLS calls, drawn
 * by tools/fleetmix.py from Google's fleet profiles (tests/fleet/: sizes
 * 0..4096, pointer residues, memmove's overlap); each call is timed on its
 * own (minimum over mix_runs() runs, net of the overhead) and the calls of a
 * size class are summed into one CSV:mix line.
 *
 * Output: CSV: data lines only, through protocol.h (docs/protocol.md says
 * what each field means); tools/report.py renders them.  cycles, instret
 * and time are the minimum over the runs, cycles and instret net of the
 * measurement overhead (see bench_calibrate()); time ticks are of the
 * device tree's timebase.  Besides these, the PMU's lines
 * (firmware/misalign.c) name the misaligned accesses counted in each phase.
 *
 * Trace mode: after the calibration the image calls bench_trace_start()
 * once, then makes exactly one timed call per CSV:sweep and CSV:extra line
 * and `calls` timed calls per CSV:mix line, in the order of those lines, so
 * that the timed calls after that mark, taken in order, are the lines' calls
 * one after another: a sweep or extra line's one call, then a mix line's
 * `calls` calls (those of one size class, made one after the other), and so
 * on (tools/cycles.py relies on it).
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
#include "mmu.h"
#include "sbi.h"
#include "umode.h"
#include "impls.h"
#include "protocol.h"

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

#define BENCH_FORMAT	2
#define KIB		((size_t)1024)
#define MIB		(1024 * KIB)
#define BIG_SIZE	(32 * MIB)	/* the series' buffers */
#define SWEEP_MAX	MIB		/* the sweep's largest size */
#define SLACK		(4 * KIB)	/* room for offsets and overlap */
#define MOVE_GAP	64		/* 32 MiB memmove: distance dst..src */

typedef void *(*cpy_fn)(void *, const void *, size_t);
typedef void *(*set_fn)(void *, int, size_t);

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

enum bench_fn { FN_MEMCPY, FN_MOVE_FWD, FN_MOVE_BWD, FN_MEMSET, NFNS };
static const char *const fn_names[NFNS] = { "memcpy", "memmove_fwd", "memmove_bwd",
					    "memset" };
static const char *const fn_titles[NFNS] = { "memcpy", "memmove forward (dst < src)",
					     "memmove backward (dst > src, overlapping)",
					     "memset" };

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
 * pairs do not cover, where lib once trailed the Linux kernel's asm: a memcpy whose source is
 * misaligned by 3 at 4 KiB, and a backward memmove with dst = src + 3
 * (sweep_args() places src at src%8 and dst at the smallest distance with
 * dst%8, here 3); and calls with n = 0.
 */
#define TRACE_MAX	(64 * KIB)
static const struct { int fn, d, s; size_t n; } trace_extras[] = {
	{ FN_MEMCPY, 0, 3, 4 * KIB },
	{ FN_MOVE_BWD, 3, 0, 64 },
	/* n = 0: what such a call costs (many calls in real programs are) */
	{ FN_MEMCPY, 0, 0, 0 },
	{ FN_MOVE_FWD, 0, 0, 0 },
	{ FN_MEMSET, 0, 0, 0 },
};
#define NEXTRAS ((int)(sizeof(trace_extras) / sizeof(trace_extras[0])))

/* One measured call (or the minimum of several). */
struct meas {
	unsigned long cyc, ins, ins_max, tim;
};

/*
 * Measurement overhead: subtracted from every cycle and instret delta; a
 * user's calls (U-mode, firmware/umode.c) have the gate's.
 */
static struct meas ovh_cpy, ovh_set, ovh_user;
static unsigned long points;
static unsigned char *buf_a, *buf_b;	/* source side, destination side */
/* Trace mode (see the top): one call per cell, sizes up to TRACE_MAX. */
static int trace_mode;
/* Quick mode (the default image): the cells quick_cell() picks. */
static int quick_mode;

/* ---- output ---------------------------------------------------------------- */

/* A string for a CSV field: double quotes and control characters become '. */
static const char *csv_clean(const char *s, char *buf, size_t len)
{
	size_t i;

	for (i = 0; s[i] && i + 1 < len; i++)
		buf[i] = (s[i] == '"' || (unsigned char)s[i] < ' ') ? '\'' : s[i];
	buf[i] = 0;
	return buf;
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

/*
 * A user's call: in U-mode, through the gate, which reads the counters
 * around the call itself as TIME_CALL does (firmware/umode.c), so that
 * neither the sret nor the ecall is counted.
 */
static void time_user(uintptr_t f, uintptr_t a, uintptr_t b, size_t n, struct meas *m)
{
	umode_call(f, a, b, n);
	m->cyc = umode_counts.cyc;
	m->ins = umode_counts.ins;
	m->tim = umode_counts.tim;
}

/* The call being measured, for a trap's report (bench_current()). */
static struct {
	const char *fn;
	int k;
	const void *d, *s;
	unsigned long n;
} bench_now;

static int bench_current(char *buf, size_t size)
{
	if (!bench_now.fn)
		return 0;
	snprintf(buf, size, "%s[%s] benchmark: dst=0x%lx%s%.0lx n=%lu", bench_now.fn,
		 wm_impls[bench_now.k].f.name, (unsigned long)bench_now.d,
		 bench_now.s ? " src=0x" : "", (unsigned long)bench_now.s, bench_now.n);
	return 1;
}

static void now_set(const char *fn, int k, const void *d, const void *s, size_t n)
{
	bench_now.fn = fn;
	bench_now.k = k;
	bench_now.d = d;
	bench_now.s = s;
	bench_now.n = n;
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
 * Misaligned-access traps (firmware/misalign.c) counted while each implementation
 * ran, per phase: read outside the timed calls, printed and reset at the end
 * of every phase by trap_phase_end().  A count for wordmerge fails the run.
 */
static struct misalign_counts trap_phase[WM_NIMPLS];
static int trap_fail;

/* Adds the counts since `before` to implementation k's for this phase. */
static void trap_count(int k, struct misalign_counts before)
{
	struct misalign_counts d = misalign_since(before);

	trap_phase[k].loads += d.loads;
	trap_phase[k].stores += d.stores;
}

/*
 * Whether implementation k has the function fn measures: a user's file may
 * define only some of the three (firmware/impls.c); the others are skipped.
 */
static int has_fn(int k, enum bench_fn fn)
{
	const struct suite_impl *f = &wm_impls[k].f;

	return fn == FN_MEMCPY ? f->cpy != NULL : fn == FN_MEMSET ? f->set != NULL :
	       f->move != NULL;
}

/* A peer that did not build has none (tests/peers.mk): not measured, not named. */
static int has_any(int k)
{
	return has_fn(k, FN_MEMCPY) || has_fn(k, FN_MOVE_FWD) || has_fn(k, FN_MEMSET);
}

static void trap_phase_end(const char *phase)
{
	static const struct misalign_counts zero = { 0, 0 };
	int k;

	for (k = 0; k < WM_NIMPLS; k++) {
		const char *name = wm_impls[k].f.name;

		if (has_any(k) && misalign_report(phase, name, impl_must_align(name), trap_phase[k]))
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

/*
 * Every timed call must do its work anew: before each, one byte of dst (another each run) is
 * made unlike what the call is to store there, and read back after it.  A function that
 * remembers its last call and returns at once (its time the minimum kept) fails the run.
 */
static size_t spot(size_t n, int r)
{
	return ((size_t)r * 61 + n / 2) % n;
}

static void spoiled(int k, const char *fn, size_t n, const unsigned char *p, const void *d,
		    unsigned char want)
{
	static unsigned char said[WM_NIMPLS];

	if (*p == want || said[k])
		return;
	said[k] = 1;	/* once an implementation; a peer's is its own, as in the suite */
	proto_line(wm_impls[k].role == WM_REF ? TAG_REF_FAILED : TAG_FAIL, "%s[%s] benchmark n=%lu: "
		   "dst+%lu holds 0x%02x after the call, not 0x%02x: each timed call must store "
		   "every byte\n", fn, wm_impls[k].f.name, (unsigned long)n,
		   (unsigned long)(p - (const unsigned char *)d), *p, want);
	trap_fail |= wm_impls[k].role != WM_REF;
}

static void measure_cpy(int k, cpy_fn f, void *d, const void *s, size_t n,
			int runs, struct meas *best)
{
	struct misalign_counts before = misalign_read();
	int user = WM_NUSERS && wm_impls[k].role == WM_USER;	/* 0 users: no gate call at all */
	const char *fn = f == wm_impls[k].f.cpy ? "memcpy" : "memmove";
	unsigned char *p = NULL, want = 0;
	struct meas m;
	int r;

	now_set(fn, k, d, s, n);
	*best = (struct meas){ 0, 0, 0, 0 };	/* runs > 0, which GCC -O3 cannot tell */
	for (r = 0; r < runs; r++) {
		if (n) {	/* its source byte read after: dst may overlap the source */
			size_t at = spot(n, r);

			p = (unsigned char *)d + at;
			*p = (unsigned char)~((const unsigned char *)s)[at];
			want = ((const unsigned char *)s)[at];
		}
		if (user)
			time_user((uintptr_t)f, (uintptr_t)d, (uintptr_t)s, n, &m);
		else
			time_cpy(f, d, s, n, &m);
		if (p)
			spoiled(k, fn, n, p, d, want);
		keep_min(best, &m, r);
	}
	meas_finish(best, user ? &ovh_user : &ovh_cpy);
	trap_count(k, before);
}

static void measure_set(int k, set_fn f, void *d, int c, size_t n, int runs,
			struct meas *best)
{
	struct misalign_counts before = misalign_read();
	int user = WM_NUSERS && wm_impls[k].role == WM_USER;
	unsigned char *p = NULL;
	struct meas m;
	int r;

	now_set("memset", k, d, NULL, n);
	*best = (struct meas){ 0, 0, 0, 0 };	/* runs > 0, which GCC -O3 cannot tell */
	for (r = 0; r < runs; r++) {
		if (n) {
			p = (unsigned char *)d + spot(n, r);
			*p = (unsigned char)~c;
		}
		if (user)
			time_user((uintptr_t)f, (uintptr_t)d, (unsigned long)c, n, &m);
		else
			time_set(f, d, c, n, &m);
		if (p)
			spoiled(k, "memset", n, p, d, (unsigned char)c);
		keep_min(best, &m, r);
	}
	meas_finish(best, user ? &ovh_user : &ovh_set);
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
	const cpy_fn loads[] = { memcpy, wm_impls[WM_NIMPLS - 1].f.cpy };	/* ours, a byte loop */
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
	if (WM_NUSERS && equal)
		umode_exact();
	for (r = 0; WM_NUSERS && r < 32; r++) {	/* a user's calls: the gate's */
		time_user((uintptr_t)umode_gate_empty, 0, 0, 0, &m);
		keep_min(&ovh_user, &m, r);
	}
	ovh_user.cyc = net(ovh_user.cyc, 1);
	ovh_user.ins = net(ovh_user.ins, 1);
	ovh_cpy.cyc = net(ovh_cpy.cyc, 1);
	ovh_cpy.ins = net(ovh_cpy.ins, 1);
	ovh_set.cyc = net(ovh_set.cyc, 1);
	ovh_set.ins = net(ovh_set.ins, 1);
	return equal;
}

/* ---- header and code size ----------------------------------------------------- */

/*
 * What a reader needs besides the figures, as meta lines: tools/report.py
 * (summary, report) says what they mean.
 */
static void header(const struct fdt_info *fdt, const char *mode, int equal)
{
	char model[sizeof(fdt->model)], flags[512], libflags[128], compiler[128];

	csv_clean(fdt->model, model, sizeof(model));
	csv_clean(WM_BENCH_CFLAGS, flags, sizeof(flags));
	csv_clean(WM_BENCH_LIB_CFLAGS, libflags, sizeof(libflags));
	snprintf(compiler, sizeof(compiler), "%s %s", WM_BENCH_CC, __VERSION__);
	CSV_BEGIN(mode);
	CSV_META_STR("platform", model);
	CSV_META_STR("compiler", csv_clean(compiler, compiler, sizeof(compiler)));
	CSV_META_STR("cflags", flags);
	strncat(flags, libflags[0] ? " " : "", sizeof(flags) - strlen(flags) - 1);
	strncat(flags, libflags, sizeof(flags) - strlen(flags) - 1);
	CSV_META_STR("lib_cflags", flags);
	CSV_META_NUM("timebase_hz", fdt->timebase_hz);
	CSV_META_NUM("mem_mib", fdt->mem_size >> 20);
	CSV_META_NUM("word_bytes", sizeof(unsigned long));
	CSV_META_NUM("counters_lockstep", equal);
	/* Hardware tells its vendor, QEMU (7.2, every machine) says 0: what makes the
	 * counts of a run without -icount a core's, not the host's clock. */
	CSV_META_HEX("mvendorid", (unsigned long)sbi_get_mvendorid());
	CSV_META_NUM("overhead_subtracted", 1);
	CSV_META_PAIR("overhead_cpy", ovh_cpy.ins, ovh_cpy.cyc);
	CSV_META_PAIR("overhead_set", ovh_set.ins, ovh_set.cyc);
	CSV_META_HEX("memcpy_addr", (uintptr_t)memcpy);
	CSV_META_NUM("big_size", BIG_SIZE);
}

/*
 * The symbol of each function measured.  Their code sizes are facts of the
 * linked ELF, not of the image: tools/report.py reads them from the ELF
 * (tools/elf.py), which it checks is the image that wrote the log.
 */
static void symbols(void)
{
	int i;

	/* What each peer's measured code is (docs/peers.md), before its name. */
#define SOURCE(impl, version, file, sha256, known) CSV_SOURCE(impl, version, file, sha256, known);
	WM_PEER_SOURCES(SOURCE)
	/* "-": a function the implementation lacks (a user's file may). */
	for (i = 0; i < WM_NIMPLS; i++)
		if (has_any(i))
			CSV_IMPL(wm_impls[i].f.name, has_fn(i, FN_MEMCPY) ? wm_impls[i].sym[0] : "-",
				 has_fn(i, FN_MOVE_FWD) ? wm_impls[i].sym[1] : "-",
				 has_fn(i, FN_MEMSET) ? wm_impls[i].sym[2] : "-");
	for (i = 0; i < NFNS; i++)
		CSV_FUNCTION(fn_names[i], fn_titles[i]);
	CSV_FUNCTION("memmove", "memmove, either direction (the fleet call mix)");
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
		measure_cpy(k, wm_impls[k].f.cpy, d, s, n, sweep_runs(n), m);
	else if (fn == FN_MEMSET)
		measure_set(k, wm_impls[k].f.set, d, 0xa5, n, sweep_runs(n), m);
	else
		measure_cpy(k, wm_impls[k].f.move, d, s, n, sweep_runs(n), m);
}

/* One cell's CSV line: kind is "sweep" or (trace mode) "extra". */
static void cell_csv(const char *kind, int fn, int k, int doff, int soff, size_t n,
		     const struct meas *m)
{
	char src[8] = "";

	if (fn != FN_MEMSET)
		snprintf(src, sizeof(src), "%d", soff);
	CSV_CELL(kind, fn_names[fn], wm_impls[k].f.name, doff, src, n, sweep_runs(n), m->cyc,
		 m->ins, m->ins_max, m->tim);
}

/* A progress line before a table's measurements (see the top). */
static void progress(const char *phase, int fn, int doff, int soff)
{
	char a[8], b[8] = "";

	snprintf(a, sizeof(a), "%d", doff);
	if (fn != FN_MEMSET)
		snprintf(b, sizeof(b), "%d", soff);
	CSV_PROGRESS(phase, fn_names[fn], a, b);
}

/*
 * One table of the sweep: every size, every implementation, each cell's
 * line right after its measurement (in the order of the calls: trace mode
 * depends on it).
 */
static void sweep_table(int fn, int doff, int soff)
{
	int i, k, nsizes = sweep_nsizes();

	progress("sweep", fn, doff, soff);
	for (i = 0; i < nsizes; i++) {
		size_t n = sweep_sizes[i];
		unsigned char *d, *s;

		if (!quick_cell(fn, doff, soff, n) || !sweep_args(fn, doff, soff, n, &d, &s))
			continue;	/* backward: dst - src >= n, no overlap possible */
		for (k = 0; k < WM_NIMPLS; k++) {
			struct meas m;

			if (!has_fn(k, fn))
				continue;
			measure_cell(fn, k, d, s, n, &m);
			cell_csv("sweep", fn, k, doff, soff, n, &m);
		}
	}
}

static void sweep(void)
{
	int fn, p;

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
	int e, k;

	for (e = 0; e < NEXTRAS; e++) {
		int fn = trace_extras[e].fn, doff = trace_extras[e].d, soff = trace_extras[e].s;
		size_t n = trace_extras[e].n;
		unsigned char *d, *s;

		progress("extra", fn, doff, soff);
		if (!sweep_args(fn, doff, soff, n, &d, &s))
			continue;
		for (k = 0; k < WM_NIMPLS; k++) {
			struct meas m;

			if (!has_fn(k, fn))
				continue;
			measure_cell(fn, k, d, s, n, &m);
			cell_csv("extra", fn, k, doff, soff, n, &m);
		}
	}
}

/* ---- the 32 MiB phase ---------------------------------------------------------- */

static void big_csv(const char *fn, int k, int doff, int soff, size_t n,
		    const struct meas *m)
{
	char src[8] = "";

	if (soff >= 0)
		snprintf(src, sizeof(src), "%d", soff);
	CSV_BIG(fn, wm_impls[k].f.name, doff, src, n, WM_BENCH_BIG_RUNS, m->cyc, m->ins, m->tim);
}

/* memcpy(dst + i, src + j, 32 MiB - max(i, j)), i, j in 0..7. */
static void big_memcpy(void)
{
	int k, i, j;

	static const char *const row[8] = { "0", "1", "2", "3", "4", "5", "6", "7" };

	for (k = 0; k < WM_NIMPLS; k++)
		for (i = 0; i < 8 && has_fn(k, FN_MEMCPY); i++) {
			CSV_PROGRESS("big", "memcpy", wm_impls[k].f.name, row[i]);
			for (j = 0; j < 8; j++) {
				size_t n = BIG_SIZE - (size_t)(i > j ? i : j);
				struct meas m;

				measure_cpy(k, wm_impls[k].f.cpy, buf_b + i, buf_a + j, n,
					    WM_BENCH_BIG_RUNS, &m);
				big_csv("memcpy", k, i, j, n, &m);
			}
		}
}

/* memset(dst + i, 0, 32 MiB - i), i in 0..7. */
static void big_memset(void)
{
	int k, i;

	for (k = 0; k < WM_NIMPLS; k++) {
		if (!has_fn(k, FN_MEMSET))
			continue;
		CSV_PROGRESS("big", "memset", wm_impls[k].f.name, "");
		for (i = 0; i < 8; i++) {
			struct meas m;

			measure_set(k, wm_impls[k].f.set, buf_b + i, 0, BIG_SIZE - (size_t)i,
				    WM_BENCH_BIG_RUNS, &m);
			big_csv("memset", k, i, -1, BIG_SIZE - (size_t)i, &m);
		}
	}
}

/*
 * memmove within one 32 MiB buffer, MOVE_GAP bytes apart (plus the
 * offsets): forward moves the data down, backward up, overlapping.
 */
static void big_memmove(void)
{
	const size_t n = BIG_SIZE - 2 * MOVE_GAP;
	int dir, p, k;

	for (dir = 0; dir < 2; dir++) {
		const char *fn = fn_names[dir ? FN_MOVE_BWD : FN_MOVE_FWD];

		for (k = 0; k < WM_NIMPLS; k++) {
			if (!has_fn(k, FN_MOVE_FWD))
				continue;
			CSV_PROGRESS("big", fn, wm_impls[k].f.name, "");
			for (p = 0; p < NPAIRS; p++) {
				int doff = copy_pairs[p].d, soff = copy_pairs[p].s;
				unsigned char *d = buf_a + (dir ? MOVE_GAP : 0) + doff;
				unsigned char *s = buf_a + (dir ? 0 : MOVE_GAP) + soff;
				struct meas m;

				measure_cpy(k, wm_impls[k].f.move, d, s, n, WM_BENCH_BIG_RUNS, &m);
				big_csv(fn, k, doff, soff, n, &m);
			}
		}
	}
}

/* ---- the fleet call mix ------------------------------------------------------ */

/* One call of the mix (the header's tables, made by tools/fleetmix.py). */
struct fleetmix_call {
	unsigned short n;
	unsigned char dst, src;	/* dst % 8, src % 8 (memset: src 0) */
	short delta;		/* memmove: dst - src */
};
#include "fleetmix.h"

enum { MIX_MEMCPY, MIX_MEMMOVE, MIX_MEMSET, NMIXFNS };
static const struct {
	const char *name;
	const struct fleetmix_call *calls;
	const unsigned short *count;	/* calls per size class, in order */
} mix_fns[NMIXFNS] = {
	{ "memcpy", fleetmix_memcpy, fleetmix_memcpy_count },
	{ "memmove", fleetmix_memmove, fleetmix_memmove_count },
	{ "memset", fleetmix_memset, fleetmix_memset_count },
};

static int mix_runs(void)
{
	return trace_mode ? 1 : 3;
}

/*
 * One call of the mix: memcpy and memset at the sweep's places plus the
 * residues; memmove within one buffer, src FLEETMIX_APART bytes in (room
 * for a dst below it) and dst = src + delta.
 */
static void mix_call(int fn, int k, const struct fleetmix_call *c, struct meas *m)
{
	unsigned char *d = buf_b + 64 + c->dst, *s = buf_a + 64 + c->src;

	if (fn == MIX_MEMCPY) {
		measure_cpy(k, wm_impls[k].f.cpy, d, s, c->n, mix_runs(), m);
	} else if (fn == MIX_MEMSET) {
		measure_set(k, wm_impls[k].f.set, d, 0xa5, c->n, mix_runs(), m);
	} else {
		s = buf_b + 64 + FLEETMIX_APART + c->src;
		measure_cpy(k, wm_impls[k].f.move, s + c->delta, s, c->n, mix_runs(), m);
	}
}

/* Every implementation, every function: one CSV:mix line per size class. */
static void mix(void)
{
	int fn, k, c, i, j;

	for (fn = 0; fn < NMIXFNS; fn++) {
		const unsigned short *count = mix_fns[fn].count;

		CSV_PROGRESS("mix", mix_fns[fn].name, "", "");
		for (k = 0; k < WM_NIMPLS; k++)
			for (c = 0, i = 0; c < FLEETMIX_NCLASSES &&
			     has_fn(k, fn == MIX_MEMCPY ? FN_MEMCPY : fn == MIX_MEMSET ? FN_MEMSET : FN_MOVE_FWD);
			     i += count[c++]) {
				unsigned long cyc = 0, ins = 0, bytes = 0;

				for (j = i; j < i + count[c]; j++) {
					struct meas m;

					mix_call(fn, k, &mix_fns[fn].calls[j], &m);
					cyc += m.cyc;
					ins += m.ins;
					bytes += mix_fns[fn].calls[j].n;
				}
				if (count[c])
					CSV_MIX(mix_fns[fn].name, wm_impls[k].f.name, fleetmix_classes[c],
						count[c], bytes, cyc, ins);
			}
	}
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
		proto_line(TAG_FAIL, "unknown benchmark mode \"%s\" (sweep, big, full, trace or quick)\n", mode);
		return 1;
	}
	trace_mode = strcmp(mode, "trace") == 0;
	quick_mode = strcmp(mode, "quick") == 0;
	if (base < fdt->mem_base || base + need > fdt->mem_base + fdt->mem_size) {
		proto_line(TAG_FAIL, "the benchmark needs %llu MiB of RAM after the image (0x%lx); "
			   "the device tree gives 0x%llx..0x%llx (run QEMU with -m 256M or more)\n",
		       (unsigned long long)(need >> 20), (unsigned long)base,
		       (unsigned long long)fdt->mem_base,
		       (unsigned long long)(fdt->mem_base + fdt->mem_size));
		return STATUS_NO_FDT;
	}
	buf_a = (unsigned char *)base;
	buf_b = buf_a + bufsize + SLACK;
	/* A user's functions reach these buffers in U-mode (firmware/mmu.c). */
	if (mmu_satp() && mmu_user_buffers(buf_a, buf_b + bufsize + SLACK)) {
		proto_line(TAG_FAIL, "the page table cannot map the benchmark's buffers\n");
		return STATUS_NO_FDT;
	}
	trap_context = bench_current;	/* a trap names the call */
	/* Touch every page once; the source gets a non-zero pattern. */
	memset(buf_a, 0x5a, bufsize + SLACK);
	memset(buf_b, 0, bufsize + SLACK);

	misalign_init();
	equal = bench_calibrate();
	header(fdt, mode, equal);
	symbols();
	if (do_sweep) {
		if (trace_mode)
			bench_trace_start();
		sweep();
		if (trace_mode)
			trace_extra_cells();
		trap_phase_end("sweep");
		mix();
		trap_phase_end("mix");
	}
	if (do_big) {
		big_memcpy();
		trap_phase_end("memcpy 32 MiB");
		big_memset();
		trap_phase_end("memset 32 MiB");
		big_memmove();
		trap_phase_end("memmove 32 MiB");
	}
	CSV_DONE(mode, points, trap_fail);
	CSV_END();
	return trap_fail;
}
