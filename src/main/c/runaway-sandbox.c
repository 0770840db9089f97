// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * runaway-sandbox: the two pieces of the sandbox that Java cannot do itself.
 *
 *   runaway-sandbox enter [--cgroup DIR]... [--setsid] [--nproc N] -- CMD [ARG]...
 *       Moves this process into every DIR (writes its pid to DIR/cgroup.procs), optionally
 *       starts a new session and sets RLIMIT_NPROC, then execs CMD. The workload is inside
 *       its cgroups before it can fork anything: there is no window where a child escapes.
 *
 *   runaway-sandbox watch --deadline EPOCH_SECONDS [--owner PID:START_TICKS]
 *                         (--cgroup DIR... | --session SID)
 *       Detaches (double fork, new session), prints its pid on stdout and closes it, then
 *       waits. When the owner process (identified by pid and start time, so a reused pid is
 *       not mistaken for it) dies, or when the deadline passes, it tears the cgroups down in
 *       the stop order: stop growth (freeze, pids.max 0), kill every member, confirm zero,
 *       remove. It exits early when the cgroups are gone (the owner tore them down itself).
 *       Without cgroups (an unprivileged fallback) it does the same to session SID: SIGSTOP
 *       every member until a sweep finds no new one, then SIGKILL them all.
 *       This is what outlives a JVM killed with SIGKILL.
 *
 *   runaway-sandbox reap -- CMD [ARG]...
 *       Becomes a child subreaper, starts CMD in a process group of its own and reaps every
 *       process that is orphaned below it, so nothing the command leaves behind escapes to
 *       init. Exits with the command's status (128 + signal when it was killed) once it ends.
 *
 *   runaway-sandbox teardown --cgroup DIR...
 *       The same stop-order teardown, now, in the foreground (for shell scripts such as the
 *       test suite's runner). Exits 0 once zero is confirmed and the cgroups are removed.
 *
 * Exit codes are named below. Shares nothing with the Java side but these arguments.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum {
    EXIT_USAGE = 120,      /* bad arguments */
    EXIT_CGROUP = 121,     /* could not move into a cgroup */
    EXIT_LIMIT = 122,      /* could not start a session or set the rlimit */
    EXIT_TEARDOWN = 123,   /* watch: members survived the teardown */
    EXIT_OWNER_GONE = 124, /* watch: the owner was gone at start; the cgroups were torn down */
    EXIT_EXEC = 127        /* exec failed */
};

#define MAX_CGROUPS 8
#define CONFIRM_TIMEOUT_MS 10000

static void die(int code, const char *what, const char *arg) {
    fprintf(stderr, "runaway-sandbox: %s%s%s: %s\n", what, arg ? " " : "", arg ? arg : "",
            errno ? strerror(errno) : "invalid");
    exit(code);
}

/* Parses a whole decimal number in [min, max]; anything else is a usage error. */
static long long parse_number(const char *s, long long min, long long max) {
    char *end = NULL;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end != '\0' || v < min || v > max) {
        errno = 0;
        die(EXIT_USAGE, "not a number in range:", s);
    }
    return v;
}

static int write_file(const char *dir, const char *name, const char *value) {
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path) return -1;
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = write(fd, value, strlen(value));
    int saved = errno;
    close(fd);
    errno = saved;
    return n == (ssize_t)strlen(value) ? 0 : -1;
}

static int file_exists(const char *dir, const char *name) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return access(path, F_OK) == 0;
}

