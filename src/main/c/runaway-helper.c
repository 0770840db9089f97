// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * runaway-helper: the few levers of the guided stop that need root, behind a line protocol.
 *
 *   runaway-helper [--prepare]           (through pkexec, ahead of need)
 *   runaway-helper --stop DESCRIPTION    (through pkexec, for a stop the user just confirmed)
 *   runaway-helper --config FILE         (only when root starts it directly: the test suite)
 *
 * Under pkexec no argument configures the helper (its config is the fixed root-owned file):
 * --prepare and --stop only choose the polkit prompt (check_arguments); DESCRIPTION is checked
 * (invalid_description), logged, and never used for a decision.
 *
 * Reads one request per line on stdin and answers one line per request on stdout, exactly as
 * docs/helper-protocol.md specifies. It runs as root for a user who passed polkit, so it trusts
 * nothing in a request. When the console goes away mid-stop, it finishes the stop (kills what
 * it froze or stopped, removes its quarantines) and exits: nothing stays frozen without an owner.
 *
 * The rule: refuse by default. A line is parsed whole (parse_request) before anything is done.
 * Every lever is refused until the console binds it to the stop the user confirmed (BIND,
 * TARGET..., CONFIRM; require_confirmed), and then acts only on that stop's processes, cgroups
 * and files, through descriptors checked right before the action (a pidfd; /proc/PID opened
 * for that process; openat2 then fchmod), never through a path or pid checked earlier. A check
 * that cannot decide refuses. Every refusal is one line: ERR usage|refused|gone|failed WHY.
 *
 * The confirmed set (in_set) is, for a process held by a pidfd whose start time matches: a
 * named target; a process in the bound cgroup or below, or in a quarantine of ours; a
 * descendant of a named target; a process of the same kind as one (executable, owner, argv[1]).
 * A user who passed the prompt may name any process that is not protected (TARGET): what binds
 * is that no lever drifts beyond what was named and confirmed.
 *
 * Each request, its handler, and what binds it to the confirmed stop:
 *   HELLO                    execute          nothing to bind: the protocol version
 *   BIND CGROUP|-            do_bind          opens a binding, only on the console's own pipe
 *                                             (console_guarded: not dumpable) and never to the
 *                                             v2 root, a slice, a quarantine or a cgroup holding
 *                                             init, us or the console (resolve_cgroup, is_slice)
 *   TARGET PID TICKS         do_target        names a member: open_verified (pid > 1, not the
 *                                             helper, not on its parent chain, no kernel thread,
 *                                             the start time); its kind (process_kind) is read
 *                                             between two start-time checks (still_same)
 *   CONFIRM, UNBIND          do_confirm,      close the binding; forget it (and what finish_stop
 *                            do_unbind        would have finished)
 *   SIGNAL PID TICKS SIG     do_signal        a member: open_member = open_verified + in_set +
 *                                             still_same, then that pidfd; allowed_signal
 *   OOMADJ PID TICKS VALUE   do_oomadj        the console itself (callers_console: the parent
 *                                             chain's pid and recorded start time, the caller's
 *                                             uid; floor -800), else a member (open_member),
 *                                             raised only; written beneath open_proc_dir
 *   FREEZE|THAW|KILLCG CG    do_cgroup_write  the bound cgroup or below, or a quarantine of ours:
 *   PIDSMAX CG LIMIT         do_pidsmax         resolve_bound_cgroup = resolve_cgroup (canonical,
 *                                             below the v2 root, cgroupfs, check_unprotected) +
 *                                             in_bound_cgroup; PIDSMAX's v1 file checked again
 *   MEMBERS CG               do_members       none needed: read-only, what cgroupfs shows anyone
 *   QUARANTINE NAME          do_quarantine    some confirmed stop (require_confirmed) only: it
 *                                             makes an empty frozen cgroup, root's alone, that
 *                                             holds nothing until MOVE; at most MAX_KEPT
 *   RELEASE CG               do_release       none needed: it undoes, and only a quarantine this
 *                                             helper made (own_quarantine, by inode), once empty
 *   MOVE CG PID TICKS        do_move          a member (open_member) into a quarantine of ours
 *   REVOKE PATH              do_revoke        a file a named target runs now (run_by_stop:
 *                                             target_runs compares the opened file's device and
 *                                             inode with its exe, or a script it holds open,
 *                                             beneath open_proc_dir); the caller's own file
 *                                             unless the caller is root; open_disposable:
 *                                             canonical, no system path, disposable_root,
 *                                             open_beneath (no symlink, no mount crossing), a
 *                                             regular file, not setuid, one link
 *   RESTORE PATH MODE        do_restore       none needed: it undoes, and only the bits REVOKE
 *                                             took from that inode (find_revoked); the caller's
 *                                             own file (open_disposable)
 *   (stdin closed)           finish_stop      only what this helper froze, stopped (a fresh
 *                                             pidfd, the start time) or made
 *
 * What stays by pid or path, not by descriptor: MOVE writes a pid to cgroup.procs after
 * still_same (cgroup.procs takes nothing else), and the cgroup levers write by the path they
 * resolved (a cgroup is renamed only by root, or by a user in a subtree delegated to them,
 * whose cgroups that user may freeze and kill without us).
 *
 * The console gone (stdin closed): finish_stop. Start-up (main): take_environment (the caller,
 * PKEXEC_UID), check_arguments, record_chain, load_config (root's file only), drop_capabilities.
 *
 * Sections, in reading order: system calls and the fuzz seam; requests; state; replies; small
 * file helpers; processes; protected cgroups; remembered actions; the confirmed stop; verbs on
 * cgroups, on processes, on files; serving; start-up.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/capability.h>
#include <linux/magic.h>
#include <linux/openat2.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

enum {
    EXIT_STDIN_CLOSED = 0,
    EXIT_USAGE = 2,      /* bad command line, bad --config file, bad PKEXEC_UID */
    EXIT_NOT_ROOT = 3,
    EXIT_TOO_MANY = 4,   /* served MAX_REQUESTS */
    EXIT_CHAIN = 5,      /* cannot read its own parent chain */
    EXIT_CAPS = 6        /* cannot drop its capabilities */
};

#define LINE_BYTES 4096          /* a request line, newline included */
#define MAX_REQUESTS 1000000L
#define MAX_WORDS 4              /* the verb and at most three arguments */
#define MAX_CHAIN 1024           /* parent-chain and lineage walks */
#define MAX_PROTECTED 4096
#define MAX_ROOTS 64
#define MAX_DEPTH 256            /* cgroup nesting MEMBERS follows; each level holds a descriptor */
#define MAX_TARGETS 1000000      /* pids one stop may name */
#define MAX_KEPT 4096            /* quarantines, frozen cgroups, revoked files, executables */
#define MAX_FDS 4096             /* open files of one target looked at for the script REVOKE names */
#define NAME_MAX_CHARS 64
#define STOP_TEXT_CHARS 160      /* --stop DESCRIPTION: shown in the polkit prompt, never used */
#define LOG_REPLY_CHARS 1024     /* a MEMBERS reply can be long; the request is always logged whole */
#define FLAG_KTHREAD 0x00200000LL /* PF_KTHREAD in stat field 9 */
#define PIDS_LIMIT 4194304LL     /* PID_MAX_LIMIT: the kernel refuses a higher pids.max */
#define CONSOLE_OOM_FLOOR (-800) /* the console's own shield (OomShield.SCORE_ADJ); never -1000 */
#define DEFAULT_CONFIG "/etc/runaway/disposable-roots"
#define QUARANTINE_PREFIX "runaway-quarantine."
#define RESOLVE_FILE (RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV)

/* ---- System calls, and the fuzz seam ----
 * src/test/c/helper-fuzz.c includes this file with RUNAWAY_HELPER_FUZZ defined: main is left
 * out, and the harness defines these four calls against its fake tree of regular files (a
 * pidfd is a fake /proc/PID directory, no signal is sent). Nothing else differs. */

#ifdef RUNAWAY_HELPER_FUZZ
#define WRITE_FLAGS O_TRUNC      /* a fake proc or cgroup file: a shorter write must not leave old bytes */
static int sys_pidfd_open(long long pid);
static int sys_pidfd_signal(int fd, int sig);
static int is_cgroup_fs(const char *dir);
static long sys_openat2(int dirfd, const char *path, struct open_how *how);
#else
#define WRITE_FLAGS 0
static int sys_pidfd_open(long long pid) { return (int)syscall(SYS_pidfd_open, (pid_t)pid, 0); }
static int sys_pidfd_signal(int fd, int sig) { return (int)syscall(SYS_pidfd_send_signal, fd, sig, NULL, 0); }
static int is_cgroup_fs(const char *dir) {
    struct statfs fs;
    struct stat st;
    return statfs(dir, &fs) == 0 && fs.f_type == CGROUP2_SUPER_MAGIC && stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
}
static long sys_openat2(int dirfd, const char *path, struct open_how *how) {
    return syscall(SYS_openat2, dirfd, path, how, sizeof *how);
}
#endif

/* ---- Requests: parsing is a pure function of the line, so it can be fuzzed on its own ---- */

enum verb {
    VERB_HELLO, VERB_BIND, VERB_TARGET, VERB_CONFIRM, VERB_UNBIND,
    VERB_SIGNAL, VERB_FREEZE, VERB_THAW, VERB_PIDSMAX, VERB_KILLCG, VERB_MEMBERS,
    VERB_QUARANTINE, VERB_RELEASE, VERB_MOVE, VERB_REVOKE, VERB_RESTORE, VERB_OOMADJ
};

enum arg_kind { ARG_NONE, ARG_TEXT, ARG_NAME, ARG_PID, ARG_TICKS, ARG_SIGNAL, ARG_LIMIT, ARG_MODE, ARG_OOM };

struct verb_spec {
    const char *name;
    enum verb verb;
    enum arg_kind args[MAX_WORDS - 1];
};

static const struct verb_spec VERBS[] = {
    { "HELLO", VERB_HELLO, { ARG_NONE } },
    { "BIND", VERB_BIND, { ARG_TEXT } },
    { "TARGET", VERB_TARGET, { ARG_PID, ARG_TICKS } },
    { "CONFIRM", VERB_CONFIRM, { ARG_NONE } },
    { "UNBIND", VERB_UNBIND, { ARG_NONE } },
    { "SIGNAL", VERB_SIGNAL, { ARG_PID, ARG_TICKS, ARG_SIGNAL } },
    { "FREEZE", VERB_FREEZE, { ARG_TEXT } },
    { "THAW", VERB_THAW, { ARG_TEXT } },
    { "PIDSMAX", VERB_PIDSMAX, { ARG_TEXT, ARG_LIMIT } },
    { "KILLCG", VERB_KILLCG, { ARG_TEXT } },
    { "MEMBERS", VERB_MEMBERS, { ARG_TEXT } },
    { "QUARANTINE", VERB_QUARANTINE, { ARG_NAME } },
    { "RELEASE", VERB_RELEASE, { ARG_TEXT } },
    { "MOVE", VERB_MOVE, { ARG_TEXT, ARG_PID, ARG_TICKS } },
    { "REVOKE", VERB_REVOKE, { ARG_TEXT } },
    { "RESTORE", VERB_RESTORE, { ARG_TEXT, ARG_MODE } },
    { "OOMADJ", VERB_OOMADJ, { ARG_PID, ARG_TICKS, ARG_OOM } },
};

struct request {
    enum verb verb;
    char text[LINE_BYTES];  /* the cgroup, path or quarantine name; each verb has at most one */
    long long pid;          /* any int: pid 0, 1 and negatives are refused later, not malformed */
    long long ticks;
    long long value;        /* signal, pids.max (-1 for max), mode, or oom_score_adj */
};

/* A whole number in [min, max] in BASE, written the one way: no sign but a leading '-', no
 * leading zero ("0" itself excepted), no "-0", nothing after it. */
static int parse_number(const char *s, int base, long long min, long long max, long long *out) {
    const char *digits = s[0] == '-' ? s + 1 : s;
    if (*digits < '0' || *digits > '9') return -1;
    if (digits[0] == '0' && (digits[1] != '\0' || digits != s)) return -1;
    char *end = NULL;
    errno = 0;
    long long v = strtoll(s, &end, base);
    if (errno || end == s || *end != '\0' || v < min || v > max) return -1;
    *out = v;
    return 0;
}

static int valid_name(const char *s) {
    size_t n = strlen(s);
    if (n < 1 || n > NAME_MAX_CHARS) return 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        int ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
        if (!ok) return 0;
    }
    return 1;
}

