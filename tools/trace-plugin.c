/*
 * trace-plugin.c - QEMU TCG plugin that records the instructions executed
 * inside trigger windows, for the cycle model (tools/cycles.py).
 *
 * A window opens when vCPU 0 reaches one of the "on" addresses and closes
 * when it reaches one of the "off" addresses; the trigger instructions
 * themselves are not recorded.  The benchmark image's harness reads instret
 * right before and right after each measured call (firmware/bench.c,
 * TIME_CALL), and those two csrr instructions are the triggers: a window is
 * then exactly the stretch whose instret delta the image reports (plus one
 * instruction of the two reads, which the image's overhead calibration
 * subtracts).  "mark" addresses are recorded as events wherever they run, so
 * that the consumer can tell which windows belong to which phase.
 *
 * Only vCPU 0 is traced: one instruction stream, in order.  Other vCPUs'
 * instructions are ignored (the benchmark runs on one hart).
 *
 * Usage (QEMU 7.2):
 *   qemu-system-riscv64 ... -plugin file=trace.so,out=FILE,on=A[:A...],off=B[:B...][,mark=M[:M...]]
 * Addresses are hex (0x...) or decimal; several are separated by ':' (QEMU
 * splits plugin arguments at commas).  out= is required; if FILE cannot be
 * opened the plugin refuses to load, so QEMU stops.
 *
 * Output (text, one record a line; runs keep it compact, see below):
 *   # trace-plugin v1 target=<name> vcpus=<n>
 *   M <pc>                  a mark address was executed
 *   B <pc>                  a window opened at the on-trigger <pc>
 *   R <pc> <count> <rep>    a run: <count> instructions executed one after
 *                           the other in memory from <pc> (each next pc is
 *                           the previous pc plus its size), and the whole
 *                           run executed <rep> times in a row (a loop body)
 *   E <pc> <n>              the window closed at the off-trigger <pc>, after
 *                           <n> recorded instructions
 *   I <pc> <size> <hex>     once per distinct pc executed inside a window:
 *                           the instruction's bytes, in memory order
 *   # end windows=<W> insns=<N> distinct=<D> marks=<K> anomalies=<A> open=<0|1>
 * The "# end" trailer is written last, at exit: a file without it is
 * truncated.  anomalies counts what makes the trace unusable: a window
 * opened inside a window, closed outside one, a mark inside a window, or
 * the bytes at a pc changing between two translations; each is also named
 * on a "! <text>" line.  open=1: QEMU exited inside a window.
 *
 * Build: gcc -shared -fPIC -O2 -Wall -Wextra -Werror -o trace.so trace-plugin.c
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

#define MAX_INSN_BYTES 8        /* RISC-V: 2 or 4 here; room for longer */
#define MAX_TRIGGERS 16         /* per kind */
#define HASH_BITS 16

enum role { ROLE_NONE, ROLE_ON, ROLE_OFF, ROLE_MARK };

/*
 * One per distinct guest pc, created at translation and kept for the whole
 * run (a pc is translated again after a TB flush; the record is reused, and
 * its bytes must not have changed).  The exec callback gets it as userdata.
 */
struct insn {
    uint64_t pc;
    struct insn *next;      /* hash chain */
    uint8_t bytes[MAX_INSN_BYTES];
    uint8_t size;
    uint8_t role;
    uint8_t used;           /* executed inside a window: gets an I record */
};

