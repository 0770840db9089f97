// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * runaway-rt: runs PROGRAM as a round-robin real-time task (SCHED_RR, priority 1), same pid;
 * for a confirmed stop of a binary's processes, it first stops their growth.
 *
 *   runaway-rt PROGRAM [ARG]...
 *   runaway-rt --first-lever PROGRAM [SCRIPT] stop --command /KEY --yes [--json] [...]
 *   runaway COMMAND [ARG]...       (installed as /usr/bin/runaway: the package's launcher)
 *
 * The launchers exec this first for `scan` and `stop` as root. During a fire every ordinary
 * task waits behind thousands of runnable ones: measured at 20,000 pressing tasks, each slice
 * a launcher used up at ordinary priority cost it seconds before it ran again, and `chrt`
 * (dynamically linked: the loader maps and relocates libc first) needed several. Built static
 * (no loader), this program's first system call after exec is the switch.
 *
 * Sets RUNAWAY_REALTIME_AT (CLOCK_REALTIME as seconds.microseconds, the launchers' clock) to
 * when the switch took effect, or RUNAWAY_REALTIME_REFUSED to why it was refused (not root, a
 * container without CAP_SYS_NICE); PROGRAM runs either way, and says which priority it got.
 * Not SCHED_RESET_ON_FORK: the JVM's threads are forks too and must keep the policy.
 *
 * Named `runaway` (the package installs it as /usr/bin/runaway) it is the launcher: it sets
 * RUNAWAY_LAUNCHED_AT from its first clock reading, and runs the app (its JVM with the package's
 * argument file, RUNAWAY_JAVA and RUNAWAY_ARGS, else the app's own launcher RUNAWAY_APP) with the same arguments: for scan and stop as root after the switch (unless
 * RUNAWAY_REALTIME=0), for stop with the first lever; for anything else as it is.
 *
 * The first lever (--first-lever, `runaway stop --command /KEY --yes` as root): even real-time,
 * the JVM's start waited up to minutes at 20,000 pressing tasks, on page locks that the
 * runaway's ordinary tasks held while they waited for a CPU. A frozen task holds none. So
 * before the JVM, this reads /proc/PID/exe in pid order (on 8 threads, more when reads stall:
 * a read waits while its process is mid-fork or mid-exec) until it has 64 of the key's
 * processes, takes their v2 cgroup (all of them in one, else nothing is done), and when none of
 * its members read so far is another binary's (at most max(16, 1 %): children caught
 * mid-exec), sets its pids.max to 0 and freezes it. Never
 * the root cgroup, a slice, or a cgroup holding this program. The JVM then adopts the freeze
 * (RUNAWAY_FIRST_LEVER_*): it checks every process in the frozen cgroup, and on a single
 * stranger it thaws and puts pids.max back at once. Any doubt here: nothing is done, the
 * reason goes to the JVM in RUNAWAY_FIRST_LEVER_REFUSED, and its own plan decides.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* STRANGERS_MIN, STRANGERS_PER_MILLE: generated from StrangerAllowance.java (build.sh) */
#include "stranger-allowance.h"

#define READERS 8
/* More readers join, READERS at a time, when no read returned for this long; at most this many. */
#define ADD_READERS_NANOS (10 * 1000000LL)
#define MAX_READERS 256
/* Reads still out when no read returned for this long (all claimed, or no more readers) are left unknown. */
#define STALL_NANOS (50 * 1000000LL)
/*
 * Enough of the key's processes read to name their cgroup. Reading all of them first is what a
 * fire does not allow: at 20,000 pressing tasks even 256 readers all waited on processes holding
 * their memory map's lock, and so did stat reads. The JVM reads every member once it is frozen.
 */
#define SAMPLE 64
#define MAX_DEPTH 32

static long long now_nanos(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void set_time(const char *name) {
    long long at = now_nanos(CLOCK_REALTIME) / 1000;
    char text[32];
    snprintf(text, sizeof text, "%lld.%06lld", at / 1000000, at % 1000000);
    setenv(name, text, 1);
}

/* A list of pids that grows. */
struct pids {
    int *at;
    size_t n, cap;
};

static int add_pid(struct pids *p, int pid) {
    if (p->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 4096;
        int *grown = realloc(p->at, cap * sizeof *grown);
        if (!grown) return -1;
        p->at = grown;
        p->cap = cap;
    }
    p->at[p->n++] = pid;
    return 0;
}

static int by_value(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int has_pid(const struct pids *sorted, int pid) {
    return sorted->n && bsearch(&pid, sorted->at, sorted->n, sizeof pid, by_value) != NULL;
}

/* DIR/NAME into OUT; -1 when it does not fit (nothing is ever acted on through a cut path). */
static int join(char *out, size_t size, const char *dir, const char *name) {
    size_t a = strlen(dir), b = strlen(name);
    if (a + 1 + b >= size) return -1;
    memcpy(out, dir, a);
    out[a] = '/';
    memcpy(out + a + 1, name, b + 1);
    return 0;
}

/* A whole small file, NUL-terminated; -1 when it cannot be read. */
static ssize_t read_small(const char *path, char *buf, size_t size) {
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) return -1;
    size_t used = 0;
    for (;;) {
        ssize_t n = read(fd, buf + used, size - 1 - used);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        used += (size_t)n;
        if (used == size - 1) break;
    }
    close(fd);
    buf[used] = 0;
    return (ssize_t)used;
}

static int write_small(const char *path, const char *text) {
    int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) return -1;
    ssize_t n = write(fd, text, strlen(text));
    int saved = errno;
    close(fd);
    errno = saved;
    return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* The path of the v2 line ("0::/path", TAG "") or of a v1 line ("N:TAG:/path") of a /proc/PID/cgroup text. */
static int cgroup_line(const char *text, const char *tag, char *out, size_t size) {
    char want[64];
    snprintf(want, sizeof want, ":%s:", tag);
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        size_t length = end ? (size_t)(end - line) : strlen(line);
        const char *colon = memchr(line, ':', length);
        int v2 = tag[0] == 0 && strncmp(line, "0::", 3) == 0;
        if (v2 || (tag[0] && colon && (size_t)(colon - line) + strlen(want) <= length && strncmp(colon, want, strlen(want)) == 0)) {
            const char *at = v2 ? line + 3 : colon + strlen(want);
            size_t n = length - (size_t)(at - line);
            if (n == 0 || n >= size || at[0] != '/') return -1;
            memcpy(out, at, n);
            out[n] = 0;
            return 0;
        }
        if (!end) break;
        line = end + 1;
    }
    return -1;
}

/* Every pid in DIR's cgroup.procs and below; -1 past MAX_DEPTH or when a read fails. */
static int members_below(const char *dir, struct pids *out, int depth) {
    if (depth > MAX_DEPTH) return -1;
    char path[PATH_MAX];
    if (join(path, sizeof path, dir, "cgroup.procs") < 0) return -1;
    FILE *f = fopen(path, "re");
    if (!f) return -1;
    int pid;
    while (fscanf(f, "%d", &pid) == 1) {
        if (add_pid(out, pid) < 0) {
            fclose(f);
            return -1;
        }
    }
    fclose(f);
    DIR *d = opendir(dir);
    if (!d) return -1;
    struct dirent *e;
    int result = 0;
    while (result == 0 && (e = readdir(d)) != NULL) {
        if (e->d_type != DT_DIR || e->d_name[0] == '.') continue;
        if (join(path, sizeof path, dir, e->d_name) < 0) result = -1;
        else result = members_below(path, out, depth + 1);
    }
    closedir(d);
    return result;
}

/*
 * A process whose main thread ended while other threads run (pthread_exit in the leader) reads Z
 * in /proc/PID/stat, and its own exe link is missing; it is alive all the same, and the task
 * directory of a live thread says what it runs. Its stat's state and thread count (field 20):
 * only a Z with more than one thread is looked at further. 0 when PID is such a process, with
 * /proc/PID/task/TID of a live thread in DIR; -1 otherwise.
 */
static int live_thread_dir(int pid, char state, long threads, char *dir, size_t size) {
    if (state != 'Z' || threads < 2) return -1;
    char path[64], text[1024];
    snprintf(path, sizeof path, "/proc/%d/task", pid);
    DIR *d = opendir(path);
    if (!d) return -1;
    struct dirent *e;
    int found = -1;
    while (found < 0 && (e = readdir(d)) != NULL) {
        int tid = atoi(e->d_name);
        if (tid <= 0 || tid == pid) continue;
        snprintf(path, sizeof path, "/proc/%d/task/%d/stat", pid, tid);
        if (read_small(path, text, sizeof text) <= 0) continue;
        char *paren = strrchr(text, ')');
        if (!paren || paren[1] != ' ' || paren[2] == 0 || paren[2] == 'Z' || paren[2] == 'X') continue;
        snprintf(dir, size, "/proc/%d/task/%d", pid, tid);
        found = 0;
    }
    closedir(d);
    return found;
}

/* State and thread count from a stat's text; -1 when it is not a stat line. */
static int state_and_threads(const char *text, char *state, long *threads) {
    const char *paren = strrchr(text, ')'); // the name may hold anything, the fields after the last ')' do not
    if (!paren) return -1;
    // state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime priority nice threads
    return sscanf(paren + 1, " %c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %ld", state, threads) == 2 ? 0 : -1;
}

/* readlink of /proc/PID/exe, through a live thread when the leader exited (see live_thread_dir); -1 when unreadable. */
static ssize_t read_exe(int pid, char *link, size_t size) {
    char path[80], text[1024], dir[64], state;
    long threads;
    snprintf(path, sizeof path, "/proc/%d/exe", pid);
    ssize_t n = readlink(path, link, size - 1);
    if (n >= 0 || errno != ENOENT) return n;
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    if (read_small(path, text, sizeof text) <= 0 || state_and_threads(text, &state, &threads) < 0
        || live_thread_dir(pid, state, threads, dir, sizeof dir) < 0) return -1;
    snprintf(path, sizeof path, "%s/exe", dir);
    return readlink(path, link, size - 1);
}

/*
 * A batch of exe reads, shared with its reader threads. Never freed: a reader still inside a read
 * that waits (its process mid-fork or mid-exec) writes its answer there when the read returns,
 * until this program execs. STOP ends the claims once enough is known.
 */
enum { UNREAD, MATCH, OTHER, GONE };
struct exe_batch {
    const char *key;
    const int *pids;
    size_t count;
    int stop_on_other;             /* one OTHER decides: no more claims */
    _Atomic unsigned char *state;  /* per pid: UNREAD until its read returned */
    atomic_size_t next, done, matched, others;
    atomic_int stop;
};

static void *read_exes(void *arg) {
    struct exe_batch *b = arg;
    char link[PATH_MAX];
    while (!atomic_load(&b->stop)) {
        size_t i = atomic_fetch_add(&b->next, 1);
        if (i >= b->count) return NULL;
        ssize_t n = read_exe(b->pids[i], link, sizeof link);
        unsigned char state = GONE;
        if (n >= 0) {
            link[n] = 0;
            state = strcmp(link, b->key) == 0 ? MATCH : OTHER;
            atomic_fetch_add(state == MATCH ? &b->matched : &b->others, 1);
            if (state == OTHER && b->stop_on_other) atomic_store(&b->stop, 1);
        }
        atomic_store(&b->state[i], state);
        atomic_fetch_add(&b->done, 1);
    }
    return NULL;
}

/*
 * Reads the exe links of PIDS (N of them) against KEY on FIRST threads, READERS more at a time
 * when reads stall and GROW (a read waits while its process is mid-fork or mid-exec, and that
 * process, an ordinary task, waits its turn behind thousands: measured, 8 readers held 56 s),
 * until every read returned, ENOUGH matched (0: no such end), one OTHER when STOP_ON_OTHER, the
 * clock passed GIVE_UP_AT (0: never), or no read returned for STALL_NANOS with every pid claimed
 * or no more readers to add: the reads still out are UNREAD. NULL when no thread or memory could
 * be had; *READERS_USED says how many threads read.
 */
static struct exe_batch *read_exe_batch(const char *key, const int *pids, size_t n, size_t enough, int stop_on_other, int first, int grow,
                                        long long give_up_at, int *readers_used) {
    struct exe_batch *b = calloc(1, sizeof *b);
    if (!b || !(b->state = calloc(n ? n : 1, sizeof *b->state))) {
        free(b);
        return NULL;
    }
    b->key = key;
    b->pids = pids;
    b->count = n;
    b->stop_on_other = stop_on_other;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 64 * 1024);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    int readers = 0;
    for (int i = 0; i < first; i++) {
        pthread_t t;
        if (pthread_create(&t, &attr, read_exes, b) == 0) readers++;
    }
    *readers_used = readers;
    if (readers == 0) {
        pthread_attr_destroy(&attr);
        return NULL;
    }
    size_t seen = 0;
    long long moved = now_nanos(CLOCK_MONOTONIC), added = moved;
    struct timespec tick = { 0, 200000 };
    for (;;) {
        size_t done = atomic_load(&b->done);
        long long now = now_nanos(CLOCK_MONOTONIC);
        if (done >= n || (enough && atomic_load(&b->matched) >= enough) || (stop_on_other && atomic_load(&b->others) > 0)) break;
        if (give_up_at && now > give_up_at) break;
        int claimed = atomic_load(&b->next) >= n;
        if (done != seen) {
            seen = done;
            moved = now;
        } else if (now - moved > STALL_NANOS && (claimed || readers >= MAX_READERS)) {
            break; // the reads left are unknown (their threads finish on their own)
        }
        if (grow && !claimed && readers < MAX_READERS && now - moved > ADD_READERS_NANOS && now - added > ADD_READERS_NANOS) {
            for (int i = 0; i < READERS && readers < MAX_READERS; i++) {
                pthread_t t;
                if (pthread_create(&t, &attr, read_exes, b) == 0) readers++;
            }
            added = now;
        }
        nanosleep(&tick, NULL);
    }
    atomic_store(&b->stop, 1); // readers that have not claimed a pid yet end here
    pthread_attr_destroy(&attr);
    *readers_used = readers;
    return b;
}

