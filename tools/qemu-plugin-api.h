/* SPDX-License-Identifier: MIT */
/*
 * The subset of QEMU's TCG plugin API that our plugins use
 * (tools/misalign-plugin.c, tools/trace-plugin.c), and what both do alike
 * (their arguments, their output file).  Debian ships no
 * qemu-plugin.h, so the pieces are declared here, as in QEMU 7.2's
 * include/qemu/qemu-plugin.h (plugin API version 1), and were cross-checked
 * against the symbols Debian 12's qemu-system-riscv64 7.2 exports.  The
 * functions are resolved from the QEMU executable when it dlopen()s a
 * plugin.  Include it from exactly one file per plugin, with PLUGIN defined
 * as its name for messages: it defines qemu_plugin_version, which QEMU looks
 * up with dlsym().
 */
#ifndef WM_QEMU_PLUGIN_API_H
#define WM_QEMU_PLUGIN_API_H

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

typedef struct qemu_info_t {
    const char *target_name;        /* e.g. "riscv64" */
    struct {
        int min;
        int cur;
    } version;                      /* plugin API versions QEMU supports */
    bool system_emulation;
    union {
        struct {
            int smp_vcpus;
            int max_vcpus;
        } system;
    };
} qemu_info_t;

struct qemu_plugin_tb;              /* opaque */
struct qemu_plugin_insn;            /* opaque */

enum qemu_plugin_cb_flags {
    QEMU_PLUGIN_CB_NO_REGS,
    QEMU_PLUGIN_CB_R_REGS,
    QEMU_PLUGIN_CB_RW_REGS,
};

enum qemu_plugin_mem_rw {
    QEMU_PLUGIN_MEM_R = 1,
    QEMU_PLUGIN_MEM_W,
    QEMU_PLUGIN_MEM_RW,
};

typedef uint32_t qemu_plugin_meminfo_t;

typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index,
                                            void *userdata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
                                               struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_mem_cb_t)(unsigned int vcpu_index,
                                          qemu_plugin_meminfo_t info,
                                          uint64_t vaddr, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
                                           qemu_plugin_vcpu_tb_trans_cb_t cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
                                                 size_t idx);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
                                            qemu_plugin_vcpu_udata_cb_t cb,
                                            enum qemu_plugin_cb_flags flags,
                                            void *userdata);
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *insn,
                                      qemu_plugin_vcpu_mem_cb_t cb,
                                      enum qemu_plugin_cb_flags flags,
                                      enum qemu_plugin_mem_rw rw,
                                      void *userdata);
unsigned int qemu_plugin_mem_size_shift(qemu_plugin_meminfo_t info);
bool qemu_plugin_mem_is_store(qemu_plugin_meminfo_t info);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
                                    qemu_plugin_udata_cb_t cb, void *userdata);

/* Exported symbols QEMU looks up with dlsym(). */
QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;
QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
                                           const qemu_info_t *info,
                                           int argc, char **argv);

static inline void *must(void *p)
{
    if (!p) {
        fprintf(stderr, PLUGIN ": out of memory\n");
        abort();
    }
    return p;
}

/* "key=value" -> the value if the key matches, else NULL. */
static inline const char *arg_value(const char *arg, const char *key)
{
    size_t n = strlen(key);
    return (!strncmp(arg, key, n) && arg[n] == '=') ? arg + n + 1 : NULL;
}

/* out=FILE is opened when the plugin loads: one that cannot be written
 * stops QEMU (the plugin refuses to load) before the guest runs. */
static inline FILE *open_out(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, PLUGIN ": cannot open out=%s: %s\n", path, strerror(errno));
    }
    return f;
}

/* At exit: f (stderr is only flushed) written out and closed, or a message why not. */
static inline void close_out(FILE *f, const char *name)
{
    errno = 0;
    bool failed = fflush(f) != 0 || ferror(f);
    if ((f != stderr && fclose(f) != 0) || failed) {
        fprintf(stderr, PLUGIN ": error writing %s: %s\n", name, strerror(errno ? errno : EIO));
    }
}

#endif /* WM_QEMU_PLUGIN_API_H */
