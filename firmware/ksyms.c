// SPDX-License-Identifier: MIT
/*
 * Function symbols of the image itself, for the trap handler.  The table is
 * generated from the linked ELF by tools/mksyms.sh and linked in a second
 * pass into the .wm_syms section, which the linker script places after all
 * code (so linking it in moves no function; the Makefile checks that).
 * Entries are sorted by address.  In the first pass the section is empty and
 * every lookup answers NULL.
 */
#include <stddef.h>

#include "firmware.h"
#include "ksyms.h"

const char *ksym_lookup(uintptr_t addr, uintptr_t *offset)
{
	const struct ksym *best = NULL;
	const struct ksym *k;

	for (k = _syms_start; k < _syms_end; k++) {
		if (k->addr > addr)
			break;
		best = k;
	}
	/* size 0: an assembly label, taken to run up to the next symbol */
	if (!best || (best->size && addr - best->addr >= best->size))
		return NULL;
	*offset = addr - best->addr;
	return best->name;
}
