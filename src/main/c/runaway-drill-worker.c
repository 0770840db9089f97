// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * runaway-drill-worker: the real processes of the drills. Each level re-executes this binary,
 * as real runaways do (a deep chain built by fork alone costs kernel memory that grows with
 * the square of its depth). Nothing here limits growth: the drill's sandbox cap does, from
 * outside. When a fork fails at the cap, a worker says so once and retries slowly, so the
 * set keeps pressing on its cap the way a real runaway would.
 *
 *   linear LEVEL MIB PER_SECOND     each level holds MIB of touched memory and starts the next
 *                                   after 1/PER_SECOND s: one chain (the deploy-script loop)
 *   fanout PER_SECOND               each process starts two children: exponential growth
 *   orphans-start CHAINS PER_SECOND starts CHAINS chains, each in its own session, and exits
 *   swarm RETRY_MS                  every process forks again and again, and every child does
 *                                   the same (a fork bomb); at the cap each retries after
 *                                   RETRY_MS: what a kill loop by pid cannot outrun
 *   pressing PERIOD_MS              every process tries to fork every PERIOD_MS, and each child
 *                                   execs this binary to do the same; a refused fork doubles the
 *                                   wait (up to 8 periods) and the next success resets it: a
 *                                   runaway that keeps pressing on its cap at thousands of tasks
 *   daemonizer PERIOD_MS            every process forks every PERIOD_MS; the child calls setsid()
 *                                   and forks the next, which execs this binary, and exits at
 *                                   once: every new process is adopted by init before anyone
 *                                   sees its parent (a daemonizing runaway); refused forks wait
 *                                   as in pressing
 *   sleepers N                      N sleeping processes, forked as a balanced tree (depth
 *                                   log2 N, so fork-only costs nothing quadratic): for benches
 *   zombie-leader PERIOD_MS         the main thread starts a worker thread and ends (pthread_exit):
 *                                   the process reads Z in /proc/PID/stat, with an empty exe
 *                                   and command line, while the worker forks every PERIOD_MS
 *                                   and each child execs this binary to do the same; refused
 *                                   forks wait as in pressing
 *   orphans CHAIN LEVEL PER_SECOND  each level double-forks the next and stays; the middle
 *                                   process lingers 200 ms, so a sampler can see the next level
 *                                   under it before it is reparented to init; level 0 (the
 *                                   session leader) exits once its successor runs
 *
 * Exit codes: 2 usage, 3 out of memory, 4 a middle process could not fork, 6 no worker thread
 * (zombie-leader), 126 exec failed
 * (the binary lost its execute bit).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define RETRY_MS 250
#define LINGER_MS 200
#define MIDDLE_FORK_FAILED 4
#define THREAD_FAILED 6

static const char *self_path; /* argv[0], kept so /proc/PID/cmdline names the copy we run */
static int fork_failure_reported;

static void sleep_ms(long ms) {
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {}
}

static long number(const char *s, long min, long max) {
    char *end = NULL;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < min || v > max) {
        fprintf(stderr, "runaway-drill-worker: not a number in [%ld, %ld]: %s\n", min, max, s);
        exit(2);
    }
    return v;
}

/* fork() until it works, reporting the first failure (the cap firing) once. */
static pid_t fork_retrying(const char *mode, long level) {
    for (;;) {
        pid_t pid = fork();
        if (pid >= 0) return pid;
        if (!fork_failure_reported) {
            fprintf(stderr, "runaway-drill-worker: %s level %ld: fork failed: %s\n", mode, level, strerror(errno));
            fork_failure_reported = 1;
        }
        sleep_ms(RETRY_MS);
    }
}

/* Replaces the current (child) process with the next level. */
static void exec_next(char *const args[]) {
    execv("/proc/self/exe", args);
    _exit(126);
}

static void hold_forever(void) {
    for (;;) {
        if (wait(NULL) < 0 && errno == ECHILD) pause();
    }
}

static void hold_memory(long mib) {
    size_t bytes = (size_t)mib << 20;
    if (bytes == 0) return;
    char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) exit(3);
    for (size_t off = 0; off < bytes; off += 4096) p[off] = 1; /* touched, so it is resident */
}