static int cmd_enter(int argc, char **argv) {
    const char *cgroups[MAX_CGROUPS];
    int ncg = 0, new_session = 0, i;
    long long nproc = -1;
    for (i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--cgroup") && i + 1 < argc && ncg < MAX_CGROUPS) cgroups[ncg++] = argv[++i];
        else if (!strcmp(argv[i], "--setsid")) new_session = 1;
        else if (!strcmp(argv[i], "--nproc") && i + 1 < argc) nproc = parse_number(argv[++i], 1, 1LL << 22);
        else if (!strcmp(argv[i], "--")) { i++; break; }
        else { errno = 0; die(EXIT_USAGE, "unknown argument", argv[i]); }
    }
    if (i >= argc) { errno = 0; die(EXIT_USAGE, "no command after --", NULL); }
    for (int c = 0; c < ncg; c++)
        if (write_file(cgroups[c], "cgroup.procs", "0") != 0) die(EXIT_CGROUP, "cannot join cgroup", cgroups[c]);
    if (new_session && setsid() < 0) die(EXIT_LIMIT, "setsid", NULL);
    if (nproc > 0) {
        struct rlimit rl = { (rlim_t)nproc, (rlim_t)nproc };
        if (setrlimit(RLIMIT_NPROC, &rl) != 0) die(EXIT_LIMIT, "setrlimit NPROC", NULL);
    }
    execvp(argv[i], &argv[i]);
    die(EXIT_EXEC, "cannot run", argv[i]);
    return EXIT_EXEC;
}

/* Field 22 of /proc/PID/stat (start time in clock ticks), read after the last ')'. */
static long long start_ticks(pid_t pid) {
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return -1;
    buf[n] = '\0';
    char *p = strrchr(buf, ')');
    if (!p) return -1;
    p += 2; /* now at field 3 (state) */
    for (int field = 3; field < 22 && p; field++) {
        p = strchr(p, ' ');
        if (p) p++;
    }
    return p ? strtoll(p, NULL, 10) : -1;
}

/* Visits every member of DIR and of its sub-cgroups. With SIG, sends it and returns how many
 * it reached; with 0, returns how many members there are. */
static int walk_members(const char *dir, int sig) {
    int reached = 0;
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/cgroup.procs", dir);
    FILE *f = fopen(path, "re");
    if (f) {
        long pid;
        while (fscanf(f, "%ld", &pid) == 1)
            if (sig == 0 || (pid > 1 && kill((pid_t)pid, sig) == 0)) reached++;
        fclose(f);
    }
    DIR *d = opendir(dir);
    if (!d) return reached;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_type != DT_DIR || e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        reached += walk_members(path, sig);
    }
    closedir(d);
    return reached;
}

static void remove_tree(const char *dir) {
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        char path[PATH_MAX];
        while ((e = readdir(d)) != NULL) {
            if (e->d_type != DT_DIR || e->d_name[0] == '.') continue;
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            remove_tree(path);
        }
        closedir(d);
    }
    rmdir(dir);
}

static void sleep_ms(long ms) {
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

/* The stop order: stop growth everywhere first, then kill, then confirm zero, then remove. */
static int teardown(const char **dirs, int n) {
    for (int i = 0; i < n; i++) {
        if (file_exists(dirs[i], "cgroup.freeze")) write_file(dirs[i], "cgroup.freeze", "1");
        if (file_exists(dirs[i], "pids.max")) write_file(dirs[i], "pids.max", "0");
    }
    int remaining = 0;
    for (int waited = 0; waited <= CONFIRM_TIMEOUT_MS; waited += 50) {
        remaining = 0;
        for (int i = 0; i < n; i++) {
            if (access(dirs[i], F_OK) != 0) continue;
            if (!file_exists(dirs[i], "cgroup.kill") || write_file(dirs[i], "cgroup.kill", "1") != 0)
                walk_members(dirs[i], SIGKILL);
            remaining += walk_members(dirs[i], 0);
        }
        if (remaining == 0) break;
        sleep_ms(50);
    }
    for (int i = 0; i < n; i++) remove_tree(dirs[i]);
    return remaining;
}

/* Session id (field 6 of /proc/PID/stat), or -1 when gone or a zombie (dead already). */
static long session_of(const char *pid) {
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%s/stat", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return -1;
    buf[n] = '\0';
    char *p = strrchr(buf, ')');
    long ppid, pgrp, sid;
    char state;
    if (!p || sscanf(p + 2, "%c %ld %ld %ld", &state, &ppid, &pgrp, &sid) != 4 || state == 'Z') return -1;
    return sid;
}

/* Sends SIG to every process of session SID but ourselves; returns how many it reached. */
static int signal_session(long sid, int sig) {
    int reached = 0;
    DIR *d = opendir("/proc");
    if (!d) return 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9') continue;
        long pid = strtol(e->d_name, NULL, 10);
        if (pid == getpid() || session_of(e->d_name) != sid) continue;
        if (kill((pid_t)pid, sig) == 0) reached++;
    }
    closedir(d);
    return reached;
}

