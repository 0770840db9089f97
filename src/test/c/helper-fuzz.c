// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * helper-fuzz: a libFuzzer harness for runaway-helper's whole request handling.
 *
 * Each input is a short session: up to 32 request lines (newline-separated, any bytes) served
 * exactly as the helper serves stdin (handle(): parser, binding, path walk, cgroup and pid
 * checks, the levers), then the console "goes away" (finish_stop). The helper is built with
 * -DRUNAWAY_HELPER_FUZZ, so "/", /proc and the v2 cgroup root are directories of a fake tree
 * made here, a pidfd is a fake /proc/PID directory and no signal is ever sent: the harness
 * needs no privilege and touches no real process, cgroup or system file.
 *
 * Besides memory errors (ASan) and undefined behaviour (UBSan), it aborts when a session did
 * harm (checked once the session ended: harm stays in the fake files): a signal, move or OOM change to pid 1, a kernel thread, the helper or its console; a
 * write to the root cgroup, init's, a slice or the console's; a mode change to any file but the
 * disposable ones, beyond their execute bits, to a disposable file no process runs, or (for a
 * caller who is not root) to a file another user owns.
 *
 * Built and run by src/test/sh/fuzz-helper:
 *   clang -fsanitize=fuzzer,address,undefined -DRUNAWAY_HELPER_FUZZ ...
 */
#ifndef RUNAWAY_HELPER_FUZZ
#define RUNAWAY_HELPER_FUZZ 1
#endif
#include "../../main/c/runaway-helper.c"

#include <ftw.h>
#include <stdint.h>

#define SESSION_LINES 32

static char tree[PATH_MAX];

static void require(int condition, const char *what) {
    if (!condition) {
        fprintf(stderr, "helper-fuzz: harm done: %s\n", what);
        abort();
    }
}

/* Pids of the fake /proc: never to be signalled, moved or have their OOM score changed. */
enum { PID_INIT = 1, PID_KTHREAD = 2, PID_KWORKER = 250, PID_CONSOLE = 300, PID_SELF = 999 };
/* Pids a stop may take: a target, its child, another user's process, one in cgroup /a/b; one
 * running a build output that holds a cached tool open; a shell holding its script on fd 255;
 * and one running a disposable binary another user owns. */
enum { PID_TARGET = 100, PID_CHILD = 101, PID_OTHER = 400, PID_IN_A = 500, PID_BUILD = 510, PID_SHELL = 700, PID_THEIRS = 800 };

/* The user the helper acts for (uid 1000 when the harness is root, else whoever runs it), and
 * another user owning a disposable binary (only when the harness is root: it must chown). */
static uid_t fuzz_user, fuzz_other = 1001;
static int fuzz_caller_root; /* the harness alternates the caller: root (a root console) or the user */

/* The helper's four system calls (its fuzz seam), against the fake tree. */
static int fuzz_no_openat2; /* the harness alternates both resolutions: openat2 and the component walk */

static long sys_openat2(int dirfd, const char *path, struct open_how *how) {
    if (fuzz_no_openat2) { errno = ENOSYS; return -1; }
    return syscall(SYS_openat2, dirfd, path, how, sizeof *how);
}

static int is_cgroup_fs(const char *dir) {
    struct stat st;
    return stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
}

/* A "pidfd" is the fake /proc/PID directory. */
static int sys_pidfd_open(long long pid) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%lld", H.proc, pid);
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) errno = ESRCH;
    return fd;
}

/* No signal is sent: whom it would reach is checked. */
static int sys_pidfd_signal(int fd, int sig) {
    char link[64], target[PATH_MAX];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, target, sizeof target - 1);
    require(n > 0, "a signal through something that is not a pidfd");
    target[n] = '\0';
    long long pid = atoll(strrchr(target, '/') + 1);
    require(pid != PID_INIT && pid != PID_KTHREAD && pid != PID_KWORKER && pid != PID_CONSOLE && pid != PID_SELF,
            "a signal to init, a kernel thread, the console or the helper");
    require(sig == 9 || sig == 15 || sig == 18 || sig == 19, "a signal the protocol does not allow");
    return 0;
}

static void put(const char *rel, const char *text, mode_t mode) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", tree, rel);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
    if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) { perror(path); abort(); }
    fchmod(fd, mode);
    close(fd);
}

static void dir(const char *rel) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", tree, rel);
    if (mkdir(path, 0755) != 0 && errno != EEXIST) { perror(path); abort(); }
}

static void own(const char *rel, uid_t uid) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", tree, rel);
    if (getuid() == 0 && chown(path, uid, uid) != 0) { perror(path); abort(); }
}

static void link_to(const char *rel, const char *to) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", tree, rel);
    unlink(path);
    if (symlink(to, path) != 0) { perror(path); abort(); }
}