static struct insn *hash[1u << HASH_BITS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; /* hash, anomalies */

static uint64_t triggers[3][MAX_TRIGGERS];   /* ROLE_ON..ROLE_MARK - 1 */
static int n_triggers[3];

static FILE *out;
static const char *out_name;
static bool finished;

/*
 * The window state.  Only vCPU 0's callbacks touch it, and a vCPU's
 * callbacks run on that vCPU's thread one after the other, so it needs no
 * lock (the atexit callback runs once the vCPUs have stopped).
 */
static bool on;
static uint64_t win_n;                  /* instructions in this window */
static uint64_t run_pc, run_len;        /* the run being extended */
static uint64_t next_pc;                /* where the run continues */
static uint64_t pend_pc, pend_len, pend_rep;   /* last run, not yet written */
static uint64_t n_windows, n_insns, n_marks, n_anomalies;

static void anomaly(const char *what, uint64_t pc)
{
    pthread_mutex_lock(&lock);
    n_anomalies++;
    if (out && !finished) {
        fprintf(out, "! %s at 0x%" PRIx64 "\n", what, pc);
    }
    pthread_mutex_unlock(&lock);
}

static void flush_pending(void)
{
    if (pend_rep) {
        fprintf(out, "R %" PRIx64 " %" PRIu64 " %" PRIu64 "\n",
                pend_pc, pend_len, pend_rep);
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
    switch (in->role) {
    case ROLE_ON:
        if (on) {
            anomaly("window opened inside a window", in->pc);
            return;
        }
        on = true;
        win_n = 0;
        run_len = 0;
        fprintf(out, "B %" PRIx64 "\n", in->pc);
        break;
    case ROLE_OFF:
        if (!on) {
            anomaly("window closed outside a window", in->pc);
            return;
        }
        close_run();
        flush_pending();
        fprintf(out, "E %" PRIx64 " %" PRIu64 "\n", in->pc, win_n);
        on = false;
        n_windows++;
        break;
    case ROLE_MARK:
        if (on) {
            anomaly("mark inside a window", in->pc);
        }
        fprintf(out, "M %" PRIx64 "\n", in->pc);
        n_marks++;
        break;
    }
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

static enum role role_of(uint64_t pc)
{
    for (int r = ROLE_ON; r <= ROLE_MARK; r++) {
        for (int i = 0; i < n_triggers[r - 1]; i++) {
            if (triggers[r - 1][i] == pc) {
                return (enum role)r;
            }
        }
    }
    return ROLE_NONE;
}

static struct insn *insn_get(uint64_t pc, const uint8_t *bytes, size_t size)
{
    uint64_t h = pc * 0x9e3779b97f4a7c15ULL;
    struct insn **slot = &hash[h >> (64 - HASH_BITS)];
    struct insn *in;

    for (in = *slot; in; in = in->next) {
        if (in->pc == pc) {
            if (in->size != size || memcmp(in->bytes, bytes, size)) {
                /* Self-modifying code would make the I records lie. */
                n_anomalies++;
                if (out) {
                    fprintf(out, "! instruction bytes changed at 0x%" PRIx64 "\n", pc);
                }
            }
            return in;
        }
    }
    in = calloc(1, sizeof(*in));
    if (!in) {
        fprintf(stderr, "trace-plugin: out of memory\n");
        abort();
    }
    in->pc = pc;
    in->size = (uint8_t)size;
    memcpy(in->bytes, bytes, size);
    in->role = (uint8_t)role_of(pc);
    in->next = *slot;
    *slot = in;
    return in;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    size_t n = qemu_plugin_tb_n_insns(tb);

    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *qi = qemu_plugin_tb_get_insn(tb, i);
        size_t size = qemu_plugin_insn_size(qi);
        uint8_t bytes[MAX_INSN_BYTES] = { 0 };

        if (size > MAX_INSN_BYTES) {
            n_anomalies++;
            size = MAX_INSN_BYTES;
        }
        memcpy(bytes, qemu_plugin_insn_data(qi), size);
        struct insn *in = insn_get(qemu_plugin_insn_vaddr(qi), bytes, size);
        qemu_plugin_register_vcpu_insn_exec_cb(qi, insn_exec,
                                               QEMU_PLUGIN_CB_NO_REGS, in);
    }
    pthread_mutex_unlock(&lock);
}

static void at_exit(qemu_plugin_id_t id, void *userdata)
{
    (void)id;
    (void)userdata;
    uint64_t distinct = 0;

    pthread_mutex_lock(&lock);
    if (finished) {
        pthread_mutex_unlock(&lock);
        return;
    }
    if (on) {
        close_run();
        flush_pending();
    }
    for (size_t b = 0; b < (1u << HASH_BITS); b++) {
        for (const struct insn *in = hash[b]; in; in = in->next) {
            if (!in->used) {
                continue;
            }
            fprintf(out, "I %" PRIx64 " %u ", in->pc, in->size);
            for (unsigned k = 0; k < in->size; k++) {
                fprintf(out, "%02x", in->bytes[k]);
            }
            fputc('\n', out);
            distinct++;
        }
    }
    fprintf(out, "# end windows=%" PRIu64 " insns=%" PRIu64 " distinct=%" PRIu64
            " marks=%" PRIu64 " anomalies=%" PRIu64 " open=%d\n",
            n_windows, n_insns, distinct, n_marks, n_anomalies, on ? 1 : 0);
    finished = true;
    int err = 0;
    if (fflush(out) != 0 || ferror(out)) {
        err = errno ? errno : EIO;
    }
    if (fclose(out) != 0 && !err) {
        err = errno ? errno : EIO;
    }
    out = NULL;
    if (err) {
        fprintf(stderr, "trace-plugin: error writing %s: %s\n", out_name,
                strerror(err));
    }
    pthread_mutex_unlock(&lock);
}

/* "key=value" -> pointer to value if the key matches, else NULL. */
static const char *arg_value(const char *arg, const char *key)
{
    size_t n = strlen(key);
    return (!strncmp(arg, key, n) && arg[n] == '=') ? arg + n + 1 : NULL;
}

/* A ':'-separated address list into triggers[role - 1]. */
static int parse_addrs(const char *arg, const char *val, enum role role)
{
    const char *p = val;

    while (1) {
        char *end;
        errno = 0;
        unsigned long long a = strtoull(p, &end, 0);
        if (end == p || errno || (*end && *end != ':')) {
            fprintf(stderr, "trace-plugin: bad address list in '%s' "
                    "(want ADDR[:ADDR...], hex as 0x...)\n", arg);
            return -1;
        }
        if (n_triggers[role - 1] == MAX_TRIGGERS) {
            fprintf(stderr, "trace-plugin: more than %d addresses in '%s'\n",
                    MAX_TRIGGERS, arg);
            return -1;
        }
        triggers[role - 1][n_triggers[role - 1]++] = a;
        if (!*end) {
            return 0;
        }
        p = end + 1;
    }
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
                                           const qemu_info_t *info,
                                           int argc, char **argv)
{
    const char *out_path = NULL;
    static char out_buf[1 << 20];

    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        const char *val;
        int rc = 0;

        if ((val = arg_value(arg, "out"))) {
            out_path = val;
        } else if ((val = arg_value(arg, "on"))) {
            rc = parse_addrs(arg, val, ROLE_ON);
        } else if ((val = arg_value(arg, "off"))) {
            rc = parse_addrs(arg, val, ROLE_OFF);
        } else if ((val = arg_value(arg, "mark"))) {
            rc = parse_addrs(arg, val, ROLE_MARK);
        } else {
            fprintf(stderr, "trace-plugin: unknown argument '%s' (known: "
                    "out=FILE, on=ADDRS, off=ADDRS, mark=ADDRS)\n", arg);
            return -1;
        }
        if (rc) {
            return -1;
        }
    }
    if (!out_path || !*out_path) {
        fprintf(stderr, "trace-plugin: out=FILE is required\n");
        return -1;
    }
    if (!n_triggers[ROLE_ON - 1] || !n_triggers[ROLE_OFF - 1]) {
        fprintf(stderr, "trace-plugin: on= and off= addresses are required\n");
        return -1;
    }
    /* An address in two lists would make the roles ambiguous. */
    for (int r = ROLE_ON; r <= ROLE_MARK; r++) {
        for (int i = 0; i < n_triggers[r - 1]; i++) {
            for (int s = r; s <= ROLE_MARK; s++) {
                for (int j = (s == r ? i + 1 : 0); j < n_triggers[s - 1]; j++) {
                    if (triggers[r - 1][i] == triggers[s - 1][j]) {
                        fprintf(stderr, "trace-plugin: address 0x%" PRIx64
                                " given twice\n", triggers[r - 1][i]);
                        return -1;
                    }
                }
            }
        }
    }
    out = fopen(out_path, "w");
    if (!out) {
        fprintf(stderr, "trace-plugin: cannot open out=%s: %s\n", out_path,
                strerror(errno));
        return -1;
    }
    out_name = out_path;
    setvbuf(out, out_buf, _IOFBF, sizeof(out_buf));
    fprintf(out, "# trace-plugin v1 target=%s vcpus=%d\n",
            info && info->target_name ? info->target_name : "?",
            info && info->system_emulation ? info->system.smp_vcpus : -1);

    qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
    qemu_plugin_register_atexit_cb(id, at_exit, NULL);
    return 0;
}