static int teardown_session(long sid) {
    int before, after = signal_session(sid, SIGSTOP);
    do { before = after; sleep_ms(20); after = signal_session(sid, SIGSTOP); } while (after != before);
    int remaining = 0;
    for (int waited = 0; waited <= CONFIRM_TIMEOUT_MS; waited += 50) {
        remaining = signal_session(sid, SIGKILL);
        if (remaining == 0) break;
        sleep_ms(50);
    }
    return remaining;
}

static int session_exists(long sid) {
    return signal_session(sid, 0) > 0;
}

static int any_exists(const char **dirs, int n) {
    for (int i = 0; i < n; i++)
        if (access(dirs[i], F_OK) == 0) return 1;
    return 0;
}

static int cmd_watch(int argc, char **argv) {
    const char *dirs[MAX_CGROUPS];
    int n = 0;
    long long deadline = -1, owner_start = -1, session = -1;
    pid_t owner = 0;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--cgroup") && i + 1 < argc && n < MAX_CGROUPS) dirs[n++] = argv[++i];
        else if (!strcmp(argv[i], "--session") && i + 1 < argc) session = parse_number(argv[++i], 2, INT_MAX);
        else if (!strcmp(argv[i], "--deadline") && i + 1 < argc) deadline = parse_number(argv[++i], 1, LLONG_MAX);
        else if (!strcmp(argv[i], "--owner") && i + 1 < argc) {
            char *colon = strchr(argv[++i], ':');
            if (!colon) { errno = 0; die(EXIT_USAGE, "--owner takes PID:START_TICKS", argv[i]); }
            *colon = '\0';
            owner = (pid_t)parse_number(argv[i], 2, INT_MAX);
            owner_start = parse_number(colon + 1, 0, LLONG_MAX);
        } else { errno = 0; die(EXIT_USAGE, "unknown argument", argv[i]); }
    }
    if ((n == 0) == (session < 0) || deadline < 0) {
        errno = 0;
        die(EXIT_USAGE, "watch needs --deadline and either --cgroup or --session", NULL);
    }

    int owner_fd = -1;
    if (owner > 0) {
        owner_fd = (int)syscall(SYS_pidfd_open, owner, 0);
        /* Opened first, then checked: if the start time matches now, the pidfd is the owner. */
        if (owner_fd < 0 || start_ticks(owner) != owner_start) {
            fprintf(stderr, "runaway-sandbox: owner %d:%lld is gone (start %lld); tearing down\n",
                    (int)owner, owner_start, start_ticks(owner));
            if (session > 0) teardown_session(session); else teardown(dirs, n);
            return EXIT_OWNER_GONE;
        }
    }

    /* The watcher's pid travels back through a pipe, and this process prints it only then:
     * a caller such as Java's Process stops reading our stdout as soon as we exit, so we must
     * not exit before the line is written. */
    int ready[2];
    if (pipe2(ready, O_CLOEXEC) != 0) die(EXIT_LIMIT, "pipe", NULL);
    pid_t child = fork();
    if (child < 0) die(EXIT_LIMIT, "fork", NULL);
    if (child > 0) {
        close(ready[1]);
        int watcher = 0;
        ssize_t got = read(ready[0], &watcher, sizeof watcher);
        waitpid(child, NULL, 0);
        if (got != (ssize_t)sizeof watcher) { errno = 0; die(EXIT_LIMIT, "the watcher did not start", NULL); }
        printf("%d\n", watcher);
        return 0;
    }
    close(ready[0]);
    setsid();
    child = fork();
    if (child < 0) _exit(EXIT_LIMIT);
    if (child > 0) _exit(0);
    int self = (int)getpid();
    if (write(ready[1], &self, sizeof self) != (ssize_t)sizeof self) _exit(EXIT_LIMIT);
    close(ready[1]);
    int devnull = open("/dev/null", O_RDWR);
    if (devnull >= 0) { dup2(devnull, 0); dup2(devnull, 1); dup2(devnull, 2); close(devnull); }
    signal(SIGHUP, SIG_IGN);
    signal(SIGINT, SIG_IGN);

    for (;;) {
        if (session > 0 ? !session_exists(session) : !any_exists(dirs, n)) return 0;
        if ((long long)time(NULL) >= deadline) break;
        if (owner_fd >= 0) {
            struct pollfd p = { owner_fd, POLLIN, 0 };
            if (poll(&p, 1, 1000) > 0) break; /* readable pidfd: the owner exited */
        } else {
            sleep_ms(1000);
        }
    }
    int left = session > 0 ? teardown_session(session) : teardown(dirs, n);
    return left == 0 ? 0 : EXIT_TEARDOWN;
}