/* A process: stat (ppid, flags, start ticks), status (real uid), cmdline, exe, cgroup, fd/. */
static void process(int pid, int ppid, long long flags, long long ticks, int uid, const char *exe, const char *arg1, const char *cgroup) {
    char rel[128], text[1024];
    snprintf(rel, sizeof rel, "proc/%d", pid); dir(rel);
    snprintf(rel, sizeof rel, "proc/%d/fd", pid); dir(rel);
    snprintf(text, sizeof text, "%d (fake (name)) S %d %d %d 0 -1 %lld 0 0 0 0 1 1 0 0 20 0 1 0 %lld 1000 100 0\n",
             pid, ppid, pid, pid, flags, ticks);
    snprintf(rel, sizeof rel, "proc/%d/stat", pid); put(rel, text, 0644);
    snprintf(text, sizeof text, "Name:\tfake\nUmask:\t0022\nState:\tS\nPid:\t%d\nPPid:\t%d\nUid:\t%d\t%d\t%d\t%d\n", pid, ppid, uid, uid, uid, uid);
    snprintf(rel, sizeof rel, "proc/%d/status", pid); put(rel, text, 0644);
    int n = snprintf(text, sizeof text, "%s%c%s%c", exe, 0, arg1, 0);
    snprintf(rel, sizeof rel, "proc/%d/cmdline", pid);
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", tree, rel);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || write(fd, text, (size_t)n) != n) abort();
    close(fd);
    snprintf(text, sizeof text, "%s/root%s", tree, exe);
    snprintf(rel, sizeof rel, "proc/%d/exe", pid); link_to(rel, text);
    snprintf(text, sizeof text, "12:pids:%s\n0::%s\n", cgroup, cgroup);
    snprintf(rel, sizeof rel, "proc/%d/cgroup", pid); put(rel, text, 0644);
    snprintf(rel, sizeof rel, "proc/%d/oom_score_adj", pid); put(rel, "0\n", 0644);
}

static void cgroup(const char *rel, const char *procs) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "cg%s", rel); dir(path);
    const char *files[] = { "cgroup.freeze", "cgroup.kill", "pids.max" };
    const char *values[] = { "0\n", "0\n", "max\n" };
    for (int i = 0; i < 3; i++) { snprintf(path, sizeof path, "cg%s/%s", rel, files[i]); put(path, values[i], 0644); }
    snprintf(path, sizeof path, "cg%s/cgroup.procs", rel); put(path, procs, 0644);
    snprintf(path, sizeof path, "cg%s/cgroup.events", rel); put(path, "populated 0\nfrozen 0\n", 0644);
}

static mode_t mode_of(const char *rel) {
    char path[PATH_MAX];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", tree, rel);
    return lstat(path, &st) == 0 ? st.st_mode & 07777 : (mode_t)-1;
}

static int content_is(const char *rel, const char *text) {
    char path[PATH_MAX], buf[256];
    snprintf(path, sizeof path, "%s/%s", tree, rel);
    return read_small(path, buf, sizeof buf) >= 0 && !strcmp(buf, text);
}

/* Files that must never change, and their contents or modes. */
static const char *const SACRED_CGROUPS[] = { "cg", "cg/init.scope", "cg/system.slice", "cg/user.slice", "cg/user.slice/console" };
/* Disposable files, the user's: each but the last is run by a process (its exe, or held open). */
static const struct { const char *rel; mode_t mode; } DISPOSABLE[] = {
    { "root/tmp/x/runaway", 0755 }, { "root/home/u/p/target/tool", 0750 }, { "root/home/u/.cache/tool", 0700 },
    { "root/tmp/x/script", 0644 }, { "root/var/tmp/runaway", 0755 },
};
#define IDLE "root/var/tmp/runaway" /* disposable, the user's, and run by no process: never changes */
#define THEIRS "root/tmp/x/theirs"  /* disposable, run by PID_THEIRS, another user's */

