/* SPDX-License-Identifier: MIT */
/*
 * plugin.c - our QEMU TCG plugin, in one of two modes:
 *
 *   -plugin file=plugin.so,mode=misalign[,out=FILE]
 *       every guest load and store checked: an address that is not a multiple of the access
 *       size is counted for its instruction, with the first such address (tools/report.py
 *       misalign: a table by function).
 *   -plugin file=plugin.so,mode=trace,out=FILE,on=A[:A...],off=B[:B...][,mark=M[:M...]]
 *       the instructions vCPU 0 executes inside trigger windows, for the cycle model
 *       (tools/cycles.py).  A window opens when vCPU 0 reaches an "on" address and closes at
 *       an "off" address (the triggers are not recorded): the benchmark harness's two reads of
 *       instret around each measured call (firmware/bench.c, TIME_CALL; cycles.py plugin-args
 *       finds them), so a window is exactly the stretch whose instret delta the image reports.
 *       "mark" addresses are recorded wherever they run, so that the reader can tell the
 *       phases apart.  Other vCPUs are ignored: the benchmark runs on one hart.  Addresses
 *       are hex (0x...) or decimal, several separated by ':' (QEMU splits at commas).
 *
 * out=FILE (mode=misalign: stderr if none) is opened when the plugin loads: bad arguments, or
 * a FILE that cannot be written, make the plugin refuse to load, and QEMU stops before the
 * guest runs.  The file, a record a line (a tag, then its values; <pc> and addresses in hex):
 *   # misalign-plugin v4 target=<name>     (or # trace-plugin v1 ...)
 * mode=misalign:
 *   L|S <pc> <size> <count> <first-addr>   an instruction's misaligned loads or stores: their
 *                                          size in bytes, count, and the first address
 *   # end records=<N> accesses=<sum of counts> checked=<C>
 *       checked counts every data access seen, aligned or not: a file without a misaligned
 *       access still shows that the plugin was watching.
 * mode=trace:
 *   M <pc>                  a mark address was executed
 *   B <pc>                  a window opened at the on-trigger <pc>
 *   R <pc> <count> <rep>    a run: <count> instructions executed one after the other in
 *                           memory from <pc>, and the whole run <rep> times in a row (a loop body)
 *   E <pc> <n>              the window closed at the off-trigger <pc>, after <n> recorded
 *                           instructions
 *   I <pc> <size> <hex>     once per distinct pc executed inside a window: the instruction's
 *                           bytes, in memory order
 *   ! <text> at <pc>        an anomaly, which makes the trace unusable: a window opened inside
 *                           a window or closed outside one, a mark inside a window, or the
 *                           bytes at a pc changed between two translations
 *   # end windows=<W> insns=<N> distinct=<D> marks=<K> anomalies=<A> open=<0|1>
 *                           open=1: QEMU exited inside a window.
 * The "# end" trailer is written last, at exit: a file without it was cut short.
 *
 * Debian ships no qemu-plugin.h, so the pieces of QEMU's TCG plugin API used are declared
 * here, as in QEMU 7.2's include/qemu/qemu-plugin.h (plugin API version 1), cross-checked
 * against the symbols Debian 12's qemu-system-riscv64 7.2 exports; QEMU resolves them when it
 * dlopen()s the plugin.
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

#define QEMU_PLUGIN_EXPORT __attribute__((visibility("default")))
#define QEMU_PLUGIN_VERSION 1

typedef uint64_t qemu_plugin_id_t;

/* Its first field; the others (API versions, vCPU counts) follow, unread here. */
typedef struct qemu_info_t {
    const char *target_name;        /* e.g. "riscv64" */
} qemu_info_t;

struct qemu_plugin_tb;              /* opaque */
struct qemu_plugin_insn;            /* opaque */

/* Only the values used: QEMU's R_REGS (1), RW_REGS (2), MEM_R (1), MEM_W (2) are not. */
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS };
enum qemu_plugin_mem_rw { QEMU_PLUGIN_MEM_RW = 3 };

typedef uint32_t qemu_plugin_meminfo_t;

typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_mem_cb_t)(unsigned int vcpu_index, qemu_plugin_meminfo_t info,
                                          uint64_t vaddr, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
                                            qemu_plugin_vcpu_udata_cb_t cb,
                                            enum qemu_plugin_cb_flags flags, void *userdata);
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *insn, qemu_plugin_vcpu_mem_cb_t cb,
                                      enum qemu_plugin_cb_flags flags, enum qemu_plugin_mem_rw rw,
                                      void *userdata);