/* Only the signals the guided stop uses: a typo must not become SIGHUP or SIGSEGV. */
static int allowed_signal(long long sig) {
    return sig == 9 || sig == 15 || sig == 18 || sig == 19;
}

static int parse_arg(enum arg_kind kind, const char *word, struct request *req, const char **why) {
    switch (kind) {
    case ARG_TEXT:
        memcpy(req->text, word, strlen(word) + 1); /* shorter than the line it came from */
        return 0;
    case ARG_NAME:
        if (!valid_name(word)) { *why = "name must be 1-64 of A-Z a-z 0-9 _ -"; return -1; }
        memcpy(req->text, word, strlen(word) + 1);
        return 0;
    case ARG_PID:
        if (parse_number(word, 10, INT_MIN, INT_MAX, &req->pid)) { *why = "pid is not a whole number"; return -1; }
        return 0;
    case ARG_TICKS:
        if (parse_number(word, 10, 0, LLONG_MAX, &req->ticks)) { *why = "start ticks is not a whole number >= 0"; return -1; }
        return 0;
    case ARG_SIGNAL:
        if (parse_number(word, 10, 1, 64, &req->value) || !allowed_signal(req->value)) {
            *why = "signal must be 9, 15, 18 or 19";
            return -1;
        }
        return 0;
    case ARG_LIMIT:
        if (!strcmp(word, "max")) { req->value = -1; return 0; }
        if (parse_number(word, 10, 0, PIDS_LIMIT, &req->value)) { *why = "limit must be 0-4194304 or max"; return -1; }
        return 0;
    case ARG_MODE:
        if (parse_number(word, 8, 0, 07777, &req->value)) { *why = "mode must be octal 0-7777, no leading zero"; return -1; }
        return 0;
    case ARG_OOM:
        if (parse_number(word, 10, -1000, 1000, &req->value)) { *why = "value must be -1000..1000"; return -1; }
        return 0;
    case ARG_NONE:
        break;
    }
    *why = "internal: no such argument";
    return -1;
}

/* Splits at single spaces. Returns the word count, -1 for more than MAX, -2 for an empty word. */
static int split_words(char *buf, char *words[], int max) {
    int n = 0;
    char *p = buf;
    for (;;) {
        if (n == max) return -1;
        words[n++] = p;
        char *space = strchr(p, ' ');
        if (!space) break;
        *space = '\0';
        p = space + 1;
    }
    for (int i = 0; i < n; i++)
        if (words[i][0] == '\0') return -2;
    return n;
}

static const struct verb_spec *find_verb(const char *name) {
    for (size_t i = 0; i < sizeof VERBS / sizeof VERBS[0]; i++)
        if (!strcmp(VERBS[i].name, name)) return &VERBS[i];
    return NULL;
}

static int arg_count(const struct verb_spec *spec) {
    int n = 0;
    while (n < MAX_WORDS - 1 && spec->args[n] != ARG_NONE) n++;
    return n;
}

/*
 * Parses LEN bytes of LINE (no newline; may hold any byte) into REQ. Returns 0, or -1 with
 * *WHY set to the text of an `ERR usage` reply. No side effects beyond REQ and *WHY.
 */
static int parse_request(const char *line, size_t len, struct request *req, const char **why) {
    char buf[LINE_BYTES];
    char *words[MAX_WORDS];
    if (len >= LINE_BYTES) { *why = "line too long"; return -1; }
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)line[i];
        if (c < 0x20 || c > 0x7e) { *why = "not printable ASCII"; return -1; }
    }
    memcpy(buf, line, len);
    buf[len] = '\0';
    int n = split_words(buf, words, MAX_WORDS);
    if (n == -2) { *why = "words must be separated by single spaces"; return -1; }
    const struct verb_spec *spec = find_verb(words[0]);
    if (!spec) { *why = "unknown verb"; return -1; }
    if (n != 1 + arg_count(spec)) { *why = "wrong word count"; return -1; }
    req->verb = spec->verb;
    req->text[0] = '\0';
    req->pid = req->ticks = req->value = 0;
    for (int i = 1; i < n; i++)
        if (parse_arg(spec->args[i - 1], words[i], req, why)) return -1;
    return 0;
}

/* ---- State ---- */

struct ident { dev_t dev; ino_t ino; };
struct target { long long pid, ticks; };
struct revoked { struct ident id; mode_t taken; };
struct kind { struct ident exe; uid_t uid; char arg1[256]; };

enum binding { UNBOUND, COLLECTING, CONFIRMED };

static struct {
    uid_t caller;
    pid_t self;
    int slash;                      /* directory fd every file path is resolved from ("/") */
    char proc[256];                 /* "/proc" */
    char v2root[PATH_MAX];          /* resolved; empty when there is no v2 tree */
    char v1pids[PATH_MAX];          /* resolved; empty when there is no v1 pids hierarchy */
    pid_t chain[MAX_CHAIN];         /* parent, grandparent, ... up to 1 */
    long long chain_ticks[MAX_CHAIN];
    int nchain;
    char *protected[MAX_PROTECTED]; /* cgroup dirs (v2 and v1 pids) holding init, us or the chain */
    int nprotected;
    int protected_full;             /* one could not be recorded: refuse every cgroup request */
    char *roots[MAX_ROOTS];         /* disposable roots from the config file */
    int nroots;
    char home[PATH_MAX];            /* the caller's home, resolved; empty when unusable */
    int log;                        /* non-blocking datagram socket to syslog, or -1 */
    long log_dropped;
    /* The confirmed stop. */
    enum binding binding;
    char bound_cg[PATH_MAX];        /* resolved v2 dir of the stop's cgroup, or empty */
    struct target *targets;         /* sorted at CONFIRM */
    size_t ntargets, cap_targets;
    struct kind kinds[MAX_KEPT];    /* what the named targets are (executable, owner, script) */
    int nkinds;
    /* What this helper did, so that it can finish or undo it. */
    struct ident quarantines[MAX_KEPT];
    char *quarantine_dirs[MAX_KEPT];
    int nquarantines;
    char *frozen[MAX_KEPT];         /* cgroups it froze and did not thaw */
    int nfrozen;
    struct target *stopped;         /* processes it sent SIGSTOP and no SIGCONT or SIGKILL */
    size_t nstopped, cap_stopped;
    struct revoked revoked[MAX_KEPT];
    int nrevoked;
} H = { .slash = -1, .log = -1, .proc = "/proc" };

/* ---- Replies ---- */

struct reply {
    char *text;
    size_t len, cap;
    int oom;
};

static void reply_reset(struct reply *r) {
    r->len = 0;
    r->oom = 0;
    if (r->cap) r->text[0] = '\0';
}

static void reply_vadd(struct reply *r, const char *fmt, va_list args) {
    for (;;) {
        size_t room = r->cap - r->len;
        va_list ap;
        va_copy(ap, args);
        int n = vsnprintf(r->cap ? r->text + r->len : NULL, room, fmt, ap);
        va_end(ap);
        if (n < 0) { r->oom = 1; return; }
        if ((size_t)n < room) { r->len += (size_t)n; return; }
        size_t cap = r->cap * 2 + (size_t)n + 64; /* MEMBERS of a big cgroup can be long */
        char *grown = realloc(r->text, cap);
        if (!grown) { r->oom = 1; return; }
        r->text = grown;
        r->cap = cap;
    }
}

static void reply_add(struct reply *r, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    reply_vadd(r, fmt, ap);
    va_end(ap);
}

/* Makes the reply one line and returns RC (0 for OK, -1 for ERR), so a check ends in one return. */
static int say(struct reply *r, int rc, const char *fmt, ...) {
    va_list ap;
    reply_reset(r);
    va_start(ap, fmt);
    reply_vadd(r, fmt, ap);
    va_end(ap);
    return rc;
}

static int refuse(struct reply *r, const char *why) { return say(r, -1, "ERR refused %s", why); }
static int gone(struct reply *r, const char *why) { return say(r, -1, "ERR gone %s", why); }
static int failed(struct reply *r, const char *what) { return say(r, -1, "ERR failed %s: %s", what, strerror(errno)); }
static int ok(struct reply *r) { return say(r, 0, "OK"); }

