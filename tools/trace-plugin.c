/*
 * trace-plugin.c - QEMU TCG plugin that records the instructions vCPU 0
 * executes inside trigger windows, for the cycle model (tools/cycles.py).
 *
 * A window opens when vCPU 0 reaches an "on" address and closes when it
 * reaches an "off" address; the triggers themselves are not recorded.  The
 * benchmark's harness reads instret right before and right after each
 * measured call (firmware/bench.c, TIME_CALL), and those two csrr are the
 * triggers (cycles.py plugin-args finds them): a window is then exactly the
 * stretch whose instret delta the image reports.  "mark" addresses are
 * recorded wherever they run, so that the reader can tell the phases apart.
 * Other vCPUs are ignored: the benchmark runs on one hart.
 *
 *   qemu-system-riscv64 ... -plugin file=trace.so,out=FILE,on=A[:A...],off=B[:B...][,mark=M[:M...]]
 * Addresses are hex (0x...) or decimal, several separated by ':' (QEMU splits
 * plugin arguments at commas).  Bad arguments, or an out= that cannot be
 * opened, make the plugin refuse to load, and QEMU stops.
 *
 * The trace, one record a line:
 *   # trace-plugin v1 target=<name> vcpus=<n>
 *   M <pc>                  a mark address was executed
 *   B <pc>                  a window opened at the on-trigger <pc>
 *   R <pc> <count> <rep>    a run: <count> instructions executed one after
 *                           the other in memory from <pc>, and the whole run
 *                           <rep> times in a row (a loop body)
 *   E <pc> <n>              the window closed at the off-trigger <pc>, after
 *                           <n> recorded instructions
 *   I <pc> <size> <hex>     once per distinct pc executed inside a window:
 *                           the instruction's bytes, in memory order
 *   ! <text> at <pc>        an anomaly, which makes the trace unusable: a
 *                           window opened inside a window or closed outside
 *                           one, a mark inside a window, or the bytes at a pc
 *                           changed between two translations
 *   # end windows=<W> insns=<N> distinct=<D> marks=<K> anomalies=<A> open=<0|1>
 * The "# end" trailer is written last, at exit: a file without it is
 * truncated.  open=1: QEMU exited inside a window.
 *
 * Debian ships no qemu-plugin.h: qemu-plugin-api.h beside this file declares
 * the API used.
 */
#define PLUGIN "trace-plugin"
#include "qemu-plugin-api.h"

#define MAX_INSN_BYTES 8        /* RISC-V: 2 or 4 here; room for longer */
#define MAX_TRIGGERS 48
#define HASH_BITS 16

enum role { ROLE_NONE, ROLE_ON, ROLE_OFF, ROLE_MARK };
static const char *const role_arg[] = { NULL, "on", "off", "mark" };

/*
 * One per distinct guest pc, made at its first translation and kept for the
 * whole run (after a TB flush the pc is translated again and its record
 * reused: its bytes must not have changed).  Its exec callback gets it as
 * userdata.
 */
struct insn {
    uint64_t pc;
    struct insn *next;          /* hash chain */
    uint8_t bytes[MAX_INSN_BYTES];
    uint8_t size;
    uint8_t role;
    uint8_t used;               /* executed inside a window: gets an I record */
};

static struct insn *hash[1u << HASH_BITS];
/* The hash, the trace's records outside the hot path, the counters they bump. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static struct {
    uint64_t pc;
    enum role role;
} triggers[MAX_TRIGGERS];
static int n_triggers, n_role[ROLE_MARK + 1];

static FILE *out;
static const char *out_name;
static bool finished;

/*
 * The window state.  Only vCPU 0's callbacks touch it, and they run on its
 * thread one after the other, so the hot path needs no lock (the atexit
 * callback runs once the vCPUs have stopped).
 */
static bool on;
static uint64_t win_n;                  /* instructions in this window */
static uint64_t run_pc, run_len;        /* the run being extended */
static uint64_t next_pc;                /* where the run continues */
static uint64_t pend_pc, pend_len, pend_rep;   /* the last run, not yet written */
static uint64_t n_windows, n_insns, n_marks, n_anomalies;

/* With the lock held. */
static void anomaly(const char *what, uint64_t pc)
{
    n_anomalies++;
    if (!finished) {
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

/* With the lock held. */
static struct insn *insn_get(uint64_t pc, const uint8_t *bytes, size_t size)
{
    struct insn **slot = &hash[(pc * 0x9e3779b97f4a7c15ULL) >> (64 - HASH_BITS)];
    struct insn *in;

    for (in = *slot; in; in = in->next) {
        if (in->pc == pc) {
            if (in->size != size || memcmp(in->bytes, bytes, size)) {
                anomaly("instruction bytes changed", pc);   /* the I record would lie */
            }
            return in;
        }
    }
    in = must(calloc(1, sizeof(*in)));
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
        qemu_plugin_register_vcpu_insn_exec_cb(qi, insn_exec, QEMU_PLUGIN_CB_NO_REGS,
                                               insn_get(pc, bytes, size));
    }
    pthread_mutex_unlock(&lock);
}

static void at_exit(qemu_plugin_id_t id, void *userdata)
{
    uint64_t distinct = 0;

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
                distinct++;
            }
        }
    }
    fprintf(out, "# end windows=%" PRIu64 " insns=%" PRIu64 " distinct=%" PRIu64
            " marks=%" PRIu64 " anomalies=%" PRIu64 " open=%d\n",
            n_windows, n_insns, distinct, n_marks, n_anomalies, on ? 1 : 0);
    finished = true;
    close_out(out, out_name);
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
            fprintf(stderr, "trace-plugin: bad address list in '%s' "
                    "(want ADDR[:ADDR...], hex as 0x...)\n", arg);
            return -1;
        }
        for (int i = 0; i < n_triggers; i++) {
            if (triggers[i].pc == a) {  /* its role would be ambiguous */
                fprintf(stderr, "trace-plugin: address 0x%llx given twice\n", a);
                return -1;
            }
        }
        if (n_triggers == MAX_TRIGGERS) {
            fprintf(stderr, "trace-plugin: more than %d addresses\n", MAX_TRIGGERS);
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

    for (int i = 0; i < argc; i++) {
        const char *val = arg_value(argv[i], "out");
        enum role r = ROLE_ON;

        if (val) {
            out_name = val;
            continue;
        }
        while (r <= ROLE_MARK && !(val = arg_value(argv[i], role_arg[r]))) {
            r++;
        }
        if (!val) {
            fprintf(stderr, "trace-plugin: unknown argument '%s' (known: "
                    "out=FILE, on=ADDRS, off=ADDRS, mark=ADDRS)\n", argv[i]);
            return -1;
        }
        if (parse_addrs(argv[i], val, r)) {
            return -1;
        }
    }
    if (!out_name || !*out_name) {
        fprintf(stderr, "trace-plugin: out=FILE is required\n");
        return -1;
    }
    if (!n_role[ROLE_ON] || !n_role[ROLE_OFF]) {
        fprintf(stderr, "trace-plugin: on= and off= addresses are required\n");
        return -1;
    }
    if (!(out = open_out(out_name))) {
        return -1;
    }
    setvbuf(out, out_buf, _IOFBF, sizeof(out_buf));
    fprintf(out, "# trace-plugin v1 target=%s vcpus=%d\n",
            info && info->target_name ? info->target_name : "?",
            info && info->system_emulation ? info->system.smp_vcpus : -1);
    qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
    qemu_plugin_register_atexit_cb(id, at_exit, NULL);
    return 0;
}