unsigned int qemu_plugin_mem_size_shift(qemu_plugin_meminfo_t info);
bool qemu_plugin_mem_is_store(qemu_plugin_meminfo_t info);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *userdata);

/* Exported symbols QEMU looks up with dlsym(). */
QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;
QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
                                           int argc, char **argv);

#define MAX_INSN_BYTES 8        /* RISC-V: 2 or 4 here; room for longer */
#define MAX_TRIGGERS 48
#define HASH_BITS 16
#define MAX_VCPUS 256

enum role { ROLE_NONE, ROLE_ON, ROLE_OFF, ROLE_MARK };
static const char *const role_arg[] = { NULL, "on", "off", "mark" };

/*
 * One per distinct guest pc, made at its first translation and kept for the whole run (after
 * a TB flush the pc is translated again and its record reused).  Its callbacks get it as
 * userdata: counting needs no lookup and no lock.
 */
struct insn {
    uint64_t pc;
    struct insn *next;          /* hash chain */
    uint8_t bytes[MAX_INSN_BYTES];
    uint8_t size;
    uint8_t role;
    uint8_t used;               /* trace: executed inside a window, gets an I record */
    unsigned shift;             /* misalign: log2 of the access size */
    uint64_t first;             /* misalign: the first misaligned address (0 is aligned) */
    uint64_t count[2];          /* misalign: misaligned loads, stores */
};

static struct insn *hash[1u << HASH_BITS];
/* The hash, the records written outside the hot path, the counters they bump. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static struct { uint64_t pc; enum role role; } triggers[MAX_TRIGGERS];
static int n_triggers, n_role[ROLE_MARK + 1];

static bool trace, finished;
static FILE *out;
static const char *out_name;

/* The data accesses checked, per vCPU: each count on its own cache line, written
 * only by its vCPU's thread; vCPUs past MAX_VCPUS share an atomic count. */
static struct { uint64_t n; } __attribute__((aligned(64))) checked[MAX_VCPUS];
static uint64_t checked_more;

/*
 * The window state.  Only vCPU 0's callbacks touch it, and they run on its thread one after
 * the other, so the hot path needs no lock (the atexit callback runs once the vCPUs have stopped).
 */
static bool on;
static uint64_t win_n;                  /* instructions in this window */
static uint64_t run_pc, run_len;        /* the run being extended */
static uint64_t next_pc;                /* where the run continues */
static uint64_t pend_pc, pend_len, pend_rep;   /* the last run, not yet written */
static uint64_t n_windows, n_insns, n_marks, n_anomalies;

/* "key=value" -> the value if the key matches, else NULL. */
static const char *arg_value(const char *arg, const char *key)
{
    size_t n = strlen(key);
    return (!strncmp(arg, key, n) && arg[n] == '=') ? arg + n + 1 : NULL;
}

/* With the lock held. */
static void anomaly(const char *what, uint64_t pc)
{
    n_anomalies++;
    if (trace && !finished) {
        fprintf(out, "! %s at 0x%" PRIx64 "\n", what, pc);
    }
}

static void flush_pending(void)
{
    if (pend_rep) {
        fprintf(out, "R %" PRIx64 " %" PRIu64 " %" PRIu64 "\n", pend_pc, pend_len, pend_rep);
    }
    pend_rep = 0;
}

/* The current run ended (a jump, or the window closed): fold it in. */
static void close_run(void)
{
    if (!run_len) {
        return;
    }
    if (pend_rep && pend_pc == run_pc && pend_len == run_len) {
        pend_rep++;
    } else {
        flush_pending();
        pend_pc = run_pc;
        pend_len = run_len;
        pend_rep = 1;
    }
    run_len = 0;
}

static void trigger(const struct insn *in)
{
    pthread_mutex_lock(&lock);
    if (in->role == ROLE_MARK) {
        if (on) {
            anomaly("mark inside a window", in->pc);
        }
        fprintf(out, "M %" PRIx64 "\n", in->pc);
        n_marks++;
    } else if (in->role == ROLE_ON && on) {
        anomaly("window opened inside a window", in->pc);
    } else if (in->role == ROLE_OFF && !on) {
        anomaly("window closed outside a window", in->pc);
    } else if (in->role == ROLE_ON) {
        on = true;
        win_n = run_len = 0;
        fprintf(out, "B %" PRIx64 "\n", in->pc);
    } else {
        close_run();
        flush_pending();
        fprintf(out, "E %" PRIx64 " %" PRIu64 "\n", in->pc, win_n);
        on = false;
        n_windows++;
    }
    pthread_mutex_unlock(&lock);
}

