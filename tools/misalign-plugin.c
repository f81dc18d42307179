/*
 * misalign-plugin.c - QEMU TCG plugin that records misaligned data accesses.
 *
 * For every guest data access (load or store, any size) the plugin checks
 * whether the virtual address is a multiple of the access size.  Misaligned
 * accesses are aggregated per (instruction pc, access size, load/store) with
 * a hit count and the first address seen.  At exit a raw report is written.
 *
 * Usage (QEMU >= 6.1 argument syntax, checked against QEMU 7.2 docs):
 *   qemu-system-riscv64 ... -plugin file=build/tools/misalign.so,out=FILE
 * Arguments:
 *   out=FILE      write the raw report to FILE (default: stderr).  FILE is
 *                 opened (truncated) at load time; if it cannot be opened the
 *                 plugin prints an error and refuses to load, so QEMU stops.
 *   summary=on|off  print a one-line summary to stderr at exit (default on).
 *
 * Raw report format (line oriented, '#' lines are comments/markers):
 *   # misalign-plugin v1 target=<name> smp=<n>
 *   <pc-hex> <size-bytes> <L|S> <count> <example-addr-hex>     (0..N lines)
 *   # end records=<N> accesses=<sum of counts> dropped=<D> checked=<C>
 * The "# end" trailer lets consumers detect a truncated/never-finished file.
 * dropped = misaligned accesses not recorded because the site table was full;
 * checked = all data accesses the plugin inspected (aligned or not).
 *
 * Build: gcc -shared -fPIC -O2 -Wall -Wextra -Werror -o misalign.so \
 *            misalign-plugin.c -lpthread
 * Debian ships no qemu-plugin.h: the API pieces used are declared in
 * qemu-plugin-api.h beside this file.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu-plugin-api.h"

/* ---------------------------- plugin state ---------------------------- */

/* The instruction pc travels to the memory callback as its userdata. */
_Static_assert(sizeof(void *) >= sizeof(uint64_t),
               "host pointers must hold a 64-bit guest pc");

#define TABLE_BITS 16
#define TABLE_SIZE (1u << TABLE_BITS)      /* distinct sites kept */

struct site {
    uint64_t pc;
    uint64_t example;       /* first misaligned address seen */
    uint64_t count;
    uint8_t shift;          /* log2(access size) */
    uint8_t store;
    uint8_t used;
};

static struct site *table;
static unsigned int n_sites;
static uint64_t n_dropped;  /* accesses not recorded: table full */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static bool finished;       /* report written; ignore late callbacks */

/*
 * Every checked access is counted per vCPU (one cache line each, written only
 * by its own vCPU thread) so the report can prove that instrumentation was
 * live even when nothing was misaligned.
 */
#define MAX_VCPU_SLOTS 256
static struct {
    uint64_t checked;
} __attribute__((aligned(64))) vcpu_ctr[MAX_VCPU_SLOTS];
static uint64_t checked_overflow;   /* vcpu_index >= MAX_VCPU_SLOTS: atomic */

static FILE *out_fp;        /* raw report destination */
static const char *out_name = "<stderr>";
static bool summary = true;
static char target_name[32] = "?";
static int smp_vcpus = -1;

static inline uint64_t hash_key(uint64_t pc, unsigned shift, unsigned store)
{
    uint64_t k = pc ^ ((uint64_t)shift << 59) ^ ((uint64_t)store << 63);
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return k;
}

static void record(uint64_t pc, unsigned shift, bool store, uint64_t vaddr)
{
    pthread_mutex_lock(&lock);
    if (finished) {
        pthread_mutex_unlock(&lock);
        return;
    }
    uint64_t h = hash_key(pc, shift, store);
    for (unsigned i = 0; i < TABLE_SIZE; i++) {
        struct site *s = &table[(h + i) & (TABLE_SIZE - 1)];
        if (!s->used) {
            if (n_sites >= TABLE_SIZE - 1) {   /* keep one slot free */
                n_dropped++;
                break;
            }
            s->used = 1;
            s->pc = pc;
            s->shift = (uint8_t)shift;
            s->store = store;
            s->example = vaddr;
            s->count = 1;
            n_sites++;
            break;
        }
        if (s->pc == pc && s->shift == shift && s->store == store) {
            s->count++;
            break;
        }
    }
    pthread_mutex_unlock(&lock);
}

/* Runs for every executed load/store of an instrumented instruction. */
static void mem_cb(unsigned int vcpu_index, qemu_plugin_meminfo_t info,
                   uint64_t vaddr, void *userdata)
{
    if (vcpu_index < MAX_VCPU_SLOTS) {
        uint64_t *c = &vcpu_ctr[vcpu_index].checked;
        __atomic_store_n(c, __atomic_load_n(c, __ATOMIC_RELAXED) + 1,
                         __ATOMIC_RELAXED);
    } else {
        __atomic_fetch_add(&checked_overflow, 1, __ATOMIC_RELAXED);
    }
    unsigned shift = qemu_plugin_mem_size_shift(info);
    uint64_t mask = (UINT64_C(1) << shift) - 1;
    if (__builtin_expect((vaddr & mask) == 0, 1)) {
        return;                                /* aligned: the fast path */
    }
    record((uint64_t)(uintptr_t)userdata, shift,
           qemu_plugin_mem_is_store(info), vaddr);
}

