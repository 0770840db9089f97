// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * runaway-rt: runs PROGRAM as a round-robin real-time task (SCHED_RR, priority 1), same pid.
 *
 *   runaway-rt PROGRAM [ARG]...
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
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 2 || argv[1][0] != '/') {
        fprintf(stderr, "usage: runaway-rt /ABSOLUTE/PROGRAM [ARG]...\n");
        return 2;
    }
    struct sched_param param = { .sched_priority = 1 };
    if (sched_setscheduler(0, SCHED_RR, &param) == 0) {
        struct timespec now;
        char at[32];
        clock_gettime(CLOCK_REALTIME, &now);
        snprintf(at, sizeof at, "%lld.%06ld", (long long)now.tv_sec, now.tv_nsec / 1000);
        setenv("RUNAWAY_REALTIME_AT", at, 1);
        unsetenv("RUNAWAY_REALTIME_REFUSED");
    } else {
        setenv("RUNAWAY_REALTIME_REFUSED", strerror(errno), 1);
        unsetenv("RUNAWAY_REALTIME_AT");
    }
    execv(argv[1], argv + 1);
    fprintf(stderr, "runaway-rt: cannot run %s: %s\n", argv[1], strerror(errno));
    return 127;
}
