/* SPDX-License-Identifier: MIT */
/*
 * The image's lines: the tag every line a reader looks at begins with, and
 * every CSV: record kind of the benchmark's data lines with its fields, in
 * one place; protocol.c writes them all.  docs/protocol.md specifies the same
 * lines for readers; tools/wmlog.py reads them against that spec, so a line
 * changed here and not there fails every test that reads a log.
 *
 * proto_line(TAG, fmt, ...) prints "TAG: " and then fmt as printf does: fmt
 * ends the line with its newline, or the caller's printf calls do, for a line
 * printed in pieces (a build id's bytes).
 *
 * proto_csv() prints "CSV:" and the record, counts the lines and keeps a
 * CRC-32 of them, which CSV_END closes with: a reader can tell a damaged or
 * truncated capture from a good one.  The console passes every character it
 * sends to proto_console(), which keeps the run's count and CRC-32 of the
 * tagged lines (CSV: ones too); proto_exit() prints the EXIT: line with them.
 */
#ifndef WM_PROTOCOL_H
#define WM_PROTOCOL_H

#define PROTO_FORMAT 3

#define TAG_BANNER		"BANNER"
#define TAG_PMU			"PMU"
#define TAG_MMU			"MMU"
#define TAG_FAIL		"FAIL"
#define TAG_TRAP		"TRAP"
#define TAG_TRAP_SELFTEST	"TRAP-SELFTEST"
#define TAG_EXIT		"EXIT"
#define TAG_CSV			"CSV"
/* the suite's (tests/suite.c, in the image and on the hosts) */
#define TAG_TARGET		"TARGET"
#define TAG_GUARD		"GUARD"
#define TAG_SKIP		"SKIP"
#define TAG_PLAN		"PLAN"
#define TAG_PASS		"PASS"
#define TAG_REF_FAILED		"REF-FAILED"
#define TAG_SUMMARY		"SUMMARY"

void proto_line(const char *tag, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * The misaligned-access counts' lines (PMU:), whoever counts them: the SBI PMU
 * (firmware/misalign.c) or the AArch64 image's alignment faults
 * (tests/aarch64/main.c).  proto_misaligned() prints "PMU: what[impl]:
 * misaligned loads +L stores +S" and returns L + S when `ours` (a count in
 * wordmerge is a failure), 0 for a reference (informative).  proto_control()
 * prints what the positive control (one misaligned load, one store) counted
 * and the verdict, `otherwise` after "does not trap here: " when it was not
 * counted; returns whether it was.
 */
unsigned long proto_misaligned(const char *what, const char *impl, int ours,
			       unsigned long long loads, unsigned long long stores);
int proto_control(unsigned long long loads, unsigned long long stores, const char *otherwise);

#define CSV_BEGIN(mode)		proto_csv("begin,wordmerge-bench,%d,%s", PROTO_FORMAT, mode)
/* key, then a value: a number, or a string in double quotes */
#define CSV_META_STR(key, s)	proto_csv("meta," key ",\"%s\"", s)
#define CSV_META_NUM(key, v)	proto_csv("meta," key ",%lu", (unsigned long)(v))
#define CSV_META_HEX(key, v)	proto_csv("meta," key ",0x%lx", (unsigned long)(v))
#define CSV_META_PAIR(key, a, b) \
	proto_csv("meta," key ",%lu,%lu", (unsigned long)(a), (unsigned long)(b))
/* an implementation measured, and its three functions' symbols */
#define CSV_IMPL(name, cpy, move, set)	proto_csv("impl,%s,%s,%s,%s", name, cpy, move, set)
/* a peer's measured source file: its package and version, sha256, known or unknown */
#define CSV_SOURCE(impl, version, file, sha256, known)					\
	proto_csv("source,%s,\"%s\",\"%s\",%s,%s", impl, version, file, sha256,		\
		  (known) ? "known" : "unknown")
/* a function measured, and what it means */
#define CSV_FUNCTION(fn, title)	proto_csv("function,%s,\"%s\"", fn, title)
/* before a table's measurements; a and b as the phase needs (may be empty) */
#define CSV_PROGRESS(phase, fn, a, b)	proto_csv("progress,%s,%s,%s,%s", phase, fn, a, b)
/* kind sweep or extra: fn impl dst%8 src%8 (empty: memset) n runs cycles instret
 * instret_max ticks */
#define CSV_CELL(kind, fn, impl, d, s, n, runs, cyc, ins, insmax, tim)			\
	proto_csv("%s,%s,%s,%d,%s,%lu,%d,%lu,%lu,%lu,%lu", kind, fn, impl, d, s,	\
		  (unsigned long)(n), runs, cyc, ins, insmax, tim)
/* fn impl dst_off src_off (empty: memset) n runs cycles instret ticks */
#define CSV_BIG(fn, impl, d, s, n, runs, cyc, ins, tim)					\
	proto_csv("big,%s,%s,%d,%s,%lu,%d,%lu,%lu,%lu", fn, impl, d, s,			\
		  (unsigned long)(n), runs, cyc, ins, tim)
/* the fleet call mix: fn impl size-class calls bytes, cycles and instret summed over the calls */
#define CSV_MIX(fn, impl, cls, calls, bytes, cyc, ins)					\
	proto_csv("mix,%s,%s,%s,%d,%lu,%lu,%lu", fn, impl, cls, calls, bytes, cyc, ins)
#define CSV_DONE(mode, points, failures) \
	proto_csv("done,%s,%lu,%d", mode, (unsigned long)(points), failures)
/* the lines between begin and end, and their CRC-32 (see proto_end()) */
#define CSV_END()		proto_end()

void proto_csv(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void proto_end(void);
void proto_console(char c);
void proto_exit(int status);

#endif /* WM_PROTOCOL_H */