/* ---- Small file helpers ---- */

/* Closes FD and keeps the errno of what failed before. */
static void close_keep_errno(int fd) {
    int e = errno;
    close(fd);
    errno = e;
}

/* Reads up to CAP - 1 bytes of PATH beneath DIRFD (AT_FDCWD: an absolute path), NUL-terminated.
 * Returns the length or -1 (errno set). */
static ssize_t read_small_at(int dirfd, const char *path, char *buf, size_t cap) {
    int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) return -1;
    size_t n = 0;
    while (n < cap - 1) {
        ssize_t got = read(fd, buf + n, cap - 1 - n);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) { close_keep_errno(fd); return -1; }
        if (got == 0) break;
        n += (size_t)got;
    }
    close(fd);
    buf[n] = '\0';
    return (ssize_t)n;
}

static ssize_t read_small(const char *path, char *buf, size_t cap) {
    return read_small_at(AT_FDCWD, path, buf, cap);
}

/* Writes VALUE to NAME beneath DIRFD in one write, as cgroup and proc files want it. */
static int write_beneath(int dirfd, const char *name, const char *value) {
    int fd = openat(dirfd, name, O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | WRITE_FLAGS);
    if (fd < 0) return -1;
    size_t len = strlen(value);
    ssize_t n = write(fd, value, len);
    close_keep_errno(fd);
    if (n >= 0 && (size_t)n != len) { errno = EIO; return -1; }
    return n < 0 ? -1 : 0;
}

/* Writes VALUE to DIR/NAME (DIR a resolved path). */
static int write_at(const char *dir, const char *name, const char *value) {
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path) { errno = ENAMETOOLONG; return -1; }
    return write_beneath(AT_FDCWD, path, value);
}

/* True when PATH is strictly below ROOT (both resolved, no trailing slash). */
static int path_below(const char *path, const char *root) {
    size_t n = strlen(root);
    return strncmp(path, root, n) == 0 && path[n] == '/';
}

static int at_or_below(const char *path, const char *root) {
    return !strcmp(path, root) || path_below(path, root);
}

/* No "..", ".", empty component or trailing slash: the string is the path it names. */
static int canonical(const char *path) {
    if (path[0] != '/') return 0;
    for (const char *p = path; *p; p++) {
        if (*p != '/') continue;
        if (p[1] == '/' || p[1] == '\0') return path[1] == '\0';
        if (p[1] == '.' && (p[2] == '/' || p[2] == '\0')) return 0;
        if (p[1] == '.' && p[2] == '.' && (p[3] == '/' || p[3] == '\0')) return 0;
    }
    return 1;
}

/* ---- Processes ---- */

struct proc_stat {
    long long ppid, flags, ticks;
};

/* Fields 4 (ppid), 9 (flags) and 22 (start ticks) of a /proc/PID/stat file (PATH beneath
 * DIRFD), counted after the last ')' because the command name may hold spaces and parentheses. */
static int read_stat_at(int dirfd, const char *path, struct proc_stat *st) {
    char buf[2048];
    if (read_small_at(dirfd, path, buf, sizeof buf) < 0) return -1;
    char *p = strrchr(buf, ')');
    if (!p || p[1] != ' ') { errno = EINVAL; return -1; }
    p += 2;
    for (int field = 3; field <= 22; field++) {
        char *end = strchr(p, ' ');
        if (!end) { errno = EINVAL; return -1; }
        *end = '\0';
        long long *out = field == 4 ? &st->ppid : field == 9 ? &st->flags : field == 22 ? &st->ticks : NULL;
        if (out && parse_number(p, 10, 0, LLONG_MAX, out)) { errno = EINVAL; return -1; }
        p = end + 1;
    }
    return 0;
}

static int read_stat(long long pid, struct proc_stat *st) {
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/%lld/stat", H.proc, pid) >= (int)sizeof path) return -1;
    return read_stat_at(AT_FDCWD, path, st);
}

static int on_chain(long long pid) {
    for (int i = 0; i < H.nchain; i++)
        if (H.chain[i] == pid) return 1;
    return 0;
}

/* Remembers the parent chain up to pid 1: the console that started us is on it, and so is
 * whatever started the console. None of them may be signalled, moved or frozen. */
static int record_chain(pid_t pid) {
    while (pid > 0) {
        struct proc_stat st;
        if (H.nchain == MAX_CHAIN || read_stat(pid, &st) != 0) return -1;
        H.chain[H.nchain] = pid;
        H.chain_ticks[H.nchain++] = st.ticks;
        if (pid == 1) break;
        pid = (pid_t)st.ppid;
    }
    return 0;
}

/*
 * Opens a pidfd on PID and returns it once PID is a process we may touch at all and its start
 * time is TICKS (ST filled). The pidfd is opened before the check, so when the check passes the
 * pidfd names the process that was checked, even if the pid is reused right after.
 */
static int open_verified(long long pid, long long ticks, struct proc_stat *st, struct reply *r) {
    if (pid <= 1) return refuse(r, "pid 1, 0 or negative");
    if (pid == H.self) return refuse(r, "the helper itself");
    if (on_chain(pid)) return refuse(r, "a process on the helper's parent chain (the console)");
    int fd = sys_pidfd_open(pid);
    if (fd < 0) return errno == ESRCH || errno == EINVAL ? gone(r, "no such process") : failed(r, "pidfd_open");
    const char *why = NULL;
    if (read_stat(pid, st) != 0) why = "no such process";
    else if ((st->flags & FLAG_KTHREAD) || st->ppid == 2) { close(fd); return refuse(r, "a kernel thread"); }
    else if (st->ticks != ticks) why = "start time differs: the pid was reused";
    if (why) { close(fd); return gone(r, why); }
    return fd;
}

/* The start time again, after checks that read other files of /proc/PID: the pid must still be
 * the process the pidfd names. */
static int still_same(long long pid, long long ticks, struct reply *r) {
    struct proc_stat st;
    if (read_stat(pid, &st) != 0 || st.ticks != ticks) return gone(r, "the process changed while it was checked");
    return 0;
}

/*
 * A descriptor of the /proc/PID directory of the process PID started at TICKS, or -1 when it is
 * gone. A /proc/PID directory belongs to one process: once that process is reaped every read
 * beneath it fails, even after the pid is reused. So the start time read through it proves the
 * descriptor names that process, and whatever is read or written beneath it is that process's,
 * with no window in which another process could take the pid.
 */
static int open_proc_dir(long long pid, long long ticks) {
    char path[PATH_MAX];
    struct proc_stat st;
    if (snprintf(path, sizeof path, "%s/%lld", H.proc, pid) >= (int)sizeof path) return -1;
    int dir = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
    if (dir < 0) return -1;
    if (read_stat_at(dir, "stat", &st) != 0 || st.ticks != ticks) { close(dir); errno = ESRCH; return -1; }
    return dir;
}

/* The real uid of PID from /proc/PID/status: /proc/PID itself is root's once a process is not
 * dumpable, so its owner says nothing. Returns -1 when unreadable. */
static long long proc_uid(long long pid) {
    char path[PATH_MAX], buf[4096];
    long long uid;
    snprintf(path, sizeof path, "%s/%lld/status", H.proc, pid);
    if (read_small(path, buf, sizeof buf) < 0) return -1;
    char *line = strstr(buf, "\nUid:\t");
    if (!line) return -1;
    line += 6;
    line[strcspn(line, "\t\n")] = '\0';
    return parse_number(line, 10, 0, UINT_MAX, &uid) == 0 ? uid : -1;
}

/* ---- Protected cgroups ---- */

static void protect(const char *root, const char *rel) {
    char joined[PATH_MAX], real[PATH_MAX];
    if (snprintf(joined, sizeof joined, "%s%s", root, rel) >= (int)sizeof joined) { H.protected_full = 1; return; }
    const char *dir = realpath(joined, real) ? real : joined;
    for (int i = 0; i < H.nprotected; i++)
        if (!strcmp(H.protected[i], dir)) return;
    char *copy = H.nprotected < MAX_PROTECTED ? strdup(dir) : NULL;
    if (!copy) { H.protected_full = 1; return; }
    H.protected[H.nprotected++] = copy;
}

static int has_controller(const char *list, size_t len, const char *name) {
    size_t n = strlen(name);
    for (const char *p = list; p < list + len;) {
        const char *comma = memchr(p, ',', (size_t)(list + len - p));
        size_t word = comma ? (size_t)(comma - p) : (size_t)(list + len - p);
        if (word == n && !strncmp(p, name, n)) return 1;
        p += word + 1;
    }
    return 0;
}

/* The v2 cgroup of PID (relative, "/a/b") into OUT; with PROTECT, also adds its v2 and v1 pids
 * cgroups to the protected list. Returns 0 when the v2 line was found. */
static int cgroups_of(long long pid, char out[PATH_MAX], int protect_them) {
    char path[PATH_MAX], buf[16384];
    int found = -1;
    if (snprintf(path, sizeof path, "%s/%lld/cgroup", H.proc, pid) >= (int)sizeof path) return -1;
    if (read_small(path, buf, sizeof buf) < 0) return -1; /* gone: nothing of it to protect now */
    char *save = NULL;
    for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *c1 = strchr(line, ':');
        char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2 || c2[1] != '/') continue;
        int v2 = c1 - line == 1 && line[0] == '0' && c2 == c1 + 1;
        if (v2 && strlen(c2 + 1) < PATH_MAX) { memcpy(out, c2 + 1, strlen(c2 + 1) + 1); found = 0; }
        if (!protect_them) continue;
        if (v2 && H.v2root[0]) protect(H.v2root, c2 + 1);
        else if (!v2 && H.v1pids[0] && has_controller(c1 + 1, (size_t)(c2 - c1 - 1), "pids")) protect(H.v1pids, c2 + 1);
    }
    return found;
}

/* Processes move between cgroups, so the list grows with where they are now (never shrinks).
 * A chain pid is followed only while its start time still matches. Init's cgroup is one too. */
static void refresh_protected(void) {
    char ignored[PATH_MAX];
    cgroups_of(H.self, ignored, 1);
    cgroups_of(1, ignored, 1);
    for (int i = 0; i < H.nchain; i++) {
        struct proc_stat st;
        if (read_stat(H.chain[i], &st) == 0 && st.ticks == H.chain_ticks[i]) cgroups_of(H.chain[i], ignored, 1);
    }
}

