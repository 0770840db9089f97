// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * runaway-helper: the few levers of the guided stop that need root, behind a line protocol.
 *
 *   runaway-helper [--config FILE]
 *
 * Reads one request per line on stdin and answers one line per request on stdout, exactly as
 * docs/helper-protocol.md specifies: signal a process through a pidfd after checking its start
 * time, freeze, thaw, cap, kill or list a cgroup, quarantine processes in a frozen cgroup, set
 * oom_score_adj, and take the execute bits off a disposable file or put them back.
 *
 * It runs as root (through pkexec, or directly when the console is root), so every request is
 * checked against what it must never touch: pid 1, kernel threads, itself and its parent chain
 * (the console), the cgroups holding them and their ancestors, the v2 root, system paths, and
 * anything that is not a regular file below a disposable root.
 *
 * Exit codes are named below. Built with -DRUNAWAY_HELPER_NO_MAIN, this file leaves out main so
 * that the fuzz harness (src/test/c/helper-fuzz.c) can include it and drive parse_request alone.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <syslog.h>
#include <unistd.h>

enum {
    EXIT_STDIN_CLOSED = 0,
    EXIT_USAGE = 2,      /* bad command line, bad --config file, bad PKEXEC_UID */
    EXIT_NOT_ROOT = 3,
    EXIT_TOO_MANY = 4,   /* served MAX_REQUESTS */
    EXIT_CHAIN = 5       /* cannot read its own parent chain */
};

#define LINE_BYTES 4096          /* a request line, newline included */
#define MAX_REQUESTS 1000000L
#define MAX_WORDS 4              /* the verb and at most three arguments */
#define MAX_CHAIN 1024
#define MAX_PROTECTED 4096
#define MAX_ROOTS 64
#define MAX_DEPTH 256            /* cgroup nesting MEMBERS follows; each level holds a descriptor */
#define NAME_MAX_CHARS 64
#define FLAG_KTHREAD 0x00200000LL /* PF_KTHREAD in stat field 9 */
#define PIDS_LIMIT 4194304LL     /* PID_MAX_LIMIT: the kernel refuses a higher pids.max */
#define DEFAULT_CONFIG "/etc/runaway/disposable-roots"
#define V1_PIDS_ROOT "/sys/fs/cgroup/pids"
#define QUARANTINE_PREFIX "runaway-quarantine."

/* ---- Requests: parsing is a pure function of the line, so it can be fuzzed on its own ---- */

enum verb {
    VERB_HELLO, VERB_SIGNAL, VERB_FREEZE, VERB_THAW, VERB_PIDSMAX, VERB_KILLCG, VERB_MEMBERS,
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

/* A whole number in [min, max] in BASE; strtoll alone would take blanks, '+' and "". */
static int parse_number(const char *s, int base, long long min, long long max, long long *out) {
    const char *digits = s[0] == '-' ? s + 1 : s;
    if (*digits < '0' || *digits > '9') return -1;
    char *end = NULL;
    errno = 0;
    long long v = strtoll(s, &end, base);
    if (errno || *end != '\0' || v < min || v > max) return -1;
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
        if (parse_number(word, 8, 0, 07777, &req->value)) { *why = "mode must be octal 0-7777"; return -1; }
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

/* ---- State recorded at start ---- */

static struct {
    uid_t caller;
    pid_t self;
    char v2root[PATH_MAX];          /* resolved; empty when there is no v2 tree */
    char v1pids[PATH_MAX];          /* resolved; empty when there is no v1 pids hierarchy */
    pid_t chain[MAX_CHAIN];         /* parent, grandparent, ... up to 1 */
    long long chain_ticks[MAX_CHAIN];
    int nchain;
    char *protected[MAX_PROTECTED]; /* cgroup dirs (v2 and v1 pids) holding us or the chain */
    int nprotected;
    int protected_full;             /* one could not be recorded: refuse every cgroup request */
    char *roots[MAX_ROOTS];         /* disposable roots from the config file */
    int nroots;
    char home[PATH_MAX];            /* the caller's home, resolved; empty when unusable */
} H;

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

static void reply_add(struct reply *r, const char *fmt, ...) {
    for (;;) {
        size_t room = r->cap - r->len;
        va_list ap;
        va_start(ap, fmt);
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

static int refuse(struct reply *r, const char *why) {
    reply_reset(r);
    reply_add(r, "ERR refused %s", why);
    return -1;
}

static int gone(struct reply *r, const char *why) {
    reply_reset(r);
    reply_add(r, "ERR gone %s", why);
    return -1;
}

static int failed(struct reply *r, const char *what) {
    const char *error = strerror(errno);
    reply_reset(r);
    reply_add(r, "ERR failed %s: %s", what, error);
    return -1;
}

static int ok(struct reply *r) {
    reply_reset(r);
    reply_add(r, "OK");
    return 0;
}

/* ---- Small file helpers ---- */

/* Reads up to CAP - 1 bytes of PATH, NUL-terminated. Returns the length or -1 (errno set). */
static ssize_t read_small(const char *path, char *buf, size_t cap) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    size_t n = 0;
    while (n < cap - 1) {
        ssize_t got = read(fd, buf + n, cap - 1 - n);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) { int e = errno; close(fd); errno = e; return -1; }
        if (got == 0) break;
        n += (size_t)got;
    }
    close(fd);
    buf[n] = '\0';
    return (ssize_t)n;
}

/* Writes VALUE to DIR/NAME in one write, as cgroup and proc files want it. */
static int write_at(const char *dir, const char *name, const char *value) {
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path) { errno = ENAMETOOLONG; return -1; }
    int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) return -1;
    size_t len = strlen(value);
    ssize_t n = write(fd, value, len);
    int e = errno;
    close(fd);
    errno = e;
    if (n >= 0 && (size_t)n != len) { errno = EIO; return -1; }
    return n < 0 ? -1 : 0;
}