/*
 * Where this process's reading threads are when the reads did not return (their states, and
 * the kernel stack of one that waits): at the start of a 20,000-task fire every read waited
 * once, for a reason the figures alone did not tell.
 */
static void where_readers_wait(char *out, size_t size) {
    int counts[4] = {0}; /* D, R, S, other */
    char stack[160] = "";
    DIR *tasks = opendir("/proc/self/task");
    if (!tasks) {
        out[0] = 0;
        return;
    }
    struct dirent *e;
    while ((e = readdir(tasks)) != NULL) {
        int tid = atoi(e->d_name);
        if (tid <= 0 || tid == getpid()) continue;
        char path[64], text[512];
        snprintf(path, sizeof path, "/proc/self/task/%d/stat", tid);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) continue;
        ssize_t n = read(fd, text, sizeof text - 1);
        close(fd);
        if (n <= 0) continue;
        text[n] = 0;
        char *paren = strrchr(text, ')');
        char state = paren && paren[1] ? paren[2] : '?';
        counts[state == 'D' ? 0 : state == 'R' ? 1 : state == 'S' ? 2 : 3]++;
        if (stack[0] || state == 'R') continue;
        snprintf(path, sizeof path, "/proc/self/task/%d/stack", tid);
        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) continue;
        n = read(fd, text, sizeof text - 1);
        close(fd);
        if (n <= 0) continue;
        text[n] = 0;
        /* "[<0>] func+0x1/0x2\n" lines: the first three names */
        size_t used = 0;
        int frames = 0;
        for (char *line = text; line && *line && frames < 3; frames++) {
            char *name = strstr(line, "] ");
            char *next = strchr(line, '\n');
            if (!name) break;
            name += 2;
            size_t len = strcspn(name, "+\n");
            int w = snprintf(stack + used, sizeof stack - used, "%s%.*s", frames ? " < " : "", (int)len, name);
            if (w < 0 || (size_t)w >= sizeof stack - used) break;
            used += (size_t)w;
            line = next ? next + 1 : NULL;
        }
    }
    closedir(tasks);
    snprintf(out, size, "; readers D %d, R %d, S %d, other %d%s%s", counts[0], counts[1], counts[2], counts[3],
             stack[0] ? "; one waits in " : "", stack);
}