static int cmd_reap(int argc, char **argv) {
    if (argc < 4 || strcmp(argv[2], "--") != 0) { errno = 0; die(EXIT_USAGE, "reap -- CMD [ARG]...", NULL); }
    if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) die(EXIT_LIMIT, "prctl PR_SET_CHILD_SUBREAPER", NULL);
    pid_t command = fork();
    if (command < 0) die(EXIT_LIMIT, "fork", NULL);
    if (command == 0) {
        setpgid(0, 0);
        execvp(argv[3], &argv[3]);
        die(EXIT_EXEC, "cannot run", argv[3]);
    }
    signal(SIGINT, SIG_IGN);  /* the runner decides what an interrupt means */
    signal(SIGTERM, SIG_IGN);
    for (;;) {
        int status;
        pid_t done = waitpid(-1, &status, 0);
        if (done < 0 && errno == EINTR) continue;
        if (done < 0) return 0;
        if (done == command) return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
}

static int cmd_teardown(int argc, char **argv) {
    const char *dirs[MAX_CGROUPS];
    int n = 0;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--cgroup") && i + 1 < argc && n < MAX_CGROUPS) dirs[n++] = argv[++i];
        else { errno = 0; die(EXIT_USAGE, "unknown argument", argv[i]); }
    }
    if (n == 0) { errno = 0; die(EXIT_USAGE, "teardown needs --cgroup", NULL); }
    int left = teardown(dirs, n);
    if (left) fprintf(stderr, "runaway-sandbox: %d processes survived the teardown\n", left);
    return left == 0 && !any_exists(dirs, n) ? 0 : EXIT_TEARDOWN;
}

int main(int argc, char **argv) {
    if (argc >= 2 && !strcmp(argv[1], "enter")) return cmd_enter(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "teardown")) return cmd_teardown(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "reap")) return cmd_reap(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "watch")) return cmd_watch(argc, argv);
    fprintf(stderr, "usage: runaway-sandbox enter [--cgroup DIR]... [--setsid] [--nproc N] -- CMD [ARG]...\n"
                    "       runaway-sandbox watch --deadline EPOCH_SECONDS [--owner PID:START_TICKS]\n"
                    "                             (--cgroup DIR... | --session SID)\n"
                    "       runaway-sandbox teardown --cgroup DIR...\n"
                    "       runaway-sandbox reap -- CMD [ARG]...\n");
    return EXIT_USAGE;
}