/* Freezing, capping or killing a cgroup holding the console or init, or any ancestor of one,
 * would stop the console itself or the system. */
static int check_unprotected(const char *dir, struct reply *r) {
    refresh_protected();
    if (H.protected_full) return refuse(r, "the helper's own cgroups could not all be recorded");
    for (int i = 0; i < H.nprotected; i++)
        if (at_or_below(H.protected[i], dir))
            return refuse(r, "the cgroup holds init, the helper or the console (or is an ancestor of one that does)");
    return 0;
}

/* Resolves a request's cgroup (relative to the v2 root) into OUT after every check. */
static int resolve_cgroup(const char *rel, char out[PATH_MAX], struct reply *r) {
    char joined[PATH_MAX];
    if (!H.v2root[0]) { errno = ENOENT; return failed(r, "no cgroup v2 tree"); }
    if (rel[0] != '/' || !canonical(rel)) return refuse(r, "a cgroup is a canonical path below the v2 root starting with / (no .., no //)");
    if (snprintf(joined, sizeof joined, "%s%s", H.v2root, rel) >= (int)sizeof joined) return refuse(r, "path too long");
    if (!realpath(joined, out)) return errno == ENOENT ? gone(r, "no such cgroup") : failed(r, "realpath");
    if (!path_below(out, H.v2root)) return refuse(r, "not a cgroup strictly below the v2 root");
    if (!is_cgroup_fs(out)) return refuse(r, "not a cgroup v2 directory");
    return check_unprotected(out, r);
}

static int same_ident(struct ident a, struct ident b) {
    return a.dev == b.dev && a.ino == b.ino;
}

/* A quarantine this helper made: the same directory (device and inode), not just the name. */
static int own_quarantine(const char *dir) {
    struct stat st;
    if (stat(dir, &st) != 0) return -1;
    struct ident id = { st.st_dev, st.st_ino };
    for (int i = 0; i < H.nquarantines; i++)
        if (same_ident(H.quarantines[i], id)) return i;
    return -1;
}

/* A cgroup the confirmed stop covers: its own cgroup or below, or a quarantine of ours. */
static int in_bound_cgroup(const char *dir) {
    return (H.bound_cg[0] && at_or_below(dir, H.bound_cg)) || own_quarantine(dir) >= 0;
}

/* errno after a failed write to a cgroup: the cgroup gone, or the write refused. */
static int cgroup_write_failed(const char *dir, const char *file, struct reply *r) {
    if (errno == ENOENT && access(dir, F_OK) != 0) return gone(r, "no such cgroup");
    return failed(r, file);
}

/* ---- Remembered actions (what to finish when the console goes away) ---- */

static void remember_dir(char **list, int *n, const char *dir) {
    for (int i = 0; i < *n; i++)
        if (!strcmp(list[i], dir)) return;
    char *copy = *n < MAX_KEPT ? strdup(dir) : NULL;
    if (copy) list[(*n)++] = copy;
}

static void forget_dir(char **list, int *n, const char *dir) {
    for (int i = 0; i < *n; i++)
        if (!strcmp(list[i], dir)) { free(list[i]); list[i] = list[--*n]; return; }
}

static void forget_stopped(long long pid) {
    for (size_t i = 0; i < H.nstopped; i++)
        if (H.stopped[i].pid == pid) { H.stopped[i] = H.stopped[--H.nstopped]; return; }
}

/* ---- The confirmed stop ---- */

static int require_confirmed(struct reply *r) {
    if (H.binding == CONFIRMED) return 0;
    return refuse(r, "no confirmed stop: BIND, TARGET and CONFIRM the stop the user confirmed first");
}

static int cmp_target(const void *a, const void *b) {
    const struct target *x = a, *y = b;
    if (x->pid != y->pid) return x->pid < y->pid ? -1 : 1;
    return x->ticks < y->ticks ? -1 : x->ticks > y->ticks;
}

static int is_target(long long pid, long long ticks) {
    struct target key = { pid, ticks };
    return H.binding == CONFIRMED && H.ntargets && bsearch(&key, H.targets, H.ntargets, sizeof key, cmp_target) != NULL;
}

static int push_target(struct target **list, size_t *n, size_t *cap, long long pid, long long ticks) {
    if (*n == *cap) {
        size_t grown = *cap ? *cap * 2 : 256;
        struct target *more = realloc(*list, grown * sizeof **list);
        if (!more) return -1;
        *list = more;
        *cap = grown;
    }
    (*list)[(*n)++] = (struct target){ pid, ticks };
    return 0;
}

/* What a process is, as the console's command key sees it, in terms the kernel vouches for:
 * the executable file (device and inode), the owner, and the first argument (an interpreter's
 * script). A copy of a target reparented to init is still the same kind. */
static int process_kind(long long pid, struct kind *k) {
    char path[PATH_MAX], args[4096];
    struct stat st;
    snprintf(path, sizeof path, "%s/%lld/exe", H.proc, pid);
    if (stat(path, &st) != 0) return -1;
    k->exe = (struct ident){ st.st_dev, st.st_ino };
    long long uid = proc_uid(pid);
    if (uid < 0) return -1;
    k->uid = (uid_t)uid;
    snprintf(path, sizeof path, "%s/%lld/cmdline", H.proc, pid);
    ssize_t n = read_small(path, args, sizeof args);
    if (n < 0) return -1;
    size_t first = strnlen(args, (size_t)n);
    const char *arg1 = first < (size_t)n ? args + first + 1 : "";
    snprintf(k->arg1, sizeof k->arg1, "%s", arg1);
    return 0;
}

static int same_kind(const struct kind *a, const struct kind *b) {
    return same_ident(a->exe, b->exe) && a->uid == b->uid && !strcmp(a->arg1, b->arg1);
}

/*
 * True when the process (already verified by pidfd and start time) belongs to the confirmed
 * stop: named in it, in its cgroup or a quarantine of ours, a descendant of a named process, or
 * of the same kind as one (same executable, owner and script).
 */
static int in_set(long long pid, const struct proc_stat *st) {
    char rel[PATH_MAX], dir[PATH_MAX];
    if (H.binding != CONFIRMED) return 0;
    if (is_target(pid, st->ticks)) return 1;
    if (cgroups_of(pid, rel, 0) == 0 && H.v2root[0] && snprintf(dir, sizeof dir, "%s%s", H.v2root, rel) < (int)sizeof dir
        && in_bound_cgroup(dir)) return 1;
    long long parent = st->ppid;
    for (int depth = 0; depth < MAX_CHAIN && parent > 1; depth++) {
        struct proc_stat up;
        if (read_stat(parent, &up) != 0) break;
        if (is_target(parent, up.ticks)) return 1;
        parent = up.ppid;
    }
    static struct kind k;
    if (H.nkinds && process_kind(pid, &k) == 0)
        for (int i = 0; i < H.nkinds; i++)
            if (same_kind(&H.kinds[i], &k)) return 1;
    return 0;
}

static void forget_binding(void) {
    free(H.targets);
    H.targets = NULL;
    H.ntargets = H.cap_targets = 0;
    H.nkinds = 0;
    H.bound_cg[0] = '\0';
    H.binding = UNBOUND;
}

/* A slice groups many units (all of a user's, all services): a stop binds a unit or a sandbox. */
static int is_slice(const char *dir) {
    const char *last = strrchr(dir, '/');
    size_t n = strlen(last);
    return n > 6 && !strcmp(last + n - 6, ".slice");
}

/* Another process of the caller could write to our stdin through /proc/CONSOLE/fd/N unless
 * the console is not dumpable, which makes its /proc/PID/fd root's. */
static int console_guarded(struct reply *r) {
    char path[PATH_MAX];
    struct stat st;
    if (H.caller == 0 || H.nchain == 0) return 0;
    snprintf(path, sizeof path, "%s/%d/fd", H.proc, (int)H.chain[0]);
    if (stat(path, &st) != 0) return failed(r, "stat the console's /proc/PID/fd");
    if (st.st_uid != 0) return refuse(r, "the console is dumpable: any process of its user could write to this pipe (set PR_SET_DUMPABLE 0)");
    return 0;
}

static int do_bind(const struct request *q, struct reply *r) {
    char dir[PATH_MAX] = "";
    if (H.binding != UNBOUND) return refuse(r, "a stop is bound already: UNBIND it first");
    if (console_guarded(r)) return -1;
    if (strcmp(q->text, "-") != 0) {
        if (resolve_cgroup(q->text, dir, r)) return -1;
        if (is_slice(dir)) return refuse(r, "a slice (system.slice, user.slice, user-N.slice ...) holds far more than one runaway");
        if (own_quarantine(dir) >= 0) return refuse(r, "a quarantine is not a stop's cgroup");
    }
    forget_binding();
    memcpy(H.bound_cg, dir, strlen(dir) + 1);
    H.binding = COLLECTING;
    return ok(r);
}

static int do_target(const struct request *q, struct reply *r) {
    struct proc_stat st;
    static struct kind k;
    if (H.binding != COLLECTING) return refuse(r, "TARGET only between BIND and CONFIRM");
    if (H.ntargets == MAX_TARGETS) return refuse(r, "too many targets for one stop");
    int fd = open_verified(q->pid, q->ticks, &st, r);
    if (fd < 0) return -1;
    int kind = H.nkinds < MAX_KEPT && process_kind(q->pid, &k) == 0;
    close(fd);
    /* The kind was read by path: only the start time read again makes it the target's. */
    if (still_same(q->pid, q->ticks, r)) return -1;
    if (push_target(&H.targets, &H.ntargets, &H.cap_targets, q->pid, q->ticks)) { errno = ENOMEM; return failed(r, "remember the target"); }
    if (kind) {
        int known = 0;
        for (int i = 0; i < H.nkinds && !known; i++) known = same_kind(&H.kinds[i], &k);
        if (!known) H.kinds[H.nkinds++] = k;
    }
    return ok(r);
}