/* What the lever did, for the JVM and the phase figures. */
struct lever {
    int frozen;
    char dir[PATH_MAX], pids_max[PATH_MAX], old[64];
    char why[512];
    char phases[256];
    char readers[16];
    unsigned long long root_start; /* --pid and --chain: the root's start, as the selector names it */
    size_t phases_used;
    long long phase_start;
};

static int refuse(struct lever *l, const char *format, ...) {
    va_list args;
    va_start(args, format);
    vsnprintf(l->why, sizeof l->why, format, args);
    va_end(args);
    return -1;
}

static void phase(struct lever *l, const char *name) {
    long long now = now_nanos(CLOCK_MONOTONIC);
    if (l->phases_used < sizeof l->phases) {
        int n = snprintf(l->phases + l->phases_used, sizeof l->phases - l->phases_used, "%s%s=%lld",
                         l->phases_used ? "," : "", name, (now - l->phase_start) / 1000000);
        if (n > 0) l->phases_used += (size_t)n;
    }
    l->phase_start = now;
}

/*
 * A stop confirmed on the command line, as the JVM reads it (StopCommand): `stop SELECTOR --yes
 * [--json] [--keep-revoked] [--record FILE]`, SELECTOR one of --command /KEY, --pid PID,
 * --chain PID, --cgroup /PATH. Anything else is not understood here: the JVM's own reading decides.
 */
enum by { BY_NONE, BY_COMMAND, BY_PID, BY_CHAIN, BY_CGROUP };
struct confirmed {
    enum by by;
    const char *text; /* the key or the cgroup path */
    int pid;          /* the root of --pid and --chain */
};

/* The value of option NAME at argv[*i] ("NAME VALUE" or "NAME=VALUE"), stepping past it; NULL when argv[*i] is not NAME. */
static const char *option(const char *name, int argc, char **argv, int *i) {
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0) return NULL;
    if (argv[*i][n] == '=') return argv[*i] + n + 1;
    if (argv[*i][n] != 0 || *i + 1 >= argc) return NULL;
    return argv[++*i];
}

/* A pid as the JVM takes it: 2 to 9 digits, no sign, above 1; -1 otherwise. */
static int strict_pid(const char *text) {
    size_t n = strlen(text);
    if (n == 0 || n > 9 || strspn(text, "0123456789") != n || text[0] == '0') return -1;
    int pid = atoi(text);
    return pid > 1 ? pid : -1;
}

static enum by confirmed_stop(int argc, char **argv, struct confirmed *c) {
    static const struct { const char *name; enum by by; } selectors[] = {
        { "--command", BY_COMMAND }, { "--pid", BY_PID }, { "--chain", BY_CHAIN }, { "--cgroup", BY_CGROUP } };
    int yes = 0;
    c->by = BY_NONE;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *value;
        if (strcmp(a, "--yes") == 0) {
            yes = 1;
            continue;
        }
        if (strcmp(a, "--json") == 0 || strcmp(a, "--keep-revoked") == 0 || option("--record", argc, argv, &i)) continue;
        size_t k = 0;
        while (k < sizeof selectors / sizeof *selectors && !(value = option(selectors[k].name, argc, argv, &i))) k++;
        if (k == sizeof selectors / sizeof *selectors || c->by != BY_NONE) return c->by = BY_NONE; /* unknown, or two selectors */
        c->by = selectors[k].by;
        c->text = value;
        if ((c->by == BY_PID || c->by == BY_CHAIN) && (c->pid = strict_pid(value)) < 0) return c->by = BY_NONE;
        if ((c->by == BY_COMMAND || c->by == BY_CGROUP) && value[0] != '/') return c->by = BY_NONE;
    }
    return yes ? c->by : (c->by = BY_NONE);
}

/* The v2 tree: the layout CgroupLayout.detect reads. */
static const char *unified_root(void) {
    if (access("/sys/fs/cgroup/cgroup.controllers", F_OK) == 0) return "/sys/fs/cgroup";
    if (access("/sys/fs/cgroup/unified/cgroup.controllers", F_OK) == 0) return "/sys/fs/cgroup/unified";
    return NULL;
}

static int shared_by_design(const char *cg) {
    size_t n = strlen(cg);
    return strcmp(cg, "/") == 0 || (n >= 6 && strcmp(cg + n - 6, ".slice") == 0) || strstr(cg, "/..") != NULL;
}

/* 1 when PID's v2 cgroup is CG or below it, or PID is gone (it holds no slot); else 0. */
static int inside_or_gone(int pid, const char *cg) {
    char path[64], text[4096], at[PATH_MAX];
    snprintf(path, sizeof path, "/proc/%d/cgroup", pid);
    if (read_small(path, text, sizeof text) < 0) return errno == ENOENT || errno == ESRCH;
    if (cgroup_line(text, "", at, sizeof at) < 0) return 0;
    size_t n = strlen(cg);
    return strncmp(at, cg, n) == 0 && (at[n] == 0 || at[n] == '/');
}

