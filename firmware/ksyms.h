/* SPDX-License-Identifier: MIT */
/* One entry of the generated symbol table (tools/mksyms.sh). */
#ifndef WM_KSYMS_H
#define WM_KSYMS_H

#include <stdint.h>

struct ksym {
	uintptr_t addr;
	uintptr_t size;
	char name[48];	/* longer names are cut */
};

/* The table, sorted by address (linker/wordmerge.ld). */
extern const struct ksym _syms_start[], _syms_end[];

#endif /* WM_KSYMS_H */