static int do_confirm(struct reply *r) {
    if (H.binding != COLLECTING) return refuse(r, "CONFIRM only after BIND");
    if (!H.bound_cg[0] && H.ntargets == 0) return refuse(r, "the stop names neither a cgroup nor a process");
    if (H.ntargets) qsort(H.targets, H.ntargets, sizeof *H.targets, cmp_target);
    H.binding = CONFIRMED;
    return say(r, 0, "OK %zu", H.ntargets);
}

/* The console ends the stop: what it left frozen or stopped is its decision now, not ours. */
static int do_unbind(struct reply *r) {
    if (H.binding == UNBOUND) return refuse(r, "no stop is bound");
    forget_binding();
    while (H.nfrozen) forget_dir(H.frozen, &H.nfrozen, H.frozen[0]);
    H.nstopped = 0;
    return ok(r);
}

/* ---- Verbs on cgroups ---- */

/* The cgroup of a lever: below the confirmed stop's cgroup, or a quarantine of ours. */
static int resolve_bound_cgroup(const char *rel, char out[PATH_MAX], struct reply *r) {
    if (require_confirmed(r) || resolve_cgroup(rel, out, r)) return -1;
    if (!in_bound_cgroup(out)) return refuse(r, "the cgroup is not the confirmed stop's (nor a quarantine this helper made)");
    return 0;
}

static int do_cgroup_write(const struct request *q, const char *file, const char *value, struct reply *r) {
    char dir[PATH_MAX];
    if (resolve_bound_cgroup(q->text, dir, r)) return -1;
    if (write_at(dir, file, value)) return cgroup_write_failed(dir, file, r);
    if (q->verb == VERB_FREEZE) remember_dir(H.frozen, &H.nfrozen, dir);
    if (q->verb == VERB_THAW) forget_dir(H.frozen, &H.nfrozen, dir);
    return ok(r);
}

/* pids.max of the v2 cgroup, else of the v1 pids cgroup at the same path (hybrid hosts). */
static int pids_max_file(const char *rel, const char *v2dir, char out[PATH_MAX], struct reply *r) {
    char joined[PATH_MAX], dir[PATH_MAX];
    if (snprintf(out, PATH_MAX, "%s/pids.max", v2dir) < PATH_MAX && access(out, F_OK) == 0) return 0;
    if (!H.v1pids[0]) { errno = ENOENT; return failed(r, "pids.max (no pids controller)"); }
    if (snprintf(joined, sizeof joined, "%s%s", H.v1pids, rel) >= (int)sizeof joined) return refuse(r, "path too long");
    if (!realpath(joined, dir)) return errno == ENOENT ? gone(r, "no such v1 pids cgroup") : failed(r, "realpath");
    if (!path_below(dir, H.v1pids)) return refuse(r, "not a cgroup strictly below the v1 pids root");
    if (check_unprotected(dir, r)) return -1;
    if (snprintf(out, PATH_MAX, "%s/pids.max", dir) >= PATH_MAX) return refuse(r, "path too long");
    return 0;
}

static int do_pidsmax(const struct request *q, struct reply *r) {
    char v2dir[PATH_MAX], file[PATH_MAX], old[64], value[32];
    if (resolve_bound_cgroup(q->text, v2dir, r) || pids_max_file(q->text, v2dir, file, r)) return -1;
    if (read_small(file, old, sizeof old) < 0) return failed(r, "read pids.max");
    old[strcspn(old, "\n")] = '\0';
    if (q->value < 0) memcpy(value, "max", 4);
    else snprintf(value, sizeof value, "%lld", q->value);
    char *slash = strrchr(file, '/');
    *slash = '\0';
    if (write_at(file, "pids.max", value)) return cgroup_write_failed(file, "pids.max", r);
    return say(r, 0, "OK %s", old);
}

/* Appends the pids in DIRFD's cgroup.procs; a cgroup removed meanwhile has none. */
static int append_procs(int dirfd, struct reply *r) {
    int fd = openat(dirfd, "cgroup.procs", O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) return errno == ENOENT || errno == ENODEV ? 0 : -1;
    FILE *f = fdopen(fd, "r");
    if (!f) { close(fd); return -1; }
    char line[64];
    long long pid;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (parse_number(line, 10, 1, INT_MAX, &pid) == 0) reply_add(r, " %lld", pid);
    }
    fclose(f);
    return 0;
}

/* Lists the cgroup and its descendants through directory descriptors, so depth costs no paths. */
static int list_members_at(int dirfd, struct reply *r, int depth) {
    if (depth > MAX_DEPTH) { errno = ELOOP; return -1; }
    if (append_procs(dirfd, r)) return -1;
    int copy = dup(dirfd);
    DIR *d = copy < 0 ? NULL : fdopendir(copy);
    if (!d) { if (copy >= 0) close(copy); return -1; }
    struct dirent *e;
    int rc = 0;
    while (rc == 0 && (e = readdir(d)) != NULL) {
        if (e->d_type != DT_DIR || e->d_name[0] == '.') continue;
        int child = openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (child < 0) { rc = errno == ENOENT ? 0 : -1; continue; }
        rc = list_members_at(child, r, depth + 1);
        close(child);
    }
    int e2 = errno;
    closedir(d);
    errno = e2;
    return rc;
}

/* Read-only (cgroupfs lets anyone read cgroup.procs), so it needs no confirmed stop. */
static int do_members(const struct request *q, struct reply *r) {
    char dir[PATH_MAX];
    if (resolve_cgroup(q->text, dir, r)) return -1;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) return errno == ENOENT ? gone(r, "no such cgroup") : failed(r, "open");
    ok(r);
    int rc = list_members_at(fd, r, 0);
    close(fd);
    return rc ? failed(r, "read cgroup.procs") : 0;
}

/* A quarantine lives at the top of the v2 tree, which only root may change: no user can make
 * or rename one there, and MOVE takes only those this helper made (by inode). */
static int do_quarantine(const struct request *q, struct reply *r) {
    char rel[PATH_MAX], joined[PATH_MAX], dir[PATH_MAX];
    struct stat top, st;
    if (require_confirmed(r)) return -1;
    if (!H.v2root[0]) { errno = ENOENT; return failed(r, "no cgroup v2 tree"); }
    if (stat(H.v2root, &top) != 0 || top.st_uid != 0 || (top.st_mode & (S_IWGRP | S_IWOTH)))
        return refuse(r, "the v2 root is not root's alone");
    if (H.nquarantines == MAX_KEPT) return refuse(r, "too many quarantines");
    snprintf(rel, sizeof rel, "/" QUARANTINE_PREFIX "%.64s", q->text); /* the parser allows 64 chars */
    if (snprintf(joined, sizeof joined, "%s%s", H.v2root, rel) >= (int)sizeof joined) return refuse(r, "path too long");
    if (mkdir(joined, 0755) != 0) {
        if (errno == EEXIST && own_quarantine(joined) < 0) return refuse(r, "a cgroup of that name exists and this helper did not make it");
        if (errno != EEXIST) return failed(r, "mkdir");
    }
    if (resolve_cgroup(rel, dir, r) || stat(dir, &st) != 0 || st.st_uid != 0) {
        if (own_quarantine(joined) < 0) rmdir(joined);
        return r->len ? -1 : refuse(r, "the quarantine is not root's");
    }
    if (own_quarantine(dir) < 0) {
        char *copy = strdup(dir);
        if (!copy) { rmdir(dir); errno = ENOMEM; return failed(r, "remember the quarantine"); }
        H.quarantines[H.nquarantines] = (struct ident){ st.st_dev, st.st_ino };
        H.quarantine_dirs[H.nquarantines++] = copy;
    }
    if (write_at(dir, "cgroup.freeze", "1")) return cgroup_write_failed(dir, "cgroup.freeze", r);
    return say(r, 0, "OK %s", rel);
}

/* 1 when the cgroup or a descendant has a process (cgroup.events "populated"), 0 if not. */
static int cgroup_populated(const char *dir) {
    char path[PATH_MAX], buf[512];
    if (snprintf(path, sizeof path, "%s/cgroup.events", dir) >= (int)sizeof path) return -1;
    if (read_small(path, buf, sizeof buf) < 0) return -1;
    char *p = strstr(buf, "populated ");
    if (!p || (p != buf && p[-1] != '\n')) { errno = EINVAL; return -1; }
    return p[10] == '1' ? 1 : 0;
}

static void forget_quarantine(int i) {
    free(H.quarantine_dirs[i]);
    H.nquarantines--;
    H.quarantines[i] = H.quarantines[H.nquarantines];
    H.quarantine_dirs[i] = H.quarantine_dirs[H.nquarantines];
}

/* Thaws only once empty: thawing a full quarantine would let its processes run again. */
static int do_release(const struct request *q, struct reply *r) {
    char dir[PATH_MAX];
    if (resolve_cgroup(q->text, dir, r)) return -1;
    int i = own_quarantine(dir);
    if (i < 0) return refuse(r, "not a quarantine this helper made");
    int populated = cgroup_populated(dir);
    if (populated < 0) return failed(r, "read cgroup.events");
    if (populated) { errno = EBUSY; return failed(r, "the cgroup is not empty"); }
    if (write_at(dir, "cgroup.freeze", "0")) return cgroup_write_failed(dir, "cgroup.freeze", r);
    if (rmdir(dir) != 0) {
        int e = errno;
        if (write_at(dir, "cgroup.freeze", "1")) { /* it is gone or empty: nothing left to hold */ }
        errno = e;
        return failed(r, "rmdir");
    }
    forget_dir(H.frozen, &H.nfrozen, dir);
    forget_quarantine(i);
    return ok(r);
}

/* ---- Verbs on processes ---- */

/* A process of the confirmed stop, held by a pidfd: every check, then the start time again. */
static int open_member(const struct request *q, struct reply *r) {
    struct proc_stat st;
    if (require_confirmed(r)) return -1;
    int fd = open_verified(q->pid, q->ticks, &st, r);
    if (fd < 0) return -1;
    if (!in_set(q->pid, &st)) { close(fd); return refuse(r, "the process is not in the confirmed stop (named, its cgroup, descendant or same disposable binary)"); }
    if (still_same(q->pid, q->ticks, r)) { close(fd); return -1; }
    return fd;
}