/*
 * The pids.max that governs CG (v2 path) when it holds only CG's processes: v2's own, or the
 * v1 pids cgroup of a member when everything in it (and below) is in CG (Actuator.pidsMaxOf).
 * The runaway forks and exits meanwhile: a member may be gone, and the v1 cgroup may hold
 * children born since MEMBERS was listed, so those are checked one by one. "" when none.
 */
static void pids_max_of(const char *v2dir, const char *cg, const struct pids *members, char *out, size_t size) {
    out[0] = 0;
    char path[PATH_MAX], text[4096], v1[PATH_MAX];
    if (join(path, sizeof path, v2dir, "pids.max") == 0 && access(path, W_OK) == 0) {
        snprintf(out, size, "%s", path);
        return;
    }
    int found = 0;
    for (size_t i = 0; i < members->n && !found; i++) {
        snprintf(path, sizeof path, "/proc/%d/cgroup", members->at[i]);
        found = read_small(path, text, sizeof text) >= 0 && cgroup_line(text, "pids", v1, sizeof v1) == 0;
    }
    if (!found || strcmp(v1, "/") == 0 || strstr(v1, "..")) return;
    char dir[PATH_MAX];
    if (join(dir, sizeof dir, "/sys/fs/cgroup/pids", v1 + 1) < 0) return;
    struct pids in = {0};
    int ok = members_below(dir, &in, 0) == 0;
    for (size_t i = 0; ok && i < in.n; i++) ok = has_pid(members, in.at[i]) || inside_or_gone(in.at[i], cg);
    free(in.at);
    if (!ok) return;
    if (join(path, sizeof path, dir, "pids.max") == 0 && access(path, W_OK) == 0) snprintf(out, size, "%s", path);
}

/* CG's directory in the v2 tree and its members (sorted), when it may be frozen for a stop; -1 (refused) otherwise. */
static int usable_cgroup(struct lever *l, const char *root, const char *cg, char *dir, struct pids *members) {
    char text[4096], own[PATH_MAX];
    if (shared_by_design(cg)) return refuse(l, "%s is shared by design (the root or a slice)", cg);
    if (strstr(cg, "//") || strstr(cg, "/./") || cg[strlen(cg) - 1] == '/') return refuse(l, "%s is not a cgroup path as /proc prints it", cg);
    if (read_small("/proc/self/cgroup", text, sizeof text) < 0 || cgroup_line(text, "", own, sizeof own) < 0)
        return refuse(l, "cannot read this program's own cgroup");
    size_t cglen = strlen(cg);
    if (strncmp(own, cg, cglen) == 0 && (own[cglen] == 0 || own[cglen] == '/'))
        return refuse(l, "the cgroup %s holds this stop too", cg);
    if ((size_t)snprintf(dir, PATH_MAX, "%s%s", root, cg) >= PATH_MAX) return refuse(l, "cgroup path too long");
    if (members_below(dir, members, 0) < 0 || members->n == 0) return refuse(l, "cannot list the members of %s", cg);
    qsort(members->at, members->n, sizeof *members->at, by_value);
    for (size_t i = 0; i < members->n; i++) {
        if (members->at[i] == 1 || members->at[i] == getpid()) return refuse(l, "the cgroup %s holds pid %d", cg, members->at[i]);
    }
    phase(l, "cgroupProcs");
    return 0;
}

/*
 * A binary's key: the cgroup of its processes, found by /proc/PID/exe in pid order until SAMPLE
 * of them are read, when (nearly) every member read is the key's and none of the key runs
 * outside it. Sets CG, DIR, MEMBERS and UNREAD (members not read: the JVM reads them all).
 */
static int cgroup_of_key(const char *key, struct lever *l, const char *root, char *cg, char *dir, struct pids *members, size_t *unread) {
    struct pids all = {0};
    DIR *proc = opendir("/proc");
    if (!proc) return refuse(l, "cannot list /proc: %s", strerror(errno));
    struct dirent *e;
    while ((e = readdir(proc)) != NULL) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9') continue;
        if (add_pid(&all, atoi(e->d_name)) < 0) {
            closedir(proc);
            return refuse(l, "out of memory listing /proc");
        }
    }
    closedir(proc);
    phase(l, "listPids");

    int readers = 0;
    struct exe_batch *b = read_exe_batch(key, all.at, all.n, SAMPLE, 0, READERS, 1, 0, &readers);
    if (!b) return refuse(l, readers ? "out of memory" : "no thread to read /proc/PID/exe");
    struct pids matches = {0}, others = {0};
    int first = 0;
    size_t unknown = 0;
    for (size_t i = 0; i < all.n; i++) {
        unsigned char s = atomic_load(&b->state[i]);
        if (s == MATCH) {
            if (add_pid(&matches, all.at[i]) < 0) return refuse(l, "out of memory");
            if (!first) first = all.at[i];
        } else if (s == OTHER) {
            if (add_pid(&others, all.at[i]) < 0) return refuse(l, "out of memory");
        } else if (s == UNREAD) {
            unknown++;
        }
    }
    phase(l, "readExe");
    snprintf(l->readers, sizeof l->readers, "%d", readers);
    if (matches.n == 0) {
        char where[256] = "";
        if (unknown > 0) where_readers_wait(where, sizeof where);
        return refuse(l, "no process runs %s (by /proc/PID/exe; %zu reads did not return%s)", key, unknown, where);
    }

    char path[PATH_MAX], text[4096];
    snprintf(path, sizeof path, "/proc/%d/cgroup", first);
    if (read_small(path, text, sizeof text) < 0 || cgroup_line(text, "", cg, PATH_MAX) < 0)
        return refuse(l, "no cgroup v2 path for pid %d", first);
    if (usable_cgroup(l, root, cg, dir, members) < 0) return -1;
    qsort(matches.at, matches.n, sizeof *matches.at, by_value);
    qsort(others.at, others.n, sizeof *others.at, by_value);
    // Members read as another binary are strangers; the rest were not read yet (or not at all:
    // their read waits on a process holding its memory map's lock). The JVM reads every one
    // again once they are frozen, and thaws at once on a stranger.
    size_t strangers = 0, by_exe = 0;
    for (size_t i = 0; i < members->n; i++) {
        if (has_pid(&others, members->at[i])) strangers++;
        else if (has_pid(&matches, members->at[i])) by_exe++;
    }
    *unread = members->n - strangers - by_exe;
    size_t allowed = matches.n * STRANGERS_PER_MILLE / 1000;
    if (allowed < STRANGERS_MIN) allowed = STRANGERS_MIN;
    if (strangers > allowed) return refuse(l, "%zu processes in %s do not run the key (by the first reading)", strangers, cg);
    if (by_exe == 0) return refuse(l, "none of the processes in %s was read as the key", cg);
    // A process of the key in another cgroup: this freeze would not be the stop.
    size_t cglen = strlen(cg);
    for (size_t i = 0; i < matches.n; i++) {
        if (has_pid(members, matches.at[i])) continue;
        char other[PATH_MAX];
        snprintf(path, sizeof path, "/proc/%d/cgroup", matches.at[i]);
        if (read_small(path, text, sizeof text) < 0 || cgroup_line(text, "", other, sizeof other) < 0) continue; // gone
        if (strcmp(other, cg) != 0 && !(strncmp(other, cg, cglen) == 0 && other[cglen] == '/'))
            return refuse(l, "pid %d of the same key runs outside %s, in %s", matches.at[i], cg, other);
    }
    phase(l, "check");
    return 0;
}

