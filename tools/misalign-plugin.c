/* SPDX-License-Identifier: MIT */
/*
 * misalign-plugin.c - a QEMU TCG plugin that records misaligned data accesses.
 *
 * Every guest load and store is checked: an address that is not a multiple
 * of the access size is counted for its instruction, with the first such
 * address seen.  At exit the plugin writes a raw report, which
 * tools/report.py misalign turns into a table by function.
 *
 *   qemu-system-riscv64 ... -plugin file=build/tools/misalign.so,out=FILE
 *
 *   out=FILE     the report (default: stderr).  FILE is opened when the plugin
 *                loads: one that cannot be written stops QEMU before the guest
 *                runs.
 *   summary=off  no one-line summary on stderr at exit (default: on).
 *
 * The report, a line each:
 *   # misalign-plugin v3 target=<name> smp=<n>
 *   <pc-hex> <size-bytes> <L|S> <count> <first-addr-hex>   (a site's, the newest first)
 *   # end records=<N> accesses=<sum of counts> checked=<C>
 * An instruction translated more than once has a line for each of its sites:
 * the reader adds them up.
 * A file without the "# end" line was cut short.  checked counts every data
 * access the plugin saw, aligned or not: a report without a misaligned
 * access still shows that the plugin was watching.
 *
 * Debian ships no qemu-plugin.h: qemu-plugin-api.h declares what is used.
 */
#define PLUGIN "misalign-plugin"
#include "qemu-plugin-api.h"

/*
 * A site: one instruction as QEMU translated it.  It is made at translation
 * and handed to each of its accesses' callbacks, so counting needs no lookup
 * and no lock, and no site is ever lost to a full table.  An instruction
 * translated again gets a new site.
 */
struct site {
    struct site *next;
    uint64_t pc;
    uint64_t first;         /* the first misaligned address (0 is aligned) */
    uint64_t count[2];      /* misaligned loads, stores */
    unsigned shift;         /* log2 of the access size */
};

static struct site *sites;  /* every site, the newest first */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;   /* sites */

/* The accesses checked, per vCPU: each count on its own cache line, written
 * only by its vCPU's thread; vCPUs past MAX_VCPUS share an atomic count. */
#define MAX_VCPUS 256
static struct {
    uint64_t n;
} __attribute__((aligned(64))) checked[MAX_VCPUS];
static uint64_t checked_more;

static FILE *out;
static const char *out_name = "<stderr>";
static int summary = 1;
static char target[32] = "?";
static int smp = -1;

static void mem_access(unsigned int vcpu, qemu_plugin_meminfo_t info,
                       uint64_t vaddr, void *userdata)
{
    struct site *s = userdata;
    unsigned shift = qemu_plugin_mem_size_shift(info);
    uint64_t none = 0;

    if (vcpu < MAX_VCPUS) {
        uint64_t *c = &checked[vcpu].n;
        __atomic_store_n(c, __atomic_load_n(c, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
    } else {
        __atomic_fetch_add(&checked_more, 1, __ATOMIC_RELAXED);
    }
    if ((vaddr & ((UINT64_C(1) << shift) - 1)) == 0) {
        return;             /* aligned: the fast path */
    }
    __atomic_store_n(&s->shift, shift, __ATOMIC_RELAXED);
    __atomic_compare_exchange_n(&s->first, &none, vaddr, false,
                                __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    __atomic_fetch_add(&s->count[qemu_plugin_mem_is_store(info)], 1,
                       __ATOMIC_RELAXED);
}

static void tb_translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    for (size_t i = 0; i < qemu_plugin_tb_n_insns(tb); i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        struct site *s = must(calloc(1, sizeof(*s)));

        s->pc = qemu_plugin_insn_vaddr(insn);
        pthread_mutex_lock(&lock);
        s->next = sites;
        sites = s;
        pthread_mutex_unlock(&lock);
        qemu_plugin_register_vcpu_mem_cb(insn, mem_access, QEMU_PLUGIN_CB_NO_REGS,
                                         QEMU_PLUGIN_MEM_RW, s);
    }
}

static void report(qemu_plugin_id_t id, void *userdata)
{
    FILE *f = out ? out : stderr;
    uint64_t total = 0, seen = __atomic_load_n(&checked_more, __ATOMIC_RELAXED);
    unsigned records = 0;

    (void)id;
    (void)userdata;
    fprintf(f, "# misalign-plugin v3 target=%s smp=%d\n", target, smp);
    pthread_mutex_lock(&lock);
    for (const struct site *s = sites; s; s = s->next) {
        for (int store = 0; store < 2; store++) {
            if (s->count[store]) {
                fprintf(f, "0x%016" PRIx64 " %u %c %" PRIu64 " 0x%016" PRIx64 "\n", s->pc,
                        1u << s->shift, "LS"[store], s->count[store], s->first);
                total += s->count[store];
                records++;
            }
        }
    }
    pthread_mutex_unlock(&lock);
    for (int v = 0; v < MAX_VCPUS; v++) {
        seen += __atomic_load_n(&checked[v].n, __ATOMIC_RELAXED);
    }
    fprintf(f, "# end records=%u accesses=%" PRIu64 " checked=%" PRIu64 "\n",
            records, total, seen);
    close_out(f, out_name);
    out = NULL;
    if (summary) {
        fprintf(stderr, "misalign-plugin: %" PRIu64 " misaligned accesses at %u sites "
                "(of %" PRIu64 " data accesses checked) -> %s\n", total, records, seen,
                out_name);
    }
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
                                           const qemu_info_t *info,
                                           int argc, char **argv)
{
    const char *path = NULL, *val;

    for (int i = 0; i < argc; i++) {
        if ((val = arg_value(argv[i], "out")) && *val) {
            path = val;             /* argv lives as long as the plugin */
        } else if (!strcmp(argv[i], "summary=on") || !strcmp(argv[i], "summary=off")) {
            summary = !strcmp(argv[i], "summary=on");
        } else {
            fprintf(stderr, "misalign-plugin: bad argument '%s' (known: out=FILE, "
                    "summary=on|off)\n", argv[i]);
            return -1;
        }
    }
    if (path && !(out = open_out(path))) {
        return -1;
    }
    out_name = path ? path : out_name;
    if (info && info->target_name) {
        snprintf(target, sizeof(target), "%s", info->target_name);
    }
    if (info && info->system_emulation) {
        smp = info->system.smp_vcpus;
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, tb_translated);
    qemu_plugin_register_atexit_cb(id, report, NULL);
    return 0;
}