static int do_move(const struct request *q, struct reply *r) {
    char dir[PATH_MAX], value[32];
    if (require_confirmed(r) || resolve_cgroup(q->text, dir, r)) return -1;
    if (own_quarantine(dir) < 0) return refuse(r, "MOVE only moves into a quarantine this helper made");
    int fd = open_member(q, r);
    if (fd < 0) return -1;
    snprintf(value, sizeof value, "%lld", q->pid);
    int rc = write_at(dir, "cgroup.procs", value);
    close_keep_errno(fd);
    if (rc) return errno == ESRCH ? gone(r, "no such process") : cgroup_write_failed(dir, "cgroup.procs", r);
    return ok(r);
}

static int do_signal(const struct request *q, struct reply *r) {
    int fd = open_member(q, r);
    if (fd < 0) return -1;
    int rc = sys_pidfd_signal(fd, (int)q->value);
    close_keep_errno(fd);
    if (rc != 0) return errno == ESRCH ? gone(r, "no such process") : failed(r, "pidfd_send_signal");
    if (q->value == 19) { if (push_target(&H.stopped, &H.nstopped, &H.cap_stopped, q->pid, q->ticks)) { /* cleanup then misses it */ } }
    else if (q->value == 18 || q->value == 9) forget_stopped(q->pid);
    return ok(r);
}

/* The console asking for its own shield: a process on the helper's parent chain with the start
 * time recorded at start-up (not one that took a chain pid since), run by the caller. */
static int callers_console(long long pid, long long ticks) {
    for (int i = 0; i < H.nchain; i++)
        if (H.chain[i] == pid && H.chain_ticks[i] == ticks) return proc_uid(pid) == (long long)H.caller;
    return 0;
}

/*
 * One rule: the console may lower its own score to CONSOLE_OOM_FLOOR (never -1000, which no
 * OOM kill could pass); a process of the confirmed stop may only be made a likelier victim
 * (>= 0); everything else is refused. The score is written beneath /proc/PID opened for that
 * very process (open_proc_dir), so a pid reused after the checks is not reached.
 */
static int do_oomadj(const struct request *q, struct reply *r) {
    char value[32];
    if (q->pid > 1 && callers_console(q->pid, q->ticks)) {
        if (q->value < CONSOLE_OOM_FLOOR) return refuse(r, "the console's own score goes no lower than -800");
    } else {
        if (q->value < 0) return refuse(r, "only the console's own score may be lowered; a stop's process may only be raised (0..1000)");
        int fd = open_member(q, r);
        if (fd < 0) return -1;
        close(fd);
    }
    int dir = open_proc_dir(q->pid, q->ticks);
    if (dir < 0) return gone(r, "no such process, or its pid was reused");
    snprintf(value, sizeof value, "%lld", q->value);
    int rc = write_beneath(dir, "oom_score_adj", value);
    close_keep_errno(dir);
    if (rc) return errno == ENOENT || errno == ESRCH ? gone(r, "no such process") : failed(r, "oom_score_adj");
    return ok(r);
}

/* ---- Verbs on files ---- */

static const char *const SYSTEM_PATHS[] = {
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt", "/etc", "/boot", "/proc", "/sys", "/dev"
};

static int is_system_path(const char *path) {
    for (size_t i = 0; i < sizeof SYSTEM_PATHS / sizeof SYSTEM_PATHS[0]; i++)
        if (at_or_below(path, SYSTEM_PATHS[i])) return 1;
    return 0;
}

/* A build output: some directory (not the file itself) named target or build below the home. */
static int in_build_dir(const char *path) {
    if (!H.home[0] || !path_below(path, H.home)) return 0;
    const char *p = path + strlen(H.home) + 1;
    for (const char *slash; (slash = strchr(p, '/')) != NULL; p = slash + 1) {
        size_t n = (size_t)(slash - p);
        if ((n == 6 && !strncmp(p, "target", 6)) || (n == 5 && !strncmp(p, "build", 5))) return 1;
    }
    return 0;
}

/* The disposable root PATH lies below (its length), or 0: /tmp, /var/tmp, the config's roots,
 * ~/.cache, or the home for a build output. */
static size_t disposable_root(const char *path) {
    static const char *const FIXED[] = { "/tmp", "/var/tmp" };
    char cache[PATH_MAX];
    for (size_t i = 0; i < 2; i++)
        if (path_below(path, FIXED[i])) return strlen(FIXED[i]);
    for (int i = 0; i < H.nroots; i++)
        if (path_below(path, H.roots[i])) return strlen(H.roots[i]);
    if (H.home[0] && snprintf(cache, sizeof cache, "%s/.cache", H.home) < (int)sizeof cache && path_below(path, cache))
        return strlen(cache);
    return in_build_dir(path) ? strlen(H.home) : 0;
}

/*
 * Opens REST beneath DIRFD with no symlink, no magic link and no "..", and with NO_XDEV in
 * RESOLVE no mount crossing: openat2, or where the kernel lacks it, one O_PATH|O_NOFOLLOW
 * component at a time (a symlink component is then a descriptor of the link itself, refused).
 */
static int open_beneath(int dirfd, const char *rest, int flags, unsigned long long resolve, int *symlink_seen) {
    struct open_how how = { .flags = (unsigned long long)(flags | O_NOFOLLOW | O_CLOEXEC), .resolve = resolve };
    int fd = (int)sys_openat2(dirfd, rest, &how);
    *symlink_seen = 0;
    if (fd >= 0 || errno != ENOSYS) { *symlink_seen = fd < 0 && errno == ELOOP; return fd; }
    struct stat top, st;
    if (fstat(dirfd, &top) != 0) return -1;
    char copy[PATH_MAX];
    if (snprintf(copy, sizeof copy, "%s", rest) >= (int)sizeof copy) { errno = ENAMETOOLONG; return -1; }
    int cur = dup(dirfd);
    char *save = NULL;
    for (char *name = strtok_r(copy, "/", &save); cur >= 0 && name; name = strtok_r(NULL, "/", &save)) {
        int last = save == NULL || *save == '\0';
        int next = openat(cur, name, last ? flags | O_NOFOLLOW | O_CLOEXEC : O_PATH | O_NOFOLLOW | O_CLOEXEC);
        int e = errno;
        close(cur);
        if (next < 0) { *symlink_seen = e == ELOOP; errno = e; return -1; }
        int crossed = (resolve & RESOLVE_NO_XDEV) && fstat(next, &st) == 0 && st.st_dev != top.st_dev;
        if (fstat(next, &st) != 0 || S_ISLNK(st.st_mode) || crossed || (!last && !S_ISDIR(st.st_mode))) {
            *symlink_seen = S_ISLNK(st.st_mode);
            close(next);
            errno = *symlink_seen ? ELOOP : crossed ? EXDEV : ENOTDIR;
            return -1;
        }
        cur = next;
    }
    return cur;
}

/*
 * Opens PATH for a mode change, from a descriptor of its disposable root, and returns the
 * descriptor (ST filled from it) or -1 with the reply set. Nothing is checked by path and used
 * later: the checks below are all on the descriptor that fchmod then uses.
 */
static int open_disposable(const char *path, struct stat *st, struct reply *r) {
    if (path[0] != '/') return refuse(r, "not an absolute path");
    if (!canonical(path)) return refuse(r, "the path is not canonical (.., ., //, trailing /)");
    if (is_system_path(path)) return refuse(r, "a system path");
    size_t root_len = disposable_root(path);
    if (!root_len) return refuse(r, "not below a disposable root");
    char root[PATH_MAX];
    memcpy(root, path, root_len);
    root[root_len] = '\0';
    /* The root itself, from "/", with no symlink on the way (the user owns ~/.cache). */
    int link = 0;
    int rootfd = open_beneath(H.slash, root + 1, O_PATH | O_DIRECTORY, RESOLVE_FILE & ~(unsigned long long)RESOLVE_NO_XDEV, &link);
    if (rootfd < 0) return errno == ELOOP || link ? refuse(r, "the disposable root has a symlink on its path") : failed(r, "open the disposable root");
    /* O_NONBLOCK: should a FIFO be swapped in, the open must not hang the helper. */
    int fd = open_beneath(rootfd, path + root_len + 1, O_RDONLY | O_NONBLOCK | O_NOCTTY, RESOLVE_FILE, &link);
    close_keep_errno(rootfd);
    if (fd < 0) {
        if (link || errno == ELOOP) return refuse(r, "the path has a symlink");
        if (errno == EXDEV) return refuse(r, "the path crosses a mount point");
        if (errno == ENOTDIR) return refuse(r, "a component of the path is not a directory");
        return failed(r, "open");
    }
    const char *why = NULL;
    if (fstat(fd, st) != 0) why = "cannot fstat";
    else if (!S_ISREG(st->st_mode)) why = "not a regular file";
    else if (st->st_mode & (S_ISUID | S_ISGID)) why = "a setuid or setgid file";
    /* A hard link in /tmp to a system binary passes every path check: one name only. */
    else if (st->st_nlink != 1) why = "a file with more than one hard link";
    /* A user's helper changes that user's files only: another user's build tool in /tmp is theirs. */
    else if (H.caller != 0 && st->st_uid != H.caller) why = "the file is not the caller's: for a user the helper changes only that user's files";
    if (why) { close(fd); return refuse(r, why); }
    return fd;
}

/* True when the file at NAME beneath DIRFD (followed: an exe or fd magic link) is FILE. */
static int is_file(int dirfd, const char *name, const struct stat *file) {
    struct stat st;
    return fstatat(dirfd, name, &st, 0) == 0 && st.st_dev == file->st_dev && st.st_ino == file->st_ino;
}

/* FILE among the open files of the process whose /proc directory is DIR: how a shell runs a
 * script (bash holds it on fd 255, dash on fd 10, for as long as they run it). fstatat through
 * /proc/PID/fd/N stats what the process holds without opening it (a FIFO cannot hang us). */