/* Runs before every instruction of every vCPU. */
static void insn_exec(unsigned int vcpu_index, void *userdata)
{
    struct insn *in = userdata;

    if (vcpu_index != 0 || finished) {
        return;
    }
    if (__builtin_expect(in->role != ROLE_NONE, 0)) {
        trigger(in);
        return;
    }
    if (!on) {
        return;
    }
    if (run_len && in->pc == next_pc) {
        run_len++;
    } else {
        close_run();
        run_pc = in->pc;
        run_len = 1;
    }
    next_pc = in->pc + in->size;
    in->used = 1;
    win_n++;
    n_insns++;
}

/* mode=misalign: runs at every data access of every vCPU. */
static void mem_access(unsigned int vcpu, qemu_plugin_meminfo_t info,
                       uint64_t vaddr, void *userdata)
{
    struct insn *in = userdata;
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
    __atomic_store_n(&in->shift, shift, __ATOMIC_RELAXED);
    __atomic_compare_exchange_n(&in->first, &none, vaddr, false,
                                __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    __atomic_fetch_add(&in->count[qemu_plugin_mem_is_store(info)], 1, __ATOMIC_RELAXED);
}

/* With the lock held. */
static struct insn *insn_get(uint64_t pc, const uint8_t *bytes, size_t size)
{
    struct insn **slot = &hash[(pc * 0x9e3779b97f4a7c15ULL) >> (64 - HASH_BITS)];
    struct insn *in;

    for (in = *slot; in; in = in->next) {
        if (in->pc == pc) {
            if (trace && (in->size != size || memcmp(in->bytes, bytes, size))) {
                anomaly("instruction bytes changed", pc);   /* the I record would lie */
            }
            return in;
        }
    }
    if (!(in = calloc(1, sizeof(*in)))) {
        fprintf(stderr, "plugin: out of memory\n");
        abort();
    }
    in->pc = pc;
    in->size = (uint8_t)size;
    memcpy(in->bytes, bytes, size);
    for (int i = 0; i < n_triggers; i++) {
        if (triggers[i].pc == pc) {
            in->role = (uint8_t)triggers[i].role;
        }
    }
    in->next = *slot;
    *slot = in;
    return in;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < qemu_plugin_tb_n_insns(tb); i++) {
        struct qemu_plugin_insn *qi = qemu_plugin_tb_get_insn(tb, i);
        uint64_t pc = qemu_plugin_insn_vaddr(qi);
        size_t size = qemu_plugin_insn_size(qi);
        uint8_t bytes[MAX_INSN_BYTES] = { 0 };

        if (size > MAX_INSN_BYTES) {
            anomaly("instruction longer than 8 bytes", pc);
            size = MAX_INSN_BYTES;
        }
        memcpy(bytes, qemu_plugin_insn_data(qi), size);
        struct insn *in = insn_get(pc, bytes, size);
        if (trace) {
            qemu_plugin_register_vcpu_insn_exec_cb(qi, insn_exec, QEMU_PLUGIN_CB_NO_REGS, in);
        } else {
            qemu_plugin_register_vcpu_mem_cb(qi, mem_access, QEMU_PLUGIN_CB_NO_REGS,
                                             QEMU_PLUGIN_MEM_RW, in);
        }
    }
    pthread_mutex_unlock(&lock);
}

