// SPDX-License-Identifier: MIT
/*
 * Just enough of a flattened device tree reader for this image: one pass over
 * the structure block collects what the banner, the benchmarks and the exit
 * path need (see struct fdt_info).  Format: Devicetree Specification v0.4,
 * chapter 5.  Called once by the boot hart, before anything else reads the
 * tree.
 */
#include <stdint.h>
#include <string.h>

#include "firmware.h"

#define FDT_MAGIC	0xd00dfeedU
#define FDT_BEGIN_NODE	1
#define FDT_END_NODE	2
#define FDT_PROP	3
#define FDT_NOP		4
#define FDT_END		9
#define FDT_MAX_DEPTH	16

/* The tree is big-endian; read it a byte at a time, whatever our order. */
static uint32_t be32(const void *p)
{
	const unsigned char *b = p;

	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

/* `cells` 32-bit cells as one number (1 or 2 cells). */
static uint64_t read_cells(const unsigned char *p, uint32_t cells)
{
	uint64_t v = 0;

	while (cells--) {
		v = v << 32 | be32(p);
		p += 4;
	}
	return v;
}

/* Is `want` one of the NUL-separated strings of a stringlist property? */
static int has_string(const char *list, uint32_t len, const char *want)
{
	uint32_t i = 0;

	while (i < len) {
		if (strcmp(list + i, want) == 0)
			return 1;
		i += (uint32_t)strlen(list + i) + 1;
	}
	return 0;
}

/* What one node said of itself; evaluated when the node ends. */
struct fdt_node {
	const char *name;
	const unsigned char *reg;
	uint32_t reg_len;
	const char *compatible;
	uint32_t compatible_len;
	int is_memory, is_cpu, is_cpus;
	int has_mmu, disabled;		/* cpu nodes: mmu-type, status */
	uint32_t addr_cells, size_cells; /* for this node's children */
};

/* A property value that is one NUL-terminated string of its length. */
static int is_string(const unsigned char *val, uint32_t len)
{
	return len > 0 && val[len - 1] == 0;
}

/*
 * Every offset and length is checked against the blob's totalsize before it
 * is used: a malformed or hostile tree gets a reason, never a read outside
 * the blob.  Nodes nested deeper than FDT_MAX_DEPTH are walked but not
 * looked into (nothing the image needs lies that deep).
 */
const char *fdt_scan(const void *fdt, struct fdt_info *info)
{
	const unsigned char *base = fdt;
	const unsigned char *p, *end;
	const char *strings;
	uint32_t total, off_struct, size_struct, off_strings, size_strings;
	struct fdt_node stack[FDT_MAX_DEPTH];
	int depth = -1, harts_all = 0;

	memset(info, 0, sizeof(*info));
	if (!fdt || ((uintptr_t)fdt & 3))
		return "no device tree address in a1 (NULL or not 4-byte aligned)";
	if (be32(base) != FDT_MAGIC)
		return "no device tree at a1 (no magic 0xd00dfeed)";
	total = be32(base + 4);
	off_struct = be32(base + 8);
	off_strings = be32(base + 12);
	size_strings = be32(base + 32);
	size_struct = be32(base + 36);
	if (total < 40 || be32(base + 20) < 17)
		return "device tree header too short or older than version 17";
	if (off_struct > total || size_struct > total - off_struct ||
	    off_strings > total || size_strings > total - off_strings)
		return "device tree blocks lie outside its totalsize";
	p = base + off_struct;
	end = p + size_struct;
	strings = (const char *)base + off_strings;

	while (p < end) {
		uint32_t token;

		if ((size_t)(end - p) < 4)
			return "device tree structure block ends inside a token";
		token = be32(p);
		p += 4;
		if (token == FDT_BEGIN_NODE) {
			const unsigned char *nul = memchr(p, 0, (size_t)(end - p));
			size_t len;
			struct fdt_node *n;

			if (!nul)
				return "device tree node name runs past the structure block";
			len = (size_t)(nul - p);
			if ((size_t)(end - p) < ((len + 1 + 3) & ~(size_t)3))
				return "device tree node name runs past the structure block";
			depth++;
			if (depth < FDT_MAX_DEPTH) {
				n = &stack[depth];
				memset(n, 0, sizeof(*n));
				n->name = (const char *)p;
				n->addr_cells = 2; /* defaults from the specification */
				n->size_cells = 1;
				n->is_cpus = depth == 1 && strcmp(n->name, "cpus") == 0;
				n->is_cpu = depth == 2 && stack[1].is_cpus &&
					    strncmp(n->name, "cpu@", 4) == 0;
			}
			p += (len + 1 + 3) & ~(size_t)3;
		} else if (token == FDT_END_NODE) {
			struct fdt_node *n;
			const struct fdt_node *parent;

			if (depth < 0)
				return "device tree ends a node it never began";
			if (depth >= FDT_MAX_DEPTH) {
				depth--;
				continue;
			}
			n = &stack[depth];
			parent = depth ? &stack[depth - 1] : NULL;
			/*
			 * Harts that can run this image: enabled, and with an
			 * MMU where the tree names one for any (sifive_u's E51
			 * monitor hart has none and no S-mode).
			 */
			if (n->is_cpu && !n->disabled) {
				harts_all++;
				info->nharts += n->has_mmu;
			}
			if (parent && n->reg && n->is_memory && !info->mem_size &&
			    parent->addr_cells <= 2 && parent->size_cells <= 2 &&
			    n->reg_len >= 4 * (parent->addr_cells + parent->size_cells)) {
				info->mem_base = read_cells(n->reg, parent->addr_cells);
				info->mem_size = read_cells(n->reg + 4 * parent->addr_cells,
							    parent->size_cells);
			}
			if (parent && n->reg && n->compatible && parent->addr_cells <= 2 &&
			    n->reg_len >= 4 * parent->addr_cells &&
			    has_string(n->compatible, n->compatible_len, "sifive,test0")) {
				info->finisher = read_cells(n->reg, parent->addr_cells);
				info->has_finisher = 1;
			}
			if (parent && n->reg && n->compatible && parent->addr_cells <= 2 &&
			    n->reg_len >= 4 * parent->addr_cells && !info->pl011 &&
			    has_string(n->compatible, n->compatible_len, "arm,pl011"))
				info->pl011 = read_cells(n->reg, parent->addr_cells);
			depth--;
		} else if (token == FDT_PROP) {
			uint32_t len, nameoff;
			const char *name;
			const unsigned char *val;
			struct fdt_node *n;

			if ((size_t)(end - p) < 8)
				return "device tree property header runs past the structure block";
			len = be32(p);
			nameoff = be32(p + 4);
			val = p + 8;
			if (len > (size_t)(end - val) || ((len + 3) & ~3U) > (size_t)(end - val))
				return "device tree property value runs past the structure block";
			if (nameoff >= size_strings ||
			    !memchr(strings + nameoff, 0, size_strings - nameoff))
				return "device tree property name lies outside the strings block";
			name = strings + nameoff;
			p = val + ((len + 3) & ~3U);
			if (depth < 0)
				return "device tree property outside any node";
			if (depth >= FDT_MAX_DEPTH)
				continue;
			n = &stack[depth];
			if (strcmp(name, "reg") == 0) {
				n->reg = val;
				n->reg_len = len;
			} else if (strcmp(name, "compatible") == 0 && is_string(val, len)) {
				n->compatible = (const char *)val;
				n->compatible_len = len;
			} else if (strcmp(name, "device_type") == 0 && is_string(val, len)) {
				n->is_memory = strcmp((const char *)val, "memory") == 0;
			} else if (strcmp(name, "#address-cells") == 0 && len == 4) {
				n->addr_cells = be32(val);
			} else if (strcmp(name, "#size-cells") == 0 && len == 4) {
				n->size_cells = be32(val);
			} else if (strcmp(name, "timebase-frequency") == 0 &&
				   (n->is_cpus || n->is_cpu) && len == 4 && !info->timebase_hz) {
				info->timebase_hz = be32(val);
			} else if (strcmp(name, "mmu-type") == 0 && n->is_cpu) {
				n->has_mmu = 1;
			} else if (strcmp(name, "status") == 0 && n->is_cpu && is_string(val, len)) {
				n->disabled = strcmp((const char *)val, "okay") != 0 &&
					      strcmp((const char *)val, "ok") != 0;
			} else if (strcmp(name, "model") == 0 && depth == 0 && is_string(val, len)) {
				strncpy(info->model, (const char *)val, sizeof(info->model) - 1);
			}
		} else if (token == FDT_END) {
			break;
		} else if (token != FDT_NOP) {
			return "device tree structure block holds an unknown token";
		}
	}
	if (depth != -1)
		return "device tree structure block ends inside a node";
	if (!info->nharts)
		info->nharts = harts_all;
	return NULL;
}