static void tb_trans_cb(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    size_t n = qemu_plugin_tb_n_insns(tb);
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        uint64_t pc = qemu_plugin_insn_vaddr(insn);
        qemu_plugin_register_vcpu_mem_cb(insn, mem_cb, QEMU_PLUGIN_CB_NO_REGS,
                                         QEMU_PLUGIN_MEM_RW,
                                         (void *)(uintptr_t)pc);
    }
}

static int cmp_site(const void *a, const void *b)
{
    const struct site *x = a, *y = b;
    if (x->pc != y->pc) {
        return x->pc < y->pc ? -1 : 1;
    }
    if (x->store != y->store) {
        return x->store < y->store ? -1 : 1;
    }
    return (int)x->shift - (int)y->shift;
}

static void atexit_cb(qemu_plugin_id_t id, void *userdata)
{
    (void)id;
    (void)userdata;

    pthread_mutex_lock(&lock);
    if (finished) {
        pthread_mutex_unlock(&lock);
        return;
    }
    finished = true;

    /* Compact and sort the used slots. */
    unsigned n = 0;
    for (unsigned i = 0; i < TABLE_SIZE; i++) {
        if (table[i].used) {
            table[n++] = table[i];
        }
    }
    qsort(table, n, sizeof(table[0]), cmp_site);

    uint64_t total = 0;
    FILE *fp = out_fp ? out_fp : stderr;
    fprintf(fp, "# misalign-plugin v1 target=%s smp=%d\n",
            target_name, smp_vcpus);
    for (unsigned i = 0; i < n; i++) {
        const struct site *s = &table[i];
        fprintf(fp, "0x%016" PRIx64 " %u %c %" PRIu64 " 0x%016" PRIx64 "\n",
                s->pc, 1u << s->shift, s->store ? 'S' : 'L', s->count,
                s->example);
        total += s->count;
    }
    uint64_t checked = __atomic_load_n(&checked_overflow, __ATOMIC_RELAXED);
    for (unsigned i = 0; i < MAX_VCPU_SLOTS; i++) {
        checked += __atomic_load_n(&vcpu_ctr[i].checked, __ATOMIC_RELAXED);
    }
    fprintf(fp, "# end records=%u accesses=%" PRIu64 " dropped=%" PRIu64
            " checked=%" PRIu64 "\n", n, total, n_dropped, checked);

    int err = 0;
    if (fflush(fp) != 0 || ferror(fp)) {
        err = errno ? errno : EIO;
    }
    if (out_fp && fclose(out_fp) != 0 && !err) {
        err = errno ? errno : EIO;
    }
    out_fp = NULL;
    if (err) {
        fprintf(stderr, "misalign-plugin: error writing %s: %s\n",
                out_name, strerror(err));
    }
    if (summary) {
        fprintf(stderr, "misalign-plugin: %" PRIu64 " misaligned accesses at "
                "%u sites (of %" PRIu64 " data accesses checked)%s -> %s\n",
                total, n, checked,
                n_dropped ? " (TABLE FULL, some dropped)" : "", out_name);
    }
    pthread_mutex_unlock(&lock);
}

/* "key=value" -> pointer to value if the key matches, else NULL. */
static const char *arg_value(const char *arg, const char *key)
{
    size_t n = strlen(key);
    return (!strncmp(arg, key, n) && arg[n] == '=') ? arg + n + 1 : NULL;
}

static int parse_bool(const char *val, bool *ret)
{
    if (!strcmp(val, "on") || !strcmp(val, "yes") || !strcmp(val, "true")) {
        *ret = true;
        return 0;
    }
    if (!strcmp(val, "off") || !strcmp(val, "no") || !strcmp(val, "false")) {
        *ret = false;
        return 0;
    }
    return -1;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
                                           const qemu_info_t *info,
                                           int argc, char **argv)
{
    const char *out_path = NULL;

    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        const char *val;
        if ((val = arg_value(arg, "out"))) {
            out_path = val;
        } else if ((val = arg_value(arg, "summary"))) {
            if (parse_bool(val, &summary)) {
                fprintf(stderr, "misalign-plugin: bad value in '%s' "
                        "(want on|off)\n", arg);
                return -1;
            }
        } else {
            fprintf(stderr, "misalign-plugin: unknown argument '%s' "
                    "(known: out=FILE, summary=on|off)\n", arg);
            return -1;
        }
    }

    if (info) {
        if (info->target_name) {
            snprintf(target_name, sizeof(target_name), "%s",
                     info->target_name);
        }
        if (info->system_emulation) {
            smp_vcpus = info->system.smp_vcpus;
        }
    }

    if (out_path) {
        if (!*out_path) {
            fprintf(stderr, "misalign-plugin: empty file name in out=\n");
            return -1;
        }
        out_fp = fopen(out_path, "w");
        if (!out_fp) {
            fprintf(stderr, "misalign-plugin: cannot open out=%s: %s\n",
                    out_path, strerror(errno));
            return -1;
        }
        out_name = out_path;     /* argv stays valid for the plugin's life */
    }

    table = calloc(TABLE_SIZE, sizeof(*table));
    if (!table) {
        fprintf(stderr, "misalign-plugin: out of memory\n");
        if (out_fp) {
            fclose(out_fp);
            out_fp = NULL;
        }
        return -1;
    }

    qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans_cb);
    qemu_plugin_register_atexit_cb(id, atexit_cb, NULL);
    return 0;
}
