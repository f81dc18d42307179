// SPDX-License-Identifier: MIT
/*
 * The one writer of the image's tagged lines (protocol.h).  A data line is
 * formatted into a buffer first, so that the CRC covers exactly the bytes
 * sent.  The run's CRC, which the EXIT: line closes with, is taken of the
 * characters as the console sends them (proto_console()): a line printed in
 * pieces (a build id's bytes, a group list) is covered as the reader sees it.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include "protocol.h"

static unsigned long proto_lines, run_lines;
static uint32_t proto_crc = 0xffffffffu, run_crc = 0xffffffffu;
static int run_in_line;		/* the console is sending a tagged line */

/* CRC-32 (IEEE, as zlib's crc32()), bit by bit: a few lines a second need no table. */
static uint32_t crc_add(uint32_t crc, unsigned char c)
{
	int k;

	crc ^= c;
	for (k = 0; k < 8; k++)
		crc = (crc >> 1) ^ (0xedb88320u & -(crc & 1));
	return crc;
}

static void proto_crc_add(const char *s)
{
	for (; *s; s++)
		proto_crc = crc_add(proto_crc, (unsigned char)*s);
}

void proto_console(char c)
{
	if (!run_in_line)
		return;
	run_crc = crc_add(run_crc, (unsigned char)c);
	if (c == '\n') {
		run_in_line = 0;
		run_lines++;
	}
}

void proto_line(const char *tag, const char *fmt, ...)
{
	va_list ap;

	run_in_line = 1;
	printf("%s: ", tag);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

unsigned long proto_misaligned(const char *what, const char *impl, int ours,
			       unsigned long long loads, unsigned long long stores)
{
	proto_line(TAG_PMU, "%s[%s]: misaligned loads +%llu stores +%llu%s\n", what, impl,
		   loads, stores, ours ? "" : " (reference, informative)");
	return ours ? (unsigned long)(loads + stores) : 0;
}

int proto_control(unsigned long long loads, unsigned long long stores, const char *otherwise)
{
	proto_line(TAG_PMU, "control (1 misaligned load, 1 misaligned store): counted loads +%llu "
		   "stores +%llu\n", loads, stores);
	if (loads >= 1 && stores >= 1) {
		proto_line(TAG_PMU, "VERDICT: this platform traps misaligned accesses: the zero "
			   "counts below are proof\n");
		return 1;
	}
	proto_line(TAG_PMU, "VERDICT: does not trap here: %s\n", otherwise);
	return 0;
}

void proto_csv(const char *fmt, ...)
{
	char line[640] = TAG_CSV ":";
	size_t k = sizeof(TAG_CSV);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line + k, sizeof(line) - k, fmt, ap);
	va_end(ap);
	proto_crc_add(line);
	proto_crc_add("\n");
	proto_lines++;
	run_in_line = 1;
	printf("%s\n", line);
}

/*
 * CSV:end,<lines>,<crc>: the records after begin up to this one, and the
 * CRC-32 of every CSV line from begin on, each with its newline; then a new
 * block may begin.
 */
void proto_end(void)
{
	unsigned long n = proto_lines - 1;	/* begin is not counted */
	uint32_t crc = ~proto_crc;

	proto_lines = 0;
	proto_crc = 0xffffffffu;
	run_in_line = 1;
	printf(TAG_CSV ":end,%lu,%08lx\n", n, (unsigned long)crc);
}

/*
 * EXIT: STATUS=<n> lines=<lines> crc=<crc>: the tagged lines before it and
 * the CRC-32 of them, each with its newline, and of this line up to its
 * status: a log cut short, or with a line or the status changed, is refused.
 */
void proto_exit(int status)
{
	unsigned long n = run_lines;

	run_in_line = 1;
	printf(TAG_EXIT ": STATUS=%d", status);
	run_in_line = 0;
	printf(" lines=%lu crc=%08lx\n", n, (unsigned long)~run_crc);
}