static void run_linear(long level, long mib, long per_second) {
    sleep_ms(1000 / per_second);
    char lvl[24], m[24], rate[24];
    snprintf(lvl, sizeof lvl, "%ld", level + 1);
    snprintf(m, sizeof m, "%ld", mib);
    snprintf(rate, sizeof rate, "%ld", per_second);
    int holding = 0;
    for (;;) {
        pid_t child = fork_retrying("linear", level);
        if (child == 0) exec_next((char *const[]){ (char *)self_path, "linear", lvl, m, rate, NULL });
        /* Memory is touched after the next level is on its way, so page faults (slow on some
         * virtual machines) do not set the pace: the chain keeps its levels per second. */
        if (!holding) { hold_memory(mib); holding = 1; }
        int status;
        waitpid(child, &status, 0);       /* the next level died (exec refused): start it again */
        sleep_ms(RETRY_MS);
    }
}

static void run_fanout(long per_second) {
    char rate[24];
    snprintf(rate, sizeof rate, "%ld", per_second);
    sleep_ms(1000 / per_second);
    for (int started = 0; started < 2;) {
        pid_t child = fork_retrying("fanout", 0);
        if (child == 0) exec_next((char *const[]){ (char *)self_path, "fanout", rate, NULL });
        started++;
    }
    hold_forever();
}

static void run_orphans(long chain, long level, long per_second) {
    char c[24], lvl[24], rate[24];
    snprintf(c, sizeof c, "%ld", chain);
    snprintf(lvl, sizeof lvl, "%ld", level + 1);
    snprintf(rate, sizeof rate, "%ld", per_second);
    sleep_ms(1000 / per_second);
    for (;;) {
        pid_t middle = fork_retrying("orphans", level);
        if (middle == 0) {
            pid_t next = fork();
            if (next < 0) _exit(MIDDLE_FORK_FAILED);
            if (next == 0) exec_next((char *const[]){ (char *)self_path, "orphans", c, lvl, rate, NULL });
            sleep_ms(LINGER_MS);
            _exit(0);
        }
        int status = 0;
        waitpid(middle, &status, 0);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0) break;
        if (!fork_failure_reported) {
            fprintf(stderr, "runaway-drill-worker: orphans level %ld: fork failed in the middle process\n", level);
            fork_failure_reported = 1;
        }
        sleep_ms(RETRY_MS);              /* the middle could not fork: try the double fork again */
    }
    if (level == 0) exit(0);           /* the session leader goes: every level is an orphan */
    hold_forever();
}

static void run_swarm(long retry_ms) {
    for (;;) {
        pid_t child = fork();
        if (child < 0) {
            if (!fork_failure_reported) {
                fprintf(stderr, "runaway-drill-worker: swarm: fork failed: %s\n", strerror(errno));
                fork_failure_reported = 1;
            }
            sleep_ms(retry_ms);
        }
        while (waitpid(-1, NULL, WNOHANG) > 0) {} /* reap killed children, so their pids come back */
    }
}

static const char *pressing_mode = "pressing"; /* the mode each child execs */

static void run_pressing(long period_ms) {
    char period[24];
    snprintf(period, sizeof period, "%ld", period_ms);
    long wait_ms = period_ms;
    /* Spread the first attempt over one period, so the set does not fork in lockstep waves. */
    sleep_ms((long)getpid() % period_ms);
    for (;;) {
        pid_t child = fork();
        if (child == 0) exec_next((char *const[]){ (char *)self_path, (char *)pressing_mode, period, NULL });
        if (child < 0) {
            if (!fork_failure_reported) {
                fprintf(stderr, "runaway-drill-worker: %s: fork failed: %s\n", pressing_mode, strerror(errno));
                fork_failure_reported = 1;
            }
            if (wait_ms < 8 * period_ms) wait_ms *= 2; /* back off while refused */
        } else {
            wait_ms = period_ms;
        }
        while (waitpid(-1, NULL, WNOHANG) > 0) {} /* reap children that died, so their pids come back */
        sleep_ms(wait_ms);
    }
}

static void run_daemonizer(long period_ms) {
    char period[24];
    snprintf(period, sizeof period, "%ld", period_ms);
    long wait_ms = period_ms;
    for (;;) {
        sleep_ms(wait_ms);
        pid_t middle = fork();
        if (middle == 0) {
            setsid();
            pid_t next = fork();
            if (next == 0) exec_next((char *const[]){ (char *)self_path, "daemonizer", period, NULL });
            _exit(next < 0 ? MIDDLE_FORK_FAILED : 0);
        }
        if (middle < 0) {
            if (!fork_failure_reported) {
                fprintf(stderr, "runaway-drill-worker: daemonizer: fork failed: %s\n", strerror(errno));
                fork_failure_reported = 1;
            }
            if (wait_ms < 8 * period_ms) wait_ms *= 2;
        } else {
            wait_ms = period_ms;
            while (waitpid(middle, NULL, 0) < 0 && errno == EINTR) {}
        }
    }
}