/* True when PATH is strictly below ROOT (both resolved, no trailing slash). */
static int path_below(const char *path, const char *root) {
    size_t n = strlen(root);
    return strncmp(path, root, n) == 0 && path[n] == '/';
}

static int at_or_below(const char *path, const char *root) {
    return !strcmp(path, root) || path_below(path, root);
}

/* ---- Processes ---- */

struct proc_stat {
    long long ppid, flags, ticks;
};

/* Fields 4 (ppid), 9 (flags) and 22 (start ticks) of /proc/PID/stat, counted after the last
 * ')' because the command name may hold spaces and parentheses. */
static int read_stat(pid_t pid, struct proc_stat *st) {
    char path[64], buf[2048];
    if (snprintf(path, sizeof path, "/proc/%d/stat", (int)pid) >= (int)sizeof path) return -1;
    if (read_small(path, buf, sizeof buf) < 0) return -1;
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

static int on_chain(long long pid) {
    for (int i = 0; i < H.nchain; i++)
        if (H.chain[i] == pid) return 1;
    return 0;
}

/* Remembers the parent chain up to pid 1: the console that started us is on it, and so is
 * whatever started the console. None of them may be signalled, moved or frozen. */
static int record_chain(void) {
    pid_t pid = getppid();
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
 * Opens a pidfd on PID and returns it once PID is a process we may touch and its start time is
 * TICKS. The pidfd is opened before the check, so when the check passes the pidfd names the
 * process that was checked, even if the pid is reused right after.
 */
static int open_verified(long long pid, long long ticks, struct reply *r) {
    if (pid <= 1) return refuse(r, "pid 1, 0 or negative");
    if (pid == H.self) return refuse(r, "the helper itself");
    if (on_chain(pid)) return refuse(r, "a process on the helper's parent chain");
    int fd = (int)syscall(SYS_pidfd_open, (pid_t)pid, 0);
    if (fd < 0) return errno == ESRCH || errno == EINVAL ? gone(r, "no such process") : failed(r, "pidfd_open");
    struct proc_stat st;
    const char *why = NULL;
    if (read_stat((pid_t)pid, &st) != 0) why = "no such process";
    else if ((st.flags & FLAG_KTHREAD) || st.ppid == 2) { close(fd); return refuse(r, "a kernel thread"); }
    else if (st.ticks != ticks) why = "start time differs: the pid was reused";
    if (why) { close(fd); return gone(r, why); }
    return fd;
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

/* Adds the cgroups PID is in (the v2 `0::` line and the v1 pids line) to the protected list. */
static void protect_cgroups_of(pid_t pid) {
    char path[64], buf[16384];
    if (snprintf(path, sizeof path, "/proc/%d/cgroup", (int)pid) >= (int)sizeof path) return;
    if (read_small(path, buf, sizeof buf) < 0) return; /* gone: nothing of it to protect now */
    char *save = NULL;
    for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *c1 = strchr(line, ':');
        char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2 || c2[1] != '/') continue;
        int v2 = c1 - line == 1 && line[0] == '0' && c2 == c1 + 1;
        if (v2 && H.v2root[0]) protect(H.v2root, c2 + 1);
        else if (!v2 && H.v1pids[0] && has_controller(c1 + 1, (size_t)(c2 - c1 - 1), "pids")) protect(H.v1pids, c2 + 1);
    }
}

/* Processes move between cgroups, so the list grows with where they are now (never shrinks).
 * A chain pid is followed only while its start time still matches. */
static void refresh_protected(void) {
    protect_cgroups_of(H.self);
    for (int i = 0; i < H.nchain; i++) {
        struct proc_stat st;
        if (read_stat(H.chain[i], &st) == 0 && st.ticks == H.chain_ticks[i]) protect_cgroups_of(H.chain[i]);
    }
}

/* Freezing, capping or killing a cgroup holding the console, or any ancestor of one, would
 * stop the console itself. */
static int check_unprotected(const char *dir, struct reply *r) {
    refresh_protected();
    if (H.protected_full) return refuse(r, "the helper's own cgroups could not all be recorded");
    for (int i = 0; i < H.nprotected; i++)
        if (at_or_below(H.protected[i], dir))
            return refuse(r, "the cgroup holds the helper or its parent chain (or is an ancestor of one that does)");
    return 0;
}

static int is_cgroup2_dir(const char *dir) {
    struct statfs fs;
    struct stat st;
    return statfs(dir, &fs) == 0 && fs.f_type == CGROUP2_SUPER_MAGIC && stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Resolves a request's cgroup (relative to the v2 root) into OUT after every check. */
static int resolve_cgroup(const char *rel, char out[PATH_MAX], struct reply *r) {
    char joined[PATH_MAX];
    if (!H.v2root[0]) { errno = ENOENT; return failed(r, "no cgroup v2 tree"); }
    if (rel[0] != '/') return refuse(r, "a cgroup is a path below the v2 root starting with /");
    if (strstr(rel, "..")) return refuse(r, "a cgroup path may not contain ..");
    if (snprintf(joined, sizeof joined, "%s%s", H.v2root, rel) >= (int)sizeof joined) return refuse(r, "path too long");
    if (!realpath(joined, out)) return errno == ENOENT ? gone(r, "no such cgroup") : failed(r, "realpath");
    if (!path_below(out, H.v2root)) return refuse(r, "not a cgroup strictly below the v2 root");
    if (!is_cgroup2_dir(out)) return refuse(r, "not a cgroup v2 directory");
    return check_unprotected(out, r);
}

static int is_quarantine(const char *dir) {
    const char *last = strrchr(dir, '/');
    size_t n = strlen(QUARANTINE_PREFIX);
    return last && !strncmp(last + 1, QUARANTINE_PREFIX, n) && last[1 + n] != '\0';
}

/* errno after a failed write to a cgroup: the cgroup gone, or the write refused. */
static int cgroup_write_failed(const char *dir, const char *file, struct reply *r) {
    if (errno == ENOENT && access(dir, F_OK) != 0) return gone(r, "no such cgroup");
    return failed(r, file);
}

/* ---- Verbs on cgroups ---- */

static int do_cgroup_write(const struct request *q, const char *file, const char *value, struct reply *r) {
    char dir[PATH_MAX];
    if (resolve_cgroup(q->text, dir, r)) return -1;
    if (write_at(dir, file, value)) return cgroup_write_failed(dir, file, r);
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
    if (resolve_cgroup(q->text, v2dir, r) || pids_max_file(q->text, v2dir, file, r)) return -1;
    if (read_small(file, old, sizeof old) < 0) return failed(r, "read pids.max");
    old[strcspn(old, "\n")] = '\0';
    if (q->value < 0) memcpy(value, "max", 4);
    else snprintf(value, sizeof value, "%lld", q->value);
    char *slash = strrchr(file, '/');
    *slash = '\0';
    if (write_at(file, "pids.max", value)) return cgroup_write_failed(file, "pids.max", r);
    reply_reset(r);
    reply_add(r, "OK %s", old);
    return 0;
}

/* Appends the pids in DIRFD's cgroup.procs; a cgroup removed meanwhile has none. */
static int append_procs(int dirfd, struct reply *r) {
    int fd = openat(dirfd, "cgroup.procs", O_RDONLY | O_CLOEXEC);
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

static int do_members(const struct request *q, struct reply *r) {
    char dir[PATH_MAX];
    if (resolve_cgroup(q->text, dir, r)) return -1;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return errno == ENOENT ? gone(r, "no such cgroup") : failed(r, "open");
    ok(r);
    int rc = list_members_at(fd, r, 0);
    close(fd);
    return rc ? failed(r, "read cgroup.procs") : 0;
}

static int do_quarantine(const struct request *q, struct reply *r) {
    char rel[PATH_MAX], joined[PATH_MAX], dir[PATH_MAX];
    if (!H.v2root[0]) { errno = ENOENT; return failed(r, "no cgroup v2 tree"); }
    snprintf(rel, sizeof rel, "/" QUARANTINE_PREFIX "%.64s", q->text); /* the parser allows 64 chars */
    if (snprintf(joined, sizeof joined, "%s%s", H.v2root, rel) >= (int)sizeof joined) return refuse(r, "path too long");
    if (mkdir(joined, 0755) != 0 && errno != EEXIST) return failed(r, "mkdir");
    /* An existing one is reused: it still has to pass the checks (it could hold the console). */
    if (resolve_cgroup(rel, dir, r)) return -1;
    if (write_at(dir, "cgroup.freeze", "1")) return cgroup_write_failed(dir, "cgroup.freeze", r);
    reply_reset(r);
    reply_add(r, "OK %s", rel);
    return 0;
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

/* Thaws only once empty: thawing a full quarantine would let its processes run again. */
static int do_release(const struct request *q, struct reply *r) {
    char dir[PATH_MAX];
    if (resolve_cgroup(q->text, dir, r)) return -1;
    if (!is_quarantine(dir)) return refuse(r, "not a " QUARANTINE_PREFIX "* cgroup");
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
    return ok(r);
}

static int do_move(const struct request *q, struct reply *r) {
    char dir[PATH_MAX], value[32];
    if (resolve_cgroup(q->text, dir, r)) return -1;
    if (!is_quarantine(dir)) return refuse(r, "MOVE only moves into a " QUARANTINE_PREFIX "* cgroup");
    int fd = open_verified(q->pid, q->ticks, r);
    if (fd < 0) return -1;
    snprintf(value, sizeof value, "%lld", q->pid);
    int rc = write_at(dir, "cgroup.procs", value);
    int e = errno;
    close(fd);
    errno = e;
    if (rc) return errno == ESRCH ? gone(r, "no such process") : cgroup_write_failed(dir, "cgroup.procs", r);
    return ok(r);
}

/* ---- Verbs on processes ---- */

static int do_signal(const struct request *q, struct reply *r) {
    int fd = open_verified(q->pid, q->ticks, r);
    if (fd < 0) return -1;
    long rc = syscall(SYS_pidfd_send_signal, fd, (int)q->value, NULL, 0);
    int e = errno;
    close(fd);
    errno = e;
    if (rc != 0) return errno == ESRCH ? gone(r, "no such process") : failed(r, "pidfd_send_signal");
    return ok(r);
}

static int do_oomadj(const struct request *q, struct reply *r) {
    char dir[64], value[32];
    int fd = open_verified(q->pid, q->ticks, r);
    if (fd < 0) return -1;
    snprintf(dir, sizeof dir, "/proc/%lld", q->pid);
    snprintf(value, sizeof value, "%lld", q->value);
    int rc = write_at(dir, "oom_score_adj", value);
    int e = errno;
    close(fd);
    errno = e;
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

static int is_disposable(const char *path) {
    char cache[PATH_MAX];
    if (path_below(path, "/tmp") || path_below(path, "/var/tmp")) return 1;
    for (int i = 0; i < H.nroots; i++)
        if (path_below(path, H.roots[i])) return 1;
    if (H.home[0] && snprintf(cache, sizeof cache, "%s/.cache", H.home) < (int)sizeof cache && path_below(path, cache))
        return 1;
    return in_build_dir(path);
}

/*
 * Opens PATH for a mode change after every check of the protocol, and returns the descriptor
 * (ST filled from it) or -1 with the reply set. The descriptor must be the file the checks saw:
 * a swap after the lstat (a symlink, another file) is refused.
 */
static int open_disposable(const char *path, struct stat *st, struct reply *r) {
    char real[PATH_MAX];
    struct stat seen;
    if (path[0] != '/') return refuse(r, "not an absolute path");
    if (strstr(path, "..")) return refuse(r, "the path contains ..");
    if (is_system_path(path)) return refuse(r, "a system path");
    if (!is_disposable(path)) return refuse(r, "not below a disposable root");
    if (!realpath(path, real)) return failed(r, "realpath");
    if (strcmp(real, path) != 0) return refuse(r, "the path has a symlink or is not canonical");
    if (lstat(path, &seen) != 0) return failed(r, "lstat");
    if (!S_ISREG(seen.st_mode)) return refuse(r, "not a regular file");
    if (seen.st_mode & (S_ISUID | S_ISGID)) return refuse(r, "a setuid or setgid file");
    /* A hard link in /tmp to a system binary passes every path check: one name only. */
    if (seen.st_nlink != 1) return refuse(r, "a file with more than one hard link");
    /* O_NONBLOCK: should a FIFO be swapped in, the open must not hang the helper. */
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) return errno == ELOOP ? refuse(r, "the path has a symlink") : failed(r, "open");
    const char *why = NULL;
    if (fstat(fd, st) != 0) why = "cannot fstat";
    else if (!S_ISREG(st->st_mode) || st->st_dev != seen.st_dev || st->st_ino != seen.st_ino) why = "the file changed while it was checked";
    else if (st->st_mode & (S_ISUID | S_ISGID)) why = "a setuid or setgid file";
    else if (st->st_nlink != 1) why = "a file with more than one hard link";
    if (why) { close(fd); return refuse(r, why); }
    return fd;
}

static int do_revoke(const struct request *q, struct reply *r) {
    struct stat st;
    int fd = open_disposable(q->text, &st, r);
    if (fd < 0) return -1;
    mode_t old = st.st_mode & 07777;
    int rc = fchmod(fd, old & ~(mode_t)0111);
    int e = errno;
    close(fd);
    errno = e;
    if (rc) return failed(r, "fchmod");
    reply_reset(r);
    reply_add(r, "OK %o", (unsigned)old);
    return 0;
}

/* Only execute bits come back: RESTORE must not be a way to chmod anything else. */
static int do_restore(const struct request *q, struct reply *r) {
    struct stat st;
    int fd = open_disposable(q->text, &st, r);
    if (fd < 0) return -1;
    mode_t now = st.st_mode & 07777, wanted = (mode_t)q->value;
    if ((wanted & now) != now || (wanted & ~now & ~(mode_t)0111) != 0) {
        close(fd);
        return refuse(r, "the mode must be the current mode plus execute bits");
    }
    int rc = fchmod(fd, wanted);
    int e = errno;
    close(fd);
    errno = e;
    return rc ? failed(r, "fchmod") : ok(r);
}

/* ---- Serving ---- */

static void execute(const struct request *q, struct reply *r) {
    switch (q->verb) {
    case VERB_HELLO: reply_reset(r); reply_add(r, "OK runaway-helper 1 uid=%u", (unsigned)geteuid()); break;
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

/* Logs to authpriv: who asked (the pkexec caller) for what, and the answer. */
static void log_request(const char *line, long len, const char *reply) {
    char shown[512];
    size_t j = 0;
    if (len == LINE_TOO_LONG) len = 0;
    for (long i = 0; i < len && j < sizeof shown - 1; i++) {
        unsigned char c = (unsigned char)line[i];
        shown[j++] = c >= 0x20 && c <= 0x7e ? (char)c : '?';
    }
    shown[j] = '\0';
    syslog(LOG_AUTHPRIV | LOG_INFO, "caller uid %u: %s -> %.1024s", (unsigned)H.caller, shown, reply);
}

static int answer(const char *line, long len, const char *reply) {
    log_request(line, len, reply);
    return printf("%s\n", reply) < 0 || fflush(stdout) != 0 ? -1 : 0;
}

static int serve(void) {
    static char line[LINE_BYTES];
    static struct request req;
    struct reply r = { NULL, 0, 0, 0 };
    for (long served = 0;; served++) {
        long len = read_line(stdin, line);
        if (len == LINE_END) return EXIT_STDIN_CLOSED;
        if (served == MAX_REQUESTS) {
            answer(line, len, "ERR refused too many requests");
            return EXIT_TOO_MANY;
        }
        const char *why = NULL;
        reply_reset(&r);
        if (len == LINE_TOO_LONG) reply_add(&r, "ERR usage line too long");
        else if (parse_request(line, (size_t)len, &req, &why)) reply_add(&r, "ERR usage %s", why);
        else execute(&req, &r);
        const char *text = r.oom || !r.cap ? "ERR failed out of memory" : r.text;
        if (answer(line, len, text)) return EXIT_STDIN_CLOSED; /* nobody reads the replies any more */
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
    int v1 = access(V1_PIDS_ROOT "/cgroup.procs", F_OK) == 0 && access(V1_PIDS_ROOT "/cgroup.controllers", F_OK) != 0;
    if (!v1 || !realpath(V1_PIDS_ROOT, H.v1pids)) H.v1pids[0] = '\0';
}

static void find_home(void) {
    struct passwd *pw = getpwuid(H.caller);
    if (!pw || !pw->pw_dir || pw->pw_dir[0] != '/' || !realpath(pw->pw_dir, H.home) || !strcmp(H.home, "/"))
        H.home[0] = '\0';
}

/* The caller is PKEXEC_UID (pkexec runs us as root for that user), else the real uid. The
 * environment is the caller's, so nothing else of it is kept. */
static void take_environment(void) {
    char uid_text[32] = "";
    const char *pkexec = getenv("PKEXEC_UID");
    if (pkexec && snprintf(uid_text, sizeof uid_text, "%s", pkexec) >= (int)sizeof uid_text) die(EXIT_USAGE, "bad PKEXEC_UID", NULL);
    if (clearenv() != 0 || setenv("PATH", "/usr/sbin:/usr/bin:/sbin:/bin", 1) != 0) die(EXIT_USAGE, "cannot reset the environment", NULL);
    long long uid = getuid();
    if (pkexec && parse_number(uid_text, 10, 0, (long long)UINT_MAX - 1, &uid)) die(EXIT_USAGE, "bad PKEXEC_UID", uid_text);
    H.caller = (uid_t)uid;
}

#ifndef RUNAWAY_HELPER_NO_MAIN
int main(int argc, char **argv) {
    if (argc < 1) return EXIT_USAGE; /* an empty argv: refuse at once (CVE-2021-4034) */
    if (geteuid() != 0) die(EXIT_NOT_ROOT, "must run as root (through pkexec)", NULL);
    take_environment();
    const char *config = DEFAULT_CONFIG;
    int explicit_config = argc == 3 && !strcmp(argv[1], "--config");
    if (explicit_config) config = argv[2];
    else if (argc != 1) die(EXIT_USAGE, "usage: runaway-helper [--config FILE]", NULL);
    umask(022);
    if (chdir("/") != 0) die(EXIT_USAGE, "cannot chdir to /", NULL);
    openlog("runaway-helper", LOG_PID, LOG_AUTHPRIV);
    H.self = getpid();
    find_cgroup_roots();
    if (record_chain() != 0) die(EXIT_CHAIN, "cannot read the parent chain:", strerror(errno));
    refresh_protected();
    if (load_config(config, explicit_config) != 0) {
        if (explicit_config) die(EXIT_USAGE, "refusing the config file", config);
        fprintf(stderr, "runaway-helper: ignoring %s\n", config); /* fewer roots only refuses more */
    }
    find_home();
    return serve();
}
#endif