/* A process's parent and start time from its stat (which never waits on the process); -1 when gone or unreadable. */
static int stat_of(int pid, int *ppid, unsigned long long *start) {
    char path[40], text[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    if (read_small(path, text, sizeof text) <= 0) return -1;
    char *paren = strrchr(text, ')'); // the name may hold anything, the fields after the last ')' do not
    if (!paren) return -1;
    char state, dir[64];
    long threads;
    // state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime priority nice threads itrealvalue starttime
    if (sscanf(paren + 1, " %c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %ld %*d %llu", &state, ppid, &threads, start) != 4)
        return -1;
    if (state == 'Z' && live_thread_dir(pid, state, threads, dir, sizeof dir) == 0) return 0; // its leader exited, it lives
    return state == 'Z' || state == 'X' ? -1 : 0;
}

/* Members checked for a stop by descent; the JVM checks every one once they are frozen. */
#define DESCENT_SAMPLE 256

/* The index of PID in the sorted list, or -1. */
static long index_of(const struct pids *sorted, int pid) {
    const int *at = sorted->n ? bsearch(&pid, sorted->at, sorted->n, sizeof pid, by_value) : NULL;
    return at ? at - sorted->at : -1;
}

/*
 * --pid and --chain: the cgroup of the root ROOT_PID when each member in a sample of it descends
 * from the root by its parents (read from stat, which never waits), or from a member whose parent
 * is no member (adopted: by init, a subreaper) and which runs the root's executable: a
 * daemonizer's levels, the evidence the JVM's placement takes (the same cgroup and command). One
 * member that is neither and nothing is done. The root's start time goes to the JVM with the
 * lever, so a root that exits meanwhile is still the stop's root.
 */
static int cgroup_of_root(int root_pid, struct lever *l, const char *root, char *cg, char *dir, struct pids *members, size_t *unread,
                          unsigned long long *root_start) {
    char path[PATH_MAX], text[4096], root_exe[PATH_MAX], exe[PATH_MAX];
    int ppid;
    if (stat_of(root_pid, &ppid, root_start) < 0) return refuse(l, "no live process %d", root_pid);
    ssize_t n = read_exe(root_pid, root_exe, sizeof root_exe);
    root_exe[n > 0 ? n : 0] = 0;
    snprintf(path, sizeof path, "/proc/%d/cgroup", root_pid);
    if (read_small(path, text, sizeof text) < 0 || cgroup_line(text, "", cg, PATH_MAX) < 0)
        return refuse(l, "no cgroup v2 path for pid %d", root_pid);
    if (usable_cgroup(l, root, cg, dir, members) < 0) return -1;
    // Walks up the parents, memoized (a linear chain is thousands deep): 1 where a member is placed.
    unsigned char *placed = calloc(members->n, 1);
    struct pids walk = {0};
    if (!placed) return refuse(l, "out of memory");
    size_t step = members->n / DESCENT_SAMPLE + 1, checked = 0;
    int result = 0;
    for (size_t i = 0; i < members->n && result == 0; i += step, checked++) {
        int pid = members->at[i], gone = 0;
        unsigned long long ignored;
        long k;
        walk.n = 0;
        while (pid != root_pid && (k = index_of(members, pid)) >= 0 && !placed[k] && walk.n <= members->n) {
            if (add_pid(&walk, (int)k) < 0 || stat_of(pid, &ppid, &ignored) < 0) {
                gone = 1; // gone meanwhile (or no memory): it holds no slot, the JVM looks again
                break;
            }
            pid = ppid;
        }
        if (gone) continue;
        k = pid == root_pid ? -1 : index_of(members, pid);
        int good = pid == root_pid || (k >= 0 && placed[k]); // the root, or a member placed before
        if (!good && k >= 0) result = refuse(l, "the parents of pid %d in %s loop", members->at[i], cg);
        else if (!good && walk.n > 0) {
            // The top of this line is adopted: placed (with all below it) when it runs the root's program.
            int top = members->at[walk.at[walk.n - 1]];
            n = read_exe(top, exe, sizeof exe);
            exe[n > 0 ? n : 0] = 0;
            good = root_exe[0] && strcmp(exe, root_exe) == 0;
            if (!good) result = refuse(l, "pid %d in %s does not descend from pid %d (adopted, runs %s)", top, cg, root_pid, exe[0] ? exe : "?");
        }
        for (size_t w = 0; good && w < walk.n; w++) placed[walk.at[w]] = 1;
    }
    free(placed);
    free(walk.at);
    if (result < 0) return -1;
    *unread = members->n - checked;
    phase(l, "check");
    return 0;
}

/*
 * Stops the growth of the confirmed stop's targets, or says why not; 0 when pids.max 0 (where a
 * pids cgroup holds only them) and the freeze are set.
 */
static int first_lever(const struct confirmed *c, struct lever *l) {
    l->phase_start = now_nanos(CLOCK_MONOTONIC);
    const char *root = unified_root();
    if (!root) return refuse(l, "no cgroup v2 tree");
    char cg[PATH_MAX], dir[PATH_MAX], text[PATH_MAX + 64];
    struct pids members = {0};
    size_t unread = 0;
    unsigned long long root_start = 0;
    if (c->by == BY_COMMAND) {
        if (cgroup_of_key(c->text, l, root, cg, dir, &members, &unread) < 0) return -1;
        snprintf(text, sizeof text, "command:%s", c->text);
    } else if (c->by == BY_CGROUP) {
        // The cgroup is the definition: every member is a target, nothing to read but its list.
        if (strlen(c->text) >= sizeof cg) return refuse(l, "cgroup path too long");
        snprintf(cg, sizeof cg, "%s", c->text);
        if (usable_cgroup(l, root, cg, dir, &members) < 0) return -1;
        snprintf(text, sizeof text, "cgroup:%s", c->text);
    } else {
        if (cgroup_of_root(c->pid, l, root, cg, dir, &members, &unread, &root_start) < 0) return -1;
        snprintf(text, sizeof text, "%s:%d:%llu", c->by == BY_PID ? "pid" : "chain", c->pid, root_start);
        l->root_start = root_start;
    }
    setenv("RUNAWAY_FIRST_LEVER_SELECTOR", text, 1);

    char *pids_max = l->pids_max, *old = l->old;
    pids_max_of(dir, cg, &members, pids_max, sizeof l->pids_max);
    if (pids_max[0]) {
        if (read_small(pids_max, old, sizeof l->old) <= 0) pids_max[0] = 0;
        else {
            old[strcspn(old, "\n")] = 0;
            if (write_small(pids_max, "0") < 0) pids_max[0] = 0;
        }
    }
    char path[PATH_MAX];
    if (join(path, sizeof path, dir, "cgroup.freeze") < 0 || write_small(path, "1") < 0) {
        int saved = errno;
        if (pids_max[0]) write_small(pids_max, old);
        return refuse(l, "could not freeze %s: %s", cg, strerror(saved));
    }
    phase(l, "capAndFreeze");
    l->frozen = 1;
    snprintf(l->dir, sizeof l->dir, "%s", dir);
    setenv("RUNAWAY_FIRST_LEVER_DIR", dir, 1);
    set_time("RUNAWAY_FIRST_LEVER_AT");
    setenv("RUNAWAY_FIRST_LEVER_CGROUP", cg, 1);
    setenv("RUNAWAY_FIRST_LEVER_PIDS_MAX", pids_max, 1);
    setenv("RUNAWAY_FIRST_LEVER_PIDS_OLD", old, 1);
    snprintf(text, sizeof text, "%zu", members.n);
    setenv("RUNAWAY_FIRST_LEVER_MEMBERS", text, 1);
    snprintf(text, sizeof text, "%zu", unread);
    setenv("RUNAWAY_FIRST_LEVER_UNKNOWN", text, 1);
    setenv("RUNAWAY_FIRST_LEVER_READERS", l->readers[0] ? l->readers : "0", 1);
    fprintf(stderr, "runaway: growth stopped before the plan: %sfroze %s (%zu processes)\n",
            pids_max[0] ? "pids.max 0 and " : "", cg, members.n);
    return 0;
}

/*
 * The kill from the first lever (issue 37). `--yes` authorises the set the selector names. Once
 * the set is fixed (pids.max 0 over every member: no fork succeeds; or cgroup.events says
 * "frozen 1": no member forks or execs any more), when
 * every process in it and below is a member by the selector's own rule, checked on that fixed set
 * with no stranger allowance, killing the cgroup kills exactly that set: it is killed here, before
 * the JVM starts, and the JVM confirms zero. The rules: --cgroup, every process; --command, its
 * exe is the key; --pid and --chain, the root (the very process: its start time) and processes
 * whose parents lead up to it inside the cgroup (an adopted one, a daemonizer's level, is the
 * JVM's to place). Never a process the JVM excludes from every stop: an ancestor of this stop or
 * its session's leader. Anything else, a read that fails included: nothing more is done, and
 * RUNAWAY_FIRST_LEVER_KILL_REFUSED says why (REASON words: the JVM's RtKill.Reason), so the JVM
 * decides as without it. RUNAWAY_RT_KILL=0 turns it off (a bench's other path).
 */
/* At 20,000 pressing tasks every task was frozen 3.0-4.1 s after the write (docs/guided-stop.md). */
#define FROZEN_WAIT_NANOS (10 * 1000000000LL)

static int kill_refused(const char *reason, const char *format, ...) {
    char words[512], text[600];
    va_list args;
    va_start(args, format);
    vsnprintf(words, sizeof words, format, args);
    va_end(args);
    snprintf(text, sizeof text, "%s %s", reason, words);
    setenv("RUNAWAY_FIRST_LEVER_KILL_REFUSED", text, 1);
    fprintf(stderr, "runaway: runaway-rt did not kill, the JVM decides: %s\n", words);
    return -1;
}

/* 0 once DIR's cgroup.events says "frozen 1", within FROZEN_WAIT_NANOS; -1 otherwise. */
static int wait_frozen(const char *dir) {
    char path[PATH_MAX], text[512];
    if (join(path, sizeof path, dir, "cgroup.events") < 0) return -1;
    long long deadline = now_nanos(CLOCK_MONOTONIC) + FROZEN_WAIT_NANOS;
    struct timespec tick = { 0, 1000000 };
    do {
        if (read_small(path, text, sizeof text) < 0) return -1;
        if (strstr(text, "frozen 1")) return 0;
        nanosleep(&tick, NULL);
    } while (now_nanos(CLOCK_MONOTONIC) < deadline);
    return -1;
}

/*
 * After its kill, until DIR's cgroup.events says "populated 0", within EMPTY_WAIT_NANOS: the JVM
 * is started only then. Started at once, its start-up (class loading, its compilers, ~1.5 CPU-s
 * on 2 cores) took the CPUs from the kernel's exit work: at 5,000 pressing tasks the cgroup took
 * 2.7 times as long to empty after this kill as after the same kill with nothing starting beside
 * it. Past the wait the JVM starts anyway: it confirms zero, or kills what is left by pid.
 */
#define EMPTY_WAIT_NANOS (30 * 1000000000LL)

static void wait_empty(const char *dir) {
    char path[PATH_MAX], text[512];
    if (join(path, sizeof path, dir, "cgroup.events") < 0) return;
    long long deadline = now_nanos(CLOCK_MONOTONIC) + EMPTY_WAIT_NANOS;
    struct timespec tick = { 0, 1000000 };
    do {
        if (read_small(path, text, sizeof text) < 0 || strstr(text, "populated 0")) return;
        nanosleep(&tick, NULL);
    } while (now_nanos(CLOCK_MONOTONIC) < deadline);
    fprintf(stderr, "runaway: %s still held processes %lld s after the kill; the JVM takes over\n", dir, EMPTY_WAIT_NANOS / 1000000000LL);
}

/* 1 when /proc/PID is gone (the process holds no slot and no kill reaches it). */
static int gone(int pid) {
    char path[40];
    snprintf(path, sizeof path, "/proc/%d", pid);
    return access(path, F_OK) < 0 && errno == ENOENT;
}

/* A member the JVM never stops (Exclusions): an ancestor of this process or its session's leader; 0 when none. */
static int excluded_member(const struct pids *members) {
    int sid = (int)getsid(0);
    if (sid > 0 && has_pid(members, sid)) return sid;
    int ppid;
    unsigned long long start;
    for (int pid = (int)getppid(), steps = 0; pid > 1 && steps < 4096; steps++) {
        if (has_pid(members, pid)) return pid;
        if (stat_of(pid, &ppid, &start) < 0) break;
        pid = ppid;
    }
    return 0;
}

/*
 * --command: every member runs KEY (the first other binary ends the reads). 0; -1 with the reason
 * set; or CHECK_FROZEN when some reads had not returned (a process mid-fork or mid-exec): once
 * frozen, they will. HELD: "frozen 1" was seen, no member runs. Before that, within a time that
 * leaves the wait for the freeze the quicker way (a read waits on a process holding a lock while
 * it waits for a CPU, until the freeze takes it).
 */
#define CHECK_FROZEN (-2) /* not decided before "frozen 1": wait for it, then check the whole set again */
#define EARLY_CHECK_NANOS (200 * 1000000LL)
#define EARLY_CHECK_NANOS_PER_MEMBER 15000LL
static int all_run_key(const char *key, const struct pids *members, int held) {
    int readers = 0;
    long long give_up_at = held ? 0 : now_nanos(CLOCK_MONOTONIC) + EARLY_CHECK_NANOS + (long long)members->n * EARLY_CHECK_NANOS_PER_MEMBER;
    struct exe_batch *b = read_exe_batch(key, members->at, members->n, 0, 1, READERS, 1, give_up_at, &readers);
    if (!b) return kill_refused("MEMBER_UNREAD", "no thread or memory to read the members' executables");
    int unread = 0;
    char exe[PATH_MAX];
    for (size_t i = 0; i < members->n; i++) {
        unsigned char state = atomic_load(&b->state[i]);
        if (state == OTHER) {
            ssize_t n = read_exe(members->at[i], exe, sizeof exe);
            exe[n < 0 ? 0 : n] = 0;
            return kill_refused("STRANGER", "pid %d runs %s, not %s", members->at[i], n < 0 ? "another binary" : exe, key);
        }
        if (state == UNREAD) unread = 1;
        else if (state == GONE && !gone(members->at[i])) return kill_refused("MEMBER_UNREAD", "the executable of pid %d could not be read", members->at[i]);
    }
    return unread ? CHECK_FROZEN : 0;
}

/* --pid, --chain: every member is the root (pid ROOT, started at START) or descends from it inside the cgroup. */
static int all_descend(int root, unsigned long long start, const struct pids *members) {
    int ppid;
    unsigned long long at;
    if (stat_of(root, &ppid, &at) < 0 || at != start) return kill_refused("ROOT_GONE", "the root pid %d is gone: its descendants were adopted", root);
    unsigned char *placed = calloc(members->n ? members->n : 1, 1);
    if (!placed) return kill_refused("MEMBER_UNREAD", "out of memory");
    struct pids walk = {0};
    int result = 0;
    for (size_t i = 0; i < members->n && result == 0; i++) {
        int pid = members->at[i], lost = 0;
        long k;
        walk.n = 0;
        while (pid != root && (k = index_of(members, pid)) >= 0 && !placed[k] && walk.n <= members->n) {
            if (add_pid(&walk, (int)k) < 0 || stat_of(pid, &ppid, &at) < 0) {
                lost = pid;
                break;
            }
            pid = ppid;
        }
        if (lost && gone(lost)) continue; // exited: no slot, no kill
        if (lost) result = kill_refused("MEMBER_UNREAD", "the parent of pid %d could not be read", members->at[i]);
        else if (pid != root && !((k = index_of(members, pid)) >= 0 && placed[k]))
            result = kill_refused("STRANGER", "pid %d does not descend from pid %d inside the cgroup (its line ends at pid %d)",
                                  members->at[i], root, pid);
        for (size_t w = 0; result == 0 && w < walk.n; w++) placed[walk.at[w]] = 1;
    }
    free(placed);
    free(walk.at);
    return result;
}

/*
 * 1 when the pids.max set to 0 governs every process in MEMBERS (listed after it was set): v2's
 * own file covers its subtree; a v1 pids cgroup must hold each of them, or one outside it could
 * still fork into the cgroup.
 */
static int capped_whole(const struct lever *l, const struct pids *members) {
    char v2own[PATH_MAX];
    if (join(v2own, sizeof v2own, l->dir, "pids.max") == 0 && strcmp(v2own, l->pids_max) == 0) return 1;
    char v1dir[PATH_MAX];
    size_t len = strlen(l->pids_max), file = strlen("/pids.max");
    if (len <= file || len - file >= sizeof v1dir) return 0;
    snprintf(v1dir, sizeof v1dir, "%.*s", (int)(len - file), l->pids_max);
    struct pids capped = {0};
    int ok = members_below(v1dir, &capped, 0) == 0;
    if (ok) qsort(capped.at, capped.n, sizeof *capped.at, by_value);
    for (size_t i = 0; ok && i < members->n; i++) ok = has_pid(&capped, members->at[i]) || gone(members->at[i]);
    free(capped.at);
    return ok;
}

/*
 * The members of L's cgroup and below, sorted, checked by the selector's own rule: 0 when every
 * one is the stop's; -1 with the reason set; CHECK_FROZEN when, before "frozen 1" (HELD 0), a
 * read was still out or a member was not under the pids.max set to 0.
 */
static int members_checked(const struct confirmed *c, const struct lever *l, int held, struct pids *members) {
    members->n = 0;
    if (members_below(l->dir, members, 0) < 0) return kill_refused("MEMBER_UNREAD", "cannot list the members of %s", l->dir);
    qsort(members->at, members->n, sizeof *members->at, by_value);
    int excluded = excluded_member(members);
    if (excluded) return kill_refused("EXCLUDED", "pid %d, an ancestor or the session leader of this stop, is in %s", excluded, l->dir);
    if (!held && !capped_whole(l, members)) return CHECK_FROZEN;
    if (c->by == BY_COMMAND) return all_run_key(c->text, members, held);
    if (c->by == BY_PID || c->by == BY_CHAIN) return all_descend(c->pid, l->root_start, members);
    return 0;
}

/*
 * Kills the frozen cgroup of lever L when the rule holds for every member and PROGRAM can confirm
 * it; 0 when killed. With pids.max 0 over every member (--command, --cgroup), the members are
 * checked at once, as the freeze takes them: no fork succeeds, so what is listed is the whole set
 * but for exits, and the freeze's wait is left out (at 20,000 pressing tasks every task had to
 * be scheduled once to say "frozen 1": 0.9-1.6 s, as long as the kill itself). A read still out,
 * or no such cap: "frozen 1" is waited for and the whole set checked again.
 */
static int rt_kill(const struct confirmed *c, struct lever *l, const char *program) {
    const char *how = getenv("RUNAWAY_RT_KILL"); // "frozen": the wait for "frozen 1" first even so (the bench's other path)
    if (how && strcmp(how, "0") == 0) return kill_refused("DISABLED", "RUNAWAY_RT_KILL=0");
    if (access(program, X_OK) < 0) return kill_refused("NO_PROGRAM", "%s cannot run: nobody would confirm zero", program);
    char path[PATH_MAX];
    if (join(path, sizeof path, l->dir, "cgroup.kill") < 0 || access(path, W_OK) < 0)
        return kill_refused("NO_KILL_FILE", "no writable cgroup.kill in %s (a kernel before 5.14)", l->dir);
    struct pids members = {0};
    int early = l->pids_max[0] && (c->by == BY_COMMAND || c->by == BY_CGROUP) && !(how && strcmp(how, "frozen") == 0);
    int result = early ? members_checked(c, l, 0, &members) : CHECK_FROZEN;
    if (result == CHECK_FROZEN) {
        if (early) phase(l, "killCheckEarly");
        if (wait_frozen(l->dir) < 0) result = kill_refused("NOT_FROZEN", "%s did not say frozen 1 within %lld ms", l->dir, FROZEN_WAIT_NANOS / 1000000);
        else {
            phase(l, "frozenHeld");
            result = members_checked(c, l, 1, &members);
            if (result == CHECK_FROZEN) result = kill_refused("MEMBER_UNREAD", "the executables of frozen members of %s did not return", l->dir);
        }
    }
    phase(l, "killCheck");
    if (result == 0 && write_small(path, "1") < 0) result = kill_refused("KILL_FAILED", "writing %s: %s", path, strerror(errno));
    if (result == 0) {
        set_time("RUNAWAY_FIRST_LEVER_KILLED_AT");
        phase(l, "kill");
        fprintf(stderr, "runaway: killed %s (%zu processes, each the stop's by its selector)\n", l->dir, members.n);
        wait_empty(l->dir);
        set_time("RUNAWAY_FIRST_LEVER_EMPTY_AT");
        phase(l, "emptied");
    }
    free(members.at);
    return result;
}

/* Thaws and puts pids.max back: nothing after this program will adopt the lever. */
static void undo(const struct lever *l) {
    char path[PATH_MAX];
    if (join(path, sizeof path, l->dir, "cgroup.freeze") == 0) write_small(path, "0");
    if (l->pids_max[0]) write_small(l->pids_max, l->old);
    fprintf(stderr, "runaway: thawed %s again and put its pids.max back\n", l->dir);
}

/* The packaged app's own launcher, which /usr/bin/runaway (this program, by that name) runs. */
#ifndef RUNAWAY_APP
#define RUNAWAY_APP "/opt/runaway/bin/runaway"
#endif
/*
 * ... or rather its JVM, with the app's options, class path and main class in an argument file
 * the package writes from the app launcher's configuration (packaging/build-deb): JDK 17's
 * jpackage launcher runs `sh -c "rpm -qf ..."` and `sh -c "dpkg -S ..."` at every start to learn
 * which package it came from (strace), about 1 s calm and seconds during a fire, and starts
 * processes where the stop is to start none. The app launcher is used when these are missing.
 */
#ifndef RUNAWAY_JAVA
#define RUNAWAY_JAVA "/opt/runaway/lib/runtime/bin/java"
#endif
#ifndef RUNAWAY_ARGS
#define RUNAWAY_ARGS "/opt/runaway/lib/app/runaway.args"
#endif

int main(int argc, char **argv) {
    static struct lever l;
    // Installed as /usr/bin/runaway it is the package's launcher: no shell and no loader run at
    // ordinary priority before the switch; the launch time is its own first clock reading.
    const char *name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    int front = strcmp(name, "runaway") == 0;
    int lever = !front && argc > 1 && strcmp(argv[1], "--first-lever") == 0;
    char **program;
    int stop_at; // where the stop's arguments start in argv, when this is one
    if (front) {
        char pid[24];
        snprintf(pid, sizeof pid, "%d", (int)getpid());
        const char *launched = getenv("RUNAWAY_LAUNCHED_PID");
        if (!launched || strcmp(launched, pid) != 0) {
            set_time("RUNAWAY_LAUNCHED_AT");
            setenv("RUNAWAY_LAUNCHED_PID", pid, 1);
        }
        argv[0] = (char *)RUNAWAY_APP;
        program = argv;
        const char *command = argc > 1 ? argv[1] : "";
        if (access(RUNAWAY_JAVA, X_OK) == 0 && access(RUNAWAY_ARGS, R_OK) == 0) {
            static char argfile[] = "@" RUNAWAY_ARGS;
            /*
             * The console and a scan compile with C1 alone: the console opened during a fire at
             * 5,000 pressing tasks spent 3.8 of its 9.4 CPU-s before the runaway was named in its
             * compilers (C2 2.7 s), and named it after 6.2 s instead of 9.7-10.4 s with C1 alone
             * (docs/benchmarks.md, "The console opened on fire"); a one-shot scan likewise.
             */
            static char c1[] = "-XX:TieredStopAtLevel=1";
            int quick = strcmp(command, "console") == 0 || strcmp(command, "scan") == 0;
            program = calloc((size_t)argc + 3, sizeof *program);
            if (!program) program = argv;
            else {
                int at = 0;
                program[at++] = (char *)RUNAWAY_JAVA;
                if (quick) program[at++] = c1;
                program[at++] = argfile;
                for (int i = 1; i < argc; i++) program[at++] = argv[i];
            }
        }
        const char *realtime = getenv("RUNAWAY_REALTIME");
        // A console too: opened during a fire it must paint and name the runaway; it lowers itself
        // at its first scan status unless the machine is overloaded (ui/BornRaised.java).
        int fast = (strcmp(command, "stop") == 0 || strcmp(command, "scan") == 0 || strcmp(command, "console") == 0)
                   && geteuid() == 0 && !(realtime && strcmp(realtime, "0") == 0);
        lever = fast && strcmp(command, "stop") == 0;
        stop_at = 2;
        if (!fast) {
            unsetenv("RUNAWAY_REALTIME_AT");
            unsetenv("RUNAWAY_REALTIME_REFUSED");
        }
        if (!fast) goto run;
    } else {
        if (lever) {
            argv++;
            argc--;
        }
        if (argc < 2 || argv[1][0] != '/') {
            fprintf(stderr, "usage: runaway-rt [--first-lever] /ABSOLUTE/PROGRAM [ARG]...\n");
            return 2;
        }
        program = argv + 1;
        // The stop's arguments: after PROGRAM, and after the script PROGRAM runs when there is one.
        stop_at = argc > 2 && strcmp(argv[2], "stop") == 0 ? 3 : argc > 3 && strcmp(argv[3], "stop") == 0 ? 4 : -1;
    }
    struct sched_param param = { .sched_priority = 1 };
    if (sched_setscheduler(0, SCHED_RR, &param) == 0) {
        set_time("RUNAWAY_REALTIME_AT");
        unsetenv("RUNAWAY_REALTIME_REFUSED");
    } else {
        setenv("RUNAWAY_REALTIME_REFUSED", strerror(errno), 1);
        unsetenv("RUNAWAY_REALTIME_AT");
    }
run:;
    // Nothing inherited may pass for this launch's lever.
    const char *names[] = { "AT", "CGROUP", "DIR", "PIDS_MAX", "PIDS_OLD", "MEMBERS", "UNKNOWN", "PHASES", "REFUSED", "PID", "READERS", "SELECTOR", "KILLED_AT", "KILL_REFUSED" };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char var[64];
        snprintf(var, sizeof var, "RUNAWAY_FIRST_LEVER_%s", names[i]);
        unsetenv(var);
    }
    if (lever) {
        struct confirmed stop = { BY_NONE, NULL, 0 };
        if (stop_at > 0) confirmed_stop(argc - stop_at, argv + stop_at, &stop);
        char pid[24];
        snprintf(pid, sizeof pid, "%d", (int)getpid());
        setenv("RUNAWAY_FIRST_LEVER_PID", pid, 1);
        if (stop.by == BY_NONE)
            setenv("RUNAWAY_FIRST_LEVER_REFUSED", "not a confirmed stop (stop --command /KEY, --pid PID, --chain PID or --cgroup /PATH, with --yes)", 1);
        else if (geteuid() != 0) setenv("RUNAWAY_FIRST_LEVER_REFUSED", "not root", 1);
        else if (first_lever(&stop, &l) < 0) {
            setenv("RUNAWAY_FIRST_LEVER_REFUSED", l.why, 1);
            fprintf(stderr, "runaway: no growth lever before the plan: %s\n", l.why);
        } else rt_kill(&stop, &l, program[0]);
        if (l.phases_used) setenv("RUNAWAY_FIRST_LEVER_PHASES", l.phases, 1);
    }
    if (front) set_time("RUNAWAY_EXEC_AT");
    execv(program[0], program);
    int saved = errno;
    if (l.frozen) undo(&l);
    fprintf(stderr, "%s: cannot run %s: %s\n", front ? "runaway" : "runaway-rt", program[0], strerror(saved));
    return 127;
}