static void build_tree(void) {
    snprintf(tree, sizeof tree, "%s/runaway-helper-fuzz.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(tree)) { perror("mkdtemp"); abort(); }
    dir("proc"); dir("cg"); dir("root");
    dir("root/usr"); dir("root/usr/bin"); dir("root/etc"); dir("root/srv"); dir("root/tmp"); dir("root/tmp/x");
    dir("root/var"); dir("root/var/tmp"); dir("root/home"); dir("root/home/u"); dir("root/home/u/p"); dir("root/home/u/p/target");
    dir("root/home/u/.cache");
    put("root/usr/bin/tool", "system\n", 0755);
    put("root/etc/shadow", "secret\n", 0640);
    put("root/srv/tool", "not disposable\n", 0755);
    link_to("root/tmp/x/up", "../../usr/bin");               /* a symlink on the way */
    link_to("root/tmp/x/abs", "/usr/bin/tool");              /* an absolute one */
    link_to("root/tmp/x/proc", "/proc/self/root/usr/bin");   /* a magic link's path */
    put("root/tmp/x/linked", "two names\n", 0755);
    char a[PATH_MAX], b[PATH_MAX];
    snprintf(a, sizeof a, "%s/root/tmp/x/linked", tree);
    snprintf(b, sizeof b, "%s/root/var/tmp/twin", tree);
    unlink(b);
    if (link(a, b) != 0) abort();
    mkfifo(strcat(strcpy(a, tree), "/root/tmp/x/fifo"), 0644);
    cgroup("", "1\n");
    cgroup("/init.scope", "1\n");
    cgroup("/system.slice", "");
    cgroup("/user.slice", "");
    cgroup("/user.slice/console", "300\n999\n");
    cgroup("/a", "100\n101\n700\n800\n");
    cgroup("/a/b", "500\n510\n");
    cgroup("/runaway-quarantine.planted", "");
    process(PID_INIT, 0, 0, 1, 0, "/usr/bin/tool", "", "/init.scope");
    process(PID_KTHREAD, 0, FLAG_KTHREAD, 2, 0, "/usr/bin/tool", "", "/");
    process(PID_KWORKER, 2, FLAG_KTHREAD, 3, 0, "/usr/bin/tool", "", "/");
    process(PID_CONSOLE, 1, 0, 50, (int)fuzz_user, "/usr/bin/tool", "console", "/user.slice/console");
    process(PID_SELF, PID_CONSOLE, 0, 60, 0, "/usr/bin/tool", "", "/user.slice/console");
    process(PID_TARGET, 1, 0, 5000, (int)fuzz_user, "/tmp/x/runaway", "", "/a");
    process(PID_CHILD, PID_TARGET, 0, 5001, (int)fuzz_user, "/tmp/x/runaway", "", "/a");
    process(PID_OTHER, 1, 0, 7000, 0, "/srv/tool", "x", "/system.slice");
    process(PID_IN_A, 1, 0, 8000, (int)fuzz_user, "/usr/bin/tool", "y", "/a/b");
    process(PID_BUILD, 1, 0, 8100, (int)fuzz_user, "/home/u/p/target/tool", "", "/a/b");
    process(PID_SHELL, 1, 0, 8200, (int)fuzz_user, "/usr/bin/tool", "/tmp/x/script", "/a");
    process(PID_THEIRS, 1, 0, 8300, (int)fuzz_other, "/tmp/x/theirs", "", "/a");
    char to[PATH_MAX];
    snprintf(to, sizeof to, "%s/root/home/u/.cache/tool", tree);
    link_to("proc/510/fd/3", to);
    snprintf(to, sizeof to, "%s/root/tmp/x/script", tree);
    link_to("proc/700/fd/255", to);
    link_to("proc/700/fd/0", "/dev/null");
}

/* The helper's state as main would leave it, pointed at the fake tree; and each session fresh. */
static void reset_session(void) {
    for (int i = 0; i < H.nquarantines; i++) { rmdir(H.quarantine_dirs[i]); free(H.quarantine_dirs[i]); }
    for (int i = 0; i < H.nfrozen; i++) free(H.frozen[i]);
    H.nquarantines = H.nfrozen = 0;
    H.nstopped = 0;
    H.nrevoked = 0;
    forget_binding();
    for (size_t i = 0; i < sizeof DISPOSABLE / sizeof DISPOSABLE[0]; i++) {
        put(DISPOSABLE[i].rel, "#!/bin/sh\n", DISPOSABLE[i].mode);
        own(DISPOSABLE[i].rel, fuzz_user);
    }
    put(THEIRS, "#!/bin/sh\n", 0755);
    own(THEIRS, fuzz_other);
    static const int PIDS[] = { PID_INIT, PID_KTHREAD, PID_KWORKER, PID_CONSOLE, PID_SELF, PID_TARGET, PID_CHILD, PID_OTHER, PID_IN_A,
                                PID_BUILD, PID_SHELL, PID_THEIRS };
    char rel[64];
    for (size_t i = 0; i < sizeof PIDS / sizeof PIDS[0]; i++) {
        snprintf(rel, sizeof rel, "proc/%d/oom_score_adj", PIDS[i]);
        put(rel, "0\n", 0644);
    }
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw) {
    (void)st; (void)type; (void)ftw;
    return remove(path) == 0 || errno == ENOENT ? 0 : 0;
}

/* The fake tree goes with the process (harm or not: its files are only stand-ins). */
static void remove_tree(void) {
    if (tree[0]) nftw(tree, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc; (void)argv;
    fuzz_user = getuid() == 0 ? 1000 : getuid();
    build_tree();
    atexit(remove_tree);
    char path[PATH_MAX];
    snprintf(H.proc, sizeof H.proc, "%s/proc", tree);
    snprintf(path, sizeof path, "%s/cg", tree);
    if (!realpath(path, H.v2root)) abort();
    snprintf(path, sizeof path, "%s/root", tree);
    H.slash = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
    H.self = PID_SELF;
    H.caller = fuzz_user;
    snprintf(H.home, sizeof H.home, "/home/u");
    if (H.slash < 0 || record_chain(PID_CONSOLE) != 0) abort();
    refresh_protected();
    reset_session();
    return 0;
}

static void check_no_harm(void) {
    char rel[PATH_MAX];
    for (size_t i = 0; i < sizeof SACRED_CGROUPS / sizeof SACRED_CGROUPS[0]; i++) {
        snprintf(rel, sizeof rel, "%s/cgroup.freeze", SACRED_CGROUPS[i]);
        require(content_is(rel, "0\n"), "a protected cgroup was frozen");
        snprintf(rel, sizeof rel, "%s/cgroup.kill", SACRED_CGROUPS[i]);
        require(content_is(rel, "0\n"), "a protected cgroup was killed");
        snprintf(rel, sizeof rel, "%s/pids.max", SACRED_CGROUPS[i]);
        require(content_is(rel, "max\n"), "a protected cgroup was capped");
    }
    require(content_is("cg/runaway-quarantine.planted/cgroup.procs", ""), "a move into a quarantine the helper did not make");
    require(mode_of("root/usr/bin/tool") == 0755 && mode_of("root/srv/tool") == 0755 && mode_of("root/etc/shadow") == 0640
            && mode_of("root/tmp/x/linked") == 0755, "a mode change outside the disposable files");
    static const int NEVER[] = { PID_INIT, PID_KTHREAD, PID_KWORKER, PID_SELF };
    for (size_t i = 0; i < sizeof NEVER / sizeof NEVER[0]; i++) {
        snprintf(rel, sizeof rel, "proc/%d/oom_score_adj", NEVER[i]);
        require(content_is(rel, "0\n"), "an OOM score changed for init, a kernel thread or the helper");
    }
    /* The disposable files: only execute bits ever change, and only of a file a process runs. */
    for (size_t i = 0; i < sizeof DISPOSABLE / sizeof DISPOSABLE[0]; i++)
        require((mode_of(DISPOSABLE[i].rel) & ~(mode_t)0111) == (DISPOSABLE[i].mode & ~(mode_t)0111), "a change beyond execute bits");
    require(mode_of(IDLE) == 0755, "a mode change to a file no process runs");
    require((mode_of(THEIRS) & ~(mode_t)0111) == (0755 & ~(mode_t)0111), "a change beyond execute bits");
    require(fuzz_caller_root || getuid() != 0 || mode_of(THEIRS) == 0755, "a mode change to another user's file for a user");
    char buf[64];
    snprintf(rel, sizeof rel, "%s/proc/%d/oom_score_adj", tree, PID_CONSOLE);
    require(read_small(rel, buf, sizeof buf) > 0 && atoi(buf) >= CONSOLE_OOM_FLOOR, "the console's OOM score below -800");
    snprintf(rel, sizeof rel, "%s/proc/%d/oom_score_adj", tree, PID_OTHER);
    require(read_small(rel, buf, sizeof buf) > 0 && atoi(buf) >= 0, "a process outside the console lowered");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static char line[LINE_BYTES];
    static struct request req;
    static struct reply r;
    if (size == 0) return 0;
    fuzz_no_openat2 = data[0] & 1; /* both resolutions: openat2 and the component walk */
    fuzz_caller_root = (data[0] & 2) != 0; /* a root console, or the user's console through pkexec */
    H.caller = fuzz_caller_root ? 0 : fuzz_user;
    data++;
    size--;
    reset_session();
    size_t start = 0;
    for (int n = 0; n < SESSION_LINES && start <= size; n++) {
        const uint8_t *nl = memchr(data + start, '\n', size - start);
        size_t end = nl ? (size_t)(nl - data) : size;
        size_t len = end - start;
        long shown = len >= LINE_BYTES ? LINE_TOO_LONG : (long)len;
        if (shown != LINE_TOO_LONG) memcpy(line, data + start, len);
        const char *reply = handle(line, shown, &req, &r);
        require(reply && (!strncmp(reply, "OK", 2) || !strncmp(reply, "ERR ", 4)), "a reply that is neither OK nor ERR");
        require(strchr(reply, '\n') == NULL, "a reply of more than one line");
        if (!nl) break;
        start = end + 1;
    }
    finish_stop();
    check_no_harm();
    return 0;
}