static void *zombie_worker(void *period) {
    run_pressing((long)(intptr_t)period);
    return NULL;
}

/* The leader leaves the process to its worker thread: what the process does, the worker does. */
static void run_zombie_leader(long period_ms) {
    static const char *mode = "zombie-leader";
    pressing_mode = mode;
    pthread_t worker;
    if (pthread_create(&worker, NULL, zombie_worker, (void *)(intptr_t)period_ms) != 0) exit(THREAD_FAILED);
    pthread_exit(NULL);
}

/* This process plus its descendants make N; prints "ready" on stdout when all N exist. */
static void spawn_sleepers(long n, int report_fd) {
    while (n > 1) {
        long right = (n - 1) / 2;          /* the child takes this many, we keep the rest */
        if (right == 0) right = 1;
        pid_t child = fork_retrying("sleepers", n);
        if (child == 0) { n = right; continue; }
        n -= right;
    }
    if (report_fd >= 0 && write(report_fd, "x", 1) != 1) _exit(5);
    if (report_fd >= 0) close(report_fd);
    hold_forever();
}

static void run_sleepers(long n) {
    int fds[2];
    if (pipe(fds) != 0) exit(5);
    if (fork_retrying("sleepers", 0) == 0) {
        close(fds[0]);
        spawn_sleepers(n, fds[1]);
    }
    close(fds[1]);
    long seen = 0;
    char buf[4096];
    ssize_t got;
    while (seen < n && (got = read(fds[0], buf, sizeof buf)) > 0) seen += got;
    printf(seen == n ? "ready %ld\n" : "short %ld\n", seen);
    fflush(stdout);
    hold_forever();
}

static void run_orphans_start(long chains, long per_second) {
    char c[24], rate[24];
    snprintf(rate, sizeof rate, "%ld", per_second);
    for (long i = 0; i < chains; i++) {
        snprintf(c, sizeof c, "%ld", i);
        if (fork_retrying("orphans-start", 0) == 0) {
            setsid();
            exec_next((char *const[]){ (char *)self_path, "orphans", c, "0", rate, NULL });
        }
    }
    exit(0);
}

int main(int argc, char **argv) {
    self_path = argv[0];
    const char *mode = argc > 1 ? argv[1] : "";
    if (!strcmp(mode, "linear") && argc == 5)
        run_linear(number(argv[2], 0, 1L << 30), number(argv[3], 0, 1024), number(argv[4], 1, 1000));
    else if (!strcmp(mode, "fanout") && argc == 3)
        run_fanout(number(argv[2], 1, 1000));
    else if (!strcmp(mode, "swarm") && argc == 3)
        run_swarm(number(argv[2], 1, 10000));
    else if (!strcmp(mode, "pressing") && argc == 3)
        run_pressing(number(argv[2], 1, 10000));
    else if (!strcmp(mode, "zombie-leader") && argc == 3)
        run_zombie_leader(number(argv[2], 1, 10000));
    else if (!strcmp(mode, "daemonizer") && argc == 3)
        run_daemonizer(number(argv[2], 1, 10000));
    else if (!strcmp(mode, "sleepers") && argc == 3)
        run_sleepers(number(argv[2], 1, 1L << 22));
    else if (!strcmp(mode, "orphans-start") && argc == 4)
        run_orphans_start(number(argv[2], 1, 64), number(argv[3], 1, 1000));
    else if (!strcmp(mode, "orphans") && argc == 5)
        run_orphans(number(argv[2], 0, 64), number(argv[3], 0, 1L << 30), number(argv[4], 1, 1000));
    fprintf(stderr, "usage: runaway-drill-worker linear LEVEL MIB PER_SECOND | fanout PER_SECOND |\n"
                    "       orphans-start CHAINS PER_SECOND | orphans CHAIN LEVEL PER_SECOND | sleepers N | swarm RETRY_MS |\n"
                    "       pressing PERIOD_MS | daemonizer PERIOD_MS | zombie-leader PERIOD_MS\n");
    return 2;
}
