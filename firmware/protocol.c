// SPDX-License-Identifier: MIT
/*
 * The one writer of the image's tagged lines (protocol.h).  A data line is
 * formatted into a buffer first, so that the CRC covers exactly the bytes
 * sent.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include "protocol.h"

static unsigned long proto_lines;
static uint32_t proto_crc = 0xffffffffu;

/* CRC-32 (IEEE, as zlib's crc32()), bit by bit: a few lines a second need no table. */
static void proto_crc_add(const char *s)
{
	int k;

	for (; *s; s++) {
		proto_crc ^= (unsigned char)*s;
		for (k = 0; k < 8; k++)
			proto_crc = (proto_crc >> 1) ^ (0xedb88320u & -(proto_crc & 1));
	}
}

void proto_line(const char *tag, const char *fmt, ...)
{
	va_list ap;

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
	printf(TAG_CSV ":end,%lu,%08lx\n", n, (unsigned long)crc);
}