static int holds_open(int dir, const struct stat *file) {
    int fds = openat(dir, "fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
    DIR *d = fds < 0 ? NULL : fdopendir(fds);
    if (!d) { if (fds >= 0) close(fds); return 0; }
    int found = 0, seen = 0;
    struct dirent *e;
    while (!found && seen++ < MAX_FDS && (e = readdir(d)) != NULL)
        found = e->d_name[0] != '.' && is_file(fds, e->d_name, file);
    closedir(d);
    return found;
}

/*
 * True when the named target T runs FILE now: its executable is FILE, or it holds FILE open (an
 * interpreter's script). Everything is read beneath /proc/PID opened for that very process
 * (open_proc_dir), and its start time is read through it once more after: a process that took
 * the pid meanwhile cannot answer for it. Not argv: /proc/PID/cmdline is the process's own
 * memory, and a path in it would be resolved again by name.
 */
static int target_runs(const struct target *t, const struct stat *file) {
    struct proc_stat st;
    int dir = open_proc_dir(t->pid, t->ticks);
    if (dir < 0) return 0;
    int runs = (is_file(dir, "exe", file) || holds_open(dir, file)) && read_stat_at(dir, "stat", &st) == 0 && st.ticks == t->ticks;
    close(dir);
    return runs;
}

/* REVOKE's binding to the confirmed stop: a file one of its named processes runs right now. */
static int run_by_stop(const struct stat *file, struct reply *r) {
    for (size_t i = 0; i < H.ntargets; i++)
        if (target_runs(&H.targets[i], file)) return 0;
    return refuse(r, "no process the confirmed stop names runs that file now (as its executable, or a script it holds open)");
}

static int find_revoked(const struct stat *st) {
    struct ident id = { st->st_dev, st->st_ino };
    for (int i = 0; i < H.nrevoked; i++)
        if (same_ident(H.revoked[i].id, id)) return i;
    return -1;
}

static int do_revoke(const struct request *q, struct reply *r) {
    struct stat st;
    if (require_confirmed(r)) return -1;
    int fd = open_disposable(q->text, &st, r);
    if (fd < 0) return -1;
    if (run_by_stop(&st, r)) { close(fd); return -1; }
    int i = find_revoked(&st);
    if (i < 0 && H.nrevoked == MAX_KEPT) { close(fd); return refuse(r, "too many revoked files"); }
    mode_t old = st.st_mode & 07777, taken = old & 0111;
    int rc = fchmod(fd, old & ~(mode_t)0111);
    close_keep_errno(fd);
    if (rc) return failed(r, "fchmod");
    if (i < 0) H.revoked[i = H.nrevoked++] = (struct revoked){ { st.st_dev, st.st_ino }, 0 };
    H.revoked[i].taken |= taken;
    return say(r, 0, "OK %o", (unsigned)old);
}

/* Puts back exactly the execute bits this helper took from that file (same inode), no other.
 * Not bound to a process that runs it: it comes once the stop confirmed zero, when nothing does.
 * Its binding is REVOKE's (find_revoked: only an inode REVOKE took bits from, under its rules),
 * and open_disposable's owner check holds against an inode reused by another user since. */
static int do_restore(const struct request *q, struct reply *r) {
    struct stat st;
    int fd = open_disposable(q->text, &st, r);
    if (fd < 0) return -1;
    int i = find_revoked(&st);
    mode_t now = st.st_mode & 07777, wanted = (mode_t)q->value;
    const char *why = i < 0 ? "this helper took no execute bits from that file"
                    : wanted != (now | H.revoked[i].taken) ? "the mode must be the current mode plus the execute bits this helper took" : NULL;
    if (why) { close(fd); return refuse(r, why); }
    int rc = fchmod(fd, wanted);
    close_keep_errno(fd);
    if (rc) return failed(r, "fchmod");
    H.revoked[i] = H.revoked[--H.nrevoked];
    return ok(r);
}

/* ---- Serving ---- */

static void execute(const struct request *q, struct reply *r) {
    switch (q->verb) {
    case VERB_HELLO: say(r, 0, "OK runaway-helper 2 uid=%u", (unsigned)geteuid()); break;
    case VERB_BIND: do_bind(q, r); break;
    case VERB_TARGET: do_target(q, r); break;
    case VERB_CONFIRM: do_confirm(r); break;
    case VERB_UNBIND: do_unbind(r); break;
    case VERB_SIGNAL: do_signal(q, r); break;
    case VERB_FREEZE: do_cgroup_write(q, "cgroup.freeze", "1", r); break;
    case VERB_THAW: do_cgroup_write(q, "cgroup.freeze", "0", r); break;
    case VERB_PIDSMAX: do_pidsmax(q, r); break;
    case VERB_KILLCG: do_cgroup_write(q, "cgroup.kill", "1", r); break;
    case VERB_MEMBERS: do_members(q, r); break;
    case VERB_QUARANTINE: do_quarantine(q, r); break;
    case VERB_RELEASE: do_release(q, r); break;
    case VERB_MOVE: do_move(q, r); break;
    case VERB_REVOKE: do_revoke(q, r); break;
    case VERB_RESTORE: do_restore(q, r); break;
    case VERB_OOMADJ: do_oomadj(q, r); break;
    }
}

/* Reads one line without its newline. Returns its length; LINE_TOO_LONG when it had more than
 * LINE_BYTES - 1 bytes (the rest is consumed up to the newline, so the next request starts
 * clean); LINE_END at end of input, also after an unterminated last line, which is not a
 * complete request and is not served. */
enum { LINE_END = -1, LINE_TOO_LONG = -2 };

static long read_line(FILE *in, char *buf) {
    size_t n = 0;
    int c, overlong = 0;
    while ((c = getc(in)) != EOF && c != '\n') {
        if (n < LINE_BYTES - 1) buf[n++] = (char)c;
        else overlong = 1;
    }
    if (c == EOF) return LINE_END;
    buf[n] = '\0';
    return overlong ? LINE_TOO_LONG : (long)n;
}

/* Sends one line to syslog (authpriv.info) without ever waiting: a full log socket drops the
 * line (counted, and the count is logged with the next line that gets through). */
static void audit(const char *fmt, ...) {
    char msg[LINE_BYTES + LOG_REPLY_CHARS + 256];
    int head = snprintf(msg, sizeof msg, "<%d>runaway-helper[%d]: ", (10 << 3) | 6, (int)H.self);
    if (H.log_dropped) head += snprintf(msg + head, sizeof msg - (size_t)head, "(%ld lines dropped) ", H.log_dropped);
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(msg + head, sizeof msg - (size_t)head, fmt, ap);
    va_end(ap);
    size_t len = n < 0 ? (size_t)head : (size_t)head + (size_t)n >= sizeof msg ? sizeof msg - 1 : (size_t)head + (size_t)n;
    if (H.log < 0 || send(H.log, msg, len, MSG_DONTWAIT | MSG_NOSIGNAL) < 0) H.log_dropped++;
    else H.log_dropped = 0;
}

/* Logs who asked (the pkexec caller) for what, and the answer: the request whole. */
static void log_request(const char *line, long len, const char *reply) {
    static char shown[LINE_BYTES];
    size_t j = 0;
    if (len == LINE_TOO_LONG) len = 0;
    for (long i = 0; i < len; i++) {
        unsigned char c = (unsigned char)line[i];
        shown[j++] = c >= 0x20 && c <= 0x7e ? (char)c : '?';
    }
    shown[j] = '\0';
    audit("caller uid %u: %s -> %.*s", (unsigned)H.caller, shown, LOG_REPLY_CHARS, reply);
}

/* Replies first, then logs: the console never waits on the log. */
static int answer(const char *line, long len, const char *reply) {
    int rc = printf("%s\n", reply) < 0 || fflush(stdout) != 0 ? -1 : 0;
    log_request(line, len, reply);
    return rc;
}

/*
 * The console went away (its end of the pipe closed) with a confirmed stop: finish it. What
 * the helper froze or stopped in the stop is killed (the user confirmed killing it; thawing it
 * would let the runaway grow again), its quarantines are removed once empty, and revoked files
 * stay revoked (their old modes are in the log).
 */
static void finish_stop(void) {
    if (H.binding != CONFIRMED && H.nquarantines == 0) return;
    int killed = 0;
    if (H.binding == CONFIRMED) {
        for (int i = 0; i < H.nfrozen; i++) killed += write_at(H.frozen[i], "cgroup.kill", "1") == 0;
        for (int i = 0; i < H.nquarantines; i++) killed += write_at(H.quarantine_dirs[i], "cgroup.kill", "1") == 0;
    }
    for (size_t i = 0; i < H.nstopped && H.binding == CONFIRMED; i++) {
        struct proc_stat st;
        int fd = sys_pidfd_open(H.stopped[i].pid);
        if (fd < 0) continue;
        if (read_stat(H.stopped[i].pid, &st) == 0 && st.ticks == H.stopped[i].ticks) killed += sys_pidfd_signal(fd, 9) == 0;
        close(fd);
    }
    int removed = 0;
    struct timespec tick = { 0, 50 * 1000 * 1000 };
    for (int i = 0; i < H.nquarantines; i++) {
        int tries = H.binding == CONFIRMED ? 200 : 0; /* killed just now: give the kernel time to empty it */
        while (cgroup_populated(H.quarantine_dirs[i]) == 1 && tries-- > 0) nanosleep(&tick, NULL);
        if (cgroup_populated(H.quarantine_dirs[i]) == 1) continue; /* still full: stays frozen, never thawed */
        write_at(H.quarantine_dirs[i], "cgroup.freeze", "0");
        removed += rmdir(H.quarantine_dirs[i]) == 0;
    }
    audit("caller uid %u: the console went away%s: killed %d cgroups and processes it froze or stopped, removed %d of %d quarantines",
          (unsigned)H.caller, H.binding == CONFIRMED ? " mid-stop" : "", killed, removed, H.nquarantines);
}

/* One request line (or LINE_TOO_LONG) to its reply: everything a request does happens here. */
static const char *handle(const char *line, long len, struct request *req, struct reply *r) {
    const char *why = NULL;
    reply_reset(r);
    if (len == LINE_TOO_LONG) reply_add(r, "ERR usage line too long");
    else if (parse_request(line, (size_t)len, req, &why)) reply_add(r, "ERR usage %s", why);
    else execute(req, r);
    return r->oom || !r->cap ? "ERR failed out of memory" : r->text;
}

static int serve(void) {
    static char line[LINE_BYTES];
    static struct request req;
    struct reply r = { NULL, 0, 0, 0 };
    for (long served = 0;; served++) {
        long len = read_line(stdin, line);
        if (len == LINE_END) { finish_stop(); return EXIT_STDIN_CLOSED; }
        if (served == MAX_REQUESTS) {
            answer(line, len, "ERR refused too many requests");
            finish_stop();
            return EXIT_TOO_MANY;
        }
        const char *text = handle(line, len, &req, &r);
        if (answer(line, len, text)) { finish_stop(); return EXIT_STDIN_CLOSED; } /* nobody reads the replies any more */
    }
}

/* ---- Start-up ---- */

static void die(int code, const char *what, const char *arg) {
    fprintf(stderr, "runaway-helper: %s%s%s\n", what, arg ? " " : "", arg ? arg : "");
    exit(code);
}

/* Adds a resolved root; "/" would make every file disposable, so it is ignored. */
static void add_root(const char *line) {
    char real[PATH_MAX];
    if (line[0] != '/' || !realpath(line, real) || !strcmp(real, "/") || H.nroots == MAX_ROOTS) {
        fprintf(stderr, "runaway-helper: ignoring disposable root %s\n", line);
        return;
    }
    char *copy = strdup(real);
    if (copy) H.roots[H.nroots++] = copy;
}

static void read_roots(FILE *f) {
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) >= 0) {
        line[strcspn(line, "#\n")] = '\0';
        char *start = line;
        while (*start == ' ' || *start == '\t') start++;
        size_t n = strlen(start);
        while (n > 0 && (start[n - 1] == ' ' || start[n - 1] == '\t' || start[n - 1] == '\r')) start[--n] = '\0';
        if (n > 0) add_root(start);
    }
    free(line);
}