static void at_exit(qemu_plugin_id_t id, void *userdata)
{
    uint64_t records = 0, total = 0, seen = __atomic_load_n(&checked_more, __ATOMIC_RELAXED);

    (void)id;
    (void)userdata;
    pthread_mutex_lock(&lock);
    if (on) {
        close_run();
        flush_pending();
    }
    for (size_t b = 0; b < (1u << HASH_BITS); b++) {
        for (const struct insn *in = hash[b]; in; in = in->next) {
            if (in->used) {
                fprintf(out, "I %" PRIx64 " %u ", in->pc, in->size);
                for (unsigned k = 0; k < in->size; k++) {
                    fprintf(out, "%02x", in->bytes[k]);
                }
                fputc('\n', out);
                records++;
            }
            for (int store = 0; store < 2; store++) {
                if (in->count[store]) {
                    fprintf(out, "%c %" PRIx64 " %u %" PRIu64 " %" PRIx64 "\n", "LS"[store],
                            in->pc, 1u << in->shift, in->count[store], in->first);
                    total += in->count[store];
                    records++;
                }
            }
        }
    }
    for (int v = 0; v < MAX_VCPUS; v++) {
        seen += __atomic_load_n(&checked[v].n, __ATOMIC_RELAXED);
    }
    if (trace) {
        fprintf(out, "# end windows=%" PRIu64 " insns=%" PRIu64 " distinct=%" PRIu64
                " marks=%" PRIu64 " anomalies=%" PRIu64 " open=%d\n",
                n_windows, n_insns, records, n_marks, n_anomalies, on ? 1 : 0);
    } else {
        fprintf(out, "# end records=%" PRIu64 " accesses=%" PRIu64 " checked=%" PRIu64 "\n",
                records, total, seen);
    }
    finished = true;
    errno = 0;
    bool failed = fflush(out) != 0 || ferror(out);
    if ((out != stderr && fclose(out) != 0) || failed) {
        fprintf(stderr, "plugin: error writing %s: %s\n", out_name, strerror(errno ? errno : EIO));
    }
    pthread_mutex_unlock(&lock);
}

/* The ':'-separated addresses of arg (its value at p) become triggers of role. */
static int parse_addrs(const char *arg, const char *p, enum role role)
{
    for (;;) {
        char *end;
        errno = 0;
        unsigned long long a = strtoull(p, &end, 0);
        if (end == p || errno || (*end && *end != ':')) {
            fprintf(stderr, "plugin: bad address list in '%s' "
                    "(want ADDR[:ADDR...], hex as 0x...)\n", arg);
            return -1;
        }
        for (int i = 0; i < n_triggers; i++) {
            if (triggers[i].pc == a) {  /* its role would be ambiguous */
                fprintf(stderr, "plugin: address 0x%llx given twice\n", a);
                return -1;
            }
        }
        if (n_triggers == MAX_TRIGGERS) {
            fprintf(stderr, "plugin: more than %d addresses\n", MAX_TRIGGERS);
            return -1;
        }
        triggers[n_triggers].pc = a;
        triggers[n_triggers++].role = role;
        n_role[role]++;
        if (!*end) {
            return 0;
        }
        p = end + 1;
    }
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
                                           int argc, char **argv)
{
    static char out_buf[1 << 20];
    const char *mode = NULL;

    for (int i = 0; i < argc; i++) {
        const char *val;
        enum role r = ROLE_ON;

        if ((val = arg_value(argv[i], "out"))) {
            out_name = val;             /* argv lives as long as the plugin */
        } else if ((val = arg_value(argv[i], "mode"))) {
            mode = val;
        } else {
            while (r <= ROLE_MARK && !(val = arg_value(argv[i], role_arg[r]))) {
                r++;
            }
            if (!val) {
                fprintf(stderr, "plugin: unknown argument '%s' (known: mode=misalign|trace, "
                        "out=FILE, on=ADDRS, off=ADDRS, mark=ADDRS)\n", argv[i]);
                return -1;
            }
            if (parse_addrs(argv[i], val, r)) {
                return -1;
            }
        }
    }
    trace = mode && !strcmp(mode, "trace");
    if (!trace && (!mode || strcmp(mode, "misalign"))) {
        fprintf(stderr, "plugin: mode=misalign or mode=trace is required\n");
        return -1;
    }
    if (trace ? !n_role[ROLE_ON] || !n_role[ROLE_OFF] || !out_name : n_triggers > 0) {
        fprintf(stderr, "plugin: mode=trace needs out=FILE, on= and off= addresses; "
                "mode=misalign takes none of on=, off=, mark=\n");
        return -1;
    }
    if (!out_name) {
        out = stderr;
        out_name = "<stderr>";
    } else if ((out = fopen(out_name, "w"))) {
        setvbuf(out, out_buf, _IOFBF, sizeof(out_buf));
    } else {
        fprintf(stderr, "plugin: cannot open out=%s: %s\n", out_name, strerror(errno));
        return -1;
    }
    fprintf(out, "# %s target=%s\n", trace ? "trace-plugin v1" : "misalign-plugin v4",
            info && info->target_name ? info->target_name : "?");
    qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
    qemu_plugin_register_atexit_cb(id, at_exit, NULL);
    return 0;
}