/* Whoever can write the config can make the helper chmod files below any root it names, so it
 * must be root's alone. Returns 0 when read (or, unless REQUIRED, absent), -1 when refused. */
static int load_config(const char *path, int required) {
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0 && !required && errno == ENOENT) return 0;
    if (fd < 0) { fprintf(stderr, "runaway-helper: cannot open config %s: %s\n", path, strerror(errno)); return -1; }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != 0 || (st.st_mode & (S_IWGRP | S_IWOTH))) {
        fprintf(stderr, "runaway-helper: config %s must be a regular file owned by root and not writable by group or others\n", path);
        close(fd);
        return -1;
    }
    FILE *f = fdopen(fd, "r");
    if (!f) { close(fd); return -1; }
    read_roots(f);
    fclose(f);
    return 0;
}

static void find_cgroup_roots(void) {
    const char *v2 = access("/sys/fs/cgroup/cgroup.controllers", F_OK) == 0 ? "/sys/fs/cgroup"
                   : access("/sys/fs/cgroup/unified/cgroup.controllers", F_OK) == 0 ? "/sys/fs/cgroup/unified" : NULL;
    if (!v2 || !realpath(v2, H.v2root)) H.v2root[0] = '\0';
    /* A v1 pids hierarchy has cgroup.procs but no cgroup.controllers. */
    int v1 = access("/sys/fs/cgroup/pids/cgroup.procs", F_OK) == 0 && access("/sys/fs/cgroup/pids/cgroup.controllers", F_OK) != 0;
    if (!v1 || !realpath("/sys/fs/cgroup/pids", H.v1pids)) H.v1pids[0] = '\0';
}

static void find_home(void) {
    struct passwd *pw = getpwuid(H.caller);
    if (!pw || !pw->pw_dir || pw->pw_dir[0] != '/' || !realpath(pw->pw_dir, H.home) || !strcmp(H.home, "/"))
        H.home[0] = '\0';
}

/* The caller is PKEXEC_UID (pkexec runs us as root for that user), else the real uid. The
 * environment is the caller's, so nothing else of it is kept. Returns 1 when a user (not root
 * itself) started us: then nothing from the command line configures the helper. */
static int take_environment(void) {
    char uid_text[32] = "";
    const char *pkexec = getenv("PKEXEC_UID");
    if (pkexec && snprintf(uid_text, sizeof uid_text, "%s", pkexec) >= (int)sizeof uid_text) die(EXIT_USAGE, "bad PKEXEC_UID", NULL);
    if (clearenv() != 0 || setenv("PATH", "/usr/sbin:/usr/bin:/sbin:/bin", 1) != 0) die(EXIT_USAGE, "cannot reset the environment", NULL);
    long long uid = getuid();
    if (pkexec && parse_number(uid_text, 10, 0, (long long)UINT_MAX - 1, &uid)) die(EXIT_USAGE, "bad PKEXEC_UID", uid_text);
    H.caller = (uid_t)uid;
    return pkexec != NULL || getuid() != 0;
}

/* Keeps only what the levers need: signal (KILL), write cgroup and proc files and make
 * quarantines (DAC_OVERRIDE), chmod others' files (FOWNER), lower the console's OOM score
 * (SYS_RESOURCE), stat another user's /proc/PID/exe (SYS_PTRACE). No new privilege on exec. */
static int drop_capabilities(void) {
    static const int KEEP[] = { CAP_KILL, CAP_DAC_OVERRIDE, CAP_FOWNER, CAP_SYS_RESOURCE, CAP_SYS_PTRACE };
    unsigned long long keep = 0;
    for (size_t i = 0; i < sizeof KEEP / sizeof KEEP[0]; i++) keep |= 1ULL << KEEP[i];
    for (int cap = 0; cap < 64 && prctl(PR_CAPBSET_READ, cap, 0, 0, 0) >= 0; cap++)
        if (!(keep & (1ULL << cap)) && prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0) return -1;
    struct __user_cap_header_struct header = { _LINUX_CAPABILITY_VERSION_3, 0 };
    struct __user_cap_data_struct data[2] = { { 0 } };
    if (syscall(SYS_capget, &header, data) != 0) return -1;
    keep &= data[0].permitted | (unsigned long long)data[1].permitted << 32; /* a container may lack some */
    memset(data, 0, sizeof data);
    data[0].effective = data[0].permitted = (unsigned)(keep & 0xffffffffu);
    data[1].effective = data[1].permitted = (unsigned)(keep >> 32);
    if (syscall(SYS_capset, &header, data) != 0) return -1;
    if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL) return -1;
    return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 && prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) == 0 ? 0 : -1;
}

/* What the polkit prompt shows of a stop (pkexec's $(command_line)) and the log records. It
 * decides nothing: BIND, TARGET and CONFIRM decide what the helper may touch. Printable ASCII
 * only, without < > & $ (markup in an agent's dialog, polkit's $(...)), 1-160 characters. */
static const char *invalid_description(const char *text) {
    size_t n = strnlen(text, STOP_TEXT_CHARS + 1);
    if (n == 0) return "the --stop DESCRIPTION is empty";
    if (n > STOP_TEXT_CHARS) return "the --stop DESCRIPTION is longer than 160 characters";
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c < 0x20 || c > 0x7e) return "the --stop DESCRIPTION holds a control or non-ASCII character";
        if (strchr("<>&$", c)) return "the --stop DESCRIPTION holds one of < > & $";
    }
    return NULL;
}

/*
 * The command line, or why it is refused. No argument configures a helper started for a user:
 * --prepare (started ahead of need) and --stop DESCRIPTION (started for a stop the user just
 * confirmed) only choose the polkit action, whose message pkexec shows (its actions match
 * argv[1]), and end up in the log. --config FILE is for root starting it directly (the tests).
 */
static const char *check_arguments(int argc, char **argv, int for_user, const char **config, const char **started_for) {
    if (argc == 1) return NULL;
    const char *option = argv[1];
    if (!strcmp(option, "--prepare")) {
        if (argc != 2) return "--prepare takes no value";
        *started_for = "ahead of need (--prepare)";
    } else if (!strcmp(option, "--stop")) {
        if (argc != 3) return "--stop takes exactly one DESCRIPTION";
        const char *why = invalid_description(argv[2]);
        if (why) return why;
        static char said[STOP_TEXT_CHARS + 64];
        snprintf(said, sizeof said, "for a stop the console describes as: %s", argv[2]);
        *started_for = said;
    } else if (!strcmp(option, "--config")) {
        if (for_user) return "started for a user (pkexec), no argument configures the helper: its config is " DEFAULT_CONFIG;
        if (argc != 3) return "--config takes exactly one FILE";
        *config = argv[2];
    } else {
        return "an unknown argument (usage: runaway-helper [--prepare | --stop DESCRIPTION], or as root --config FILE)";
    }
    return NULL;
}

static void open_log(void) {
    struct sockaddr_un addr = { .sun_family = AF_UNIX, .sun_path = "/dev/log" };
    H.log = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (H.log >= 0 && connect(H.log, (struct sockaddr *)&addr, sizeof addr) != 0) { close(H.log); H.log = -1; }
}

#ifndef RUNAWAY_HELPER_FUZZ
int main(int argc, char **argv) {
    if (argc < 1) return EXIT_USAGE; /* an empty argv: refuse at once (CVE-2021-4034) */
    if (geteuid() != 0) die(EXIT_NOT_ROOT, "must run as root (through pkexec)", NULL);
    int for_user = take_environment();
    const char *config = NULL, *started_for = "with no argument";
    const char *why = check_arguments(argc, argv, for_user, &config, &started_for);
    if (why) die(EXIT_USAGE, "refused:", why);
    int explicit_config = config != NULL;
    if (!explicit_config) config = DEFAULT_CONFIG;
    signal(SIGPIPE, SIG_IGN); /* a closed reply pipe is an error from printf, then finish_stop */
    umask(022);
    if (chdir("/") != 0) die(EXIT_USAGE, "cannot chdir to /", NULL);
    H.self = getpid();
    H.slash = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
    open_log();
    find_cgroup_roots();
    if (H.slash < 0 || record_chain(getppid()) != 0) die(EXIT_CHAIN, "cannot read the parent chain:", strerror(errno));
    refresh_protected();
    audit("caller uid %u: started %s", (unsigned)H.caller, started_for);
    if (load_config(config, explicit_config) != 0) {
        if (explicit_config) die(EXIT_USAGE, "refusing the config file", config);
        fprintf(stderr, "runaway-helper: ignoring %s\n", config); /* fewer roots only refuses more */
    }
    find_home();
    /* On a machine on fire thousands of tasks wait for a CPU; the helper mostly sleeps, and when
     * it is asked something it must answer in time (best effort: needs CAP_SYS_NICE, dropped next). */
    if (setpriority(PRIO_PROCESS, 0, -10) != 0) { /* a container may not allow it: the default nice then */ }
    if (drop_capabilities() != 0) die(EXIT_CAPS, "cannot drop capabilities:", strerror(errno));
    return serve();
}
#endif
