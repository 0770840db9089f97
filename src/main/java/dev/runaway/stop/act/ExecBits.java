// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.act;

import dev.runaway.model.ProcessIdentity;
import dev.runaway.procfs.ProcStat;
import dev.runaway.sys.Beneath;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The one way the in-process stop takes execute bits off a binary and puts them back: the same
 * rules the helper's REVOKE and RESTORE keep (docs/helper-protocol.md), so that {@code sudo
 * runaway stop}, a root console and the guard are no more a weapon than the helper is.
 *
 * <p>The path is opened once, from a descriptor of its disposable root, with no symlink, no
 * magic link, no ".." and no mount crossed ({@link Beneath}); every check is made on that
 * descriptor and fchmod acts on it. A user who owns the directory and swaps the binary for a
 * symlink to a root file, before the revoke or between revoke and restore, meets a refusal:
 * nothing root does here follows a name it checked earlier.
 *
 * <p>What binds a revoke: the file is regular, has one link (a hard link to a system binary
 * passes every path check), is not setuid or setgid, and a process of the confirmed stop runs it
 * now (its /proc/PID/exe is that inode, read between two start-time checks), owned by that
 * process's user (root's stop never changes a file of one user because another ran it), and by
 * the caller unless the caller is root. A restore puts back exactly the bits taken, on the same
 * device and inode the revoke changed, reached by the same path; anything else is refused and said.
 */
public final class ExecBits {
    /** Where a path's disposable root is: empty for a system path or one under no such root. */
    @FunctionalInterface
    public interface Roots {
        Optional<String> rootOf(String path);
    }

    /** Why a file was left alone; each reason one clear line. */
    public enum Refusal {
        NOT_CANONICAL("not a plain absolute path (.., ., //, a trailing /)"),
        NOT_DISPOSABLE("not below a disposable root, or a system path"),
        SYMLINK("a symlink on its path (it may have been swapped in)"),
        MOUNT_CROSSED("its path crosses a mount point"),
        NOT_A_DIRECTORY("a component of its path is not a directory"),
        NOT_REGULAR("not a regular file"),
        SETUID("a setuid or setgid file"),
        HARD_LINKS("a file with more than one hard link (it may be a system binary by another name)"),
        UNBOUND("no confirmed stop is bound: nothing to check the file against"),
        NOT_RUN_BY_STOP("no process of the confirmed stop runs that file now"),
        NOT_RUNNERS("the file is not owned by the user whose process of the stop runs it"),
        NOT_CALLERS("the file is not yours: only root changes another user's file, and only one their runaway runs"),
        NOT_REVOKED("this stop took no execute bits from that file"),
        REPLACED("the path now names another file than the one whose execute bits this stop took"),
        NOT_PERMITTED("the kernel refused (not your file)"),
        FAILED("a system call failed");

        private final String words;

        Refusal(String words) {
            this.words = words;
        }

        public String words() {
            return words;
        }
    }

    /** A revoke or restore refused: the reason as a type, with the file and detail for the line. */
    public static final class Refused extends Exception {
        private final Refusal refusal;

        Refused(String file, Refusal refusal, String detail) {
            super(file + ": " + refusal.words() + (detail.isEmpty() ? "" : " (" + detail + ")") + "; left as it is");
            this.refusal = refusal;
        }

        public Refusal refusal() {
            return refusal;
        }
    }

    /** What a revoke changed: the inode, its owner then (an inode number freed and reused by another's file differs there), the bits. */
    private record Taken(long device, long inode, int uid, int bits) {
    }

    private final Path procRoot;
    private final Roots roots;
    private final int callerUid;
    private final Map<String, Taken> taken = new HashMap<>();

    public ExecBits(Path procRoot, Roots roots, int callerUid) {
        this.procRoot = procRoot;
        this.roots = roots;
        this.callerUid = callerUid;
    }

    /** Takes the execute bits off FILE, run now by one of RUNNERS; returns its old mode. */
    public synchronized int revoke(String file, Collection<ProcessIdentity> runners) throws Refused {
        if (runners.isEmpty()) throw new Refused(file, Refusal.UNBOUND, "");
        try (Beneath.Fd fd = open(file)) {
            Beneath.Stat st = stat(file, fd);
            checkFile(file, st);
            checkRunBy(file, st, runners);
            int old = st.permissions();
            chmod(file, fd, old & ~0111);
            Taken before = taken.get(file);
            int bits = (before != null && before.inode == st.inode() && before.device == st.device() ? before.bits : 0) | (old & 0111);
            taken.put(file, new Taken(st.device(), st.inode(), st.uid(), bits));
            return old;
        }
    }

    /** True when this stop took bits off FILE in-process (else the helper did, or nobody). */
    public synchronized boolean tookFrom(String file) {
        return taken.containsKey(file);
    }

    /** Puts back exactly the bits {@link #revoke} took, on the same inode; returns the mode set. */
    public synchronized int restore(String file) throws Refused {
        Taken was = taken.get(file);
        if (was == null) throw new Refused(file, Refusal.NOT_REVOKED, "");
        try (Beneath.Fd fd = open(file)) {
            Beneath.Stat st = stat(file, fd);
            if (st.device() != was.device || st.inode() != was.inode || st.uid() != was.uid) throw new Refused(file, Refusal.REPLACED, "");
            checkFile(file, st); // a second link or a setuid bit added meanwhile: not ours to make executable
            int mode = st.permissions() | was.bits;
            chmod(file, fd, mode);
            taken.remove(file);
            return mode;
        }
    }

    private Beneath.Fd open(String file) throws Refused {
        if (!canonical(file)) throw new Refused(file, Refusal.NOT_CANONICAL, "");
        String root = roots.rootOf(file).orElseThrow(() -> new Refused(file, Refusal.NOT_DISPOSABLE, ""));
        if (!file.startsWith(root.endsWith("/") ? root : root + "/")) throw new Refused(file, Refusal.NOT_DISPOSABLE, "");
        String below = file.substring(root.length() + (root.endsWith("/") ? 0 : 1));
        try (Beneath.Fd dir = Beneath.directory(root)) {
            return Beneath.file(dir, below);
        } catch (Beneath.Failed e) {
            throw new Refused(file, switch (e.errno()) {
                case Beneath.ELOOP -> Refusal.SYMLINK;
                case Beneath.EXDEV -> Refusal.MOUNT_CROSSED;
                case Beneath.ENOTDIR -> Refusal.NOT_A_DIRECTORY;
                case Beneath.EACCES, Beneath.EPERM -> Refusal.NOT_PERMITTED;
                default -> Refusal.FAILED;
            }, e.getMessage());
        }
    }

    private static Beneath.Stat stat(String file, Beneath.Fd fd) throws Refused {
        try {
            return fd.stat();
        } catch (Beneath.Failed e) {
            throw new Refused(file, Refusal.FAILED, e.getMessage());
        }
    }

    private void checkFile(String file, Beneath.Stat st) throws Refused {
        if (!st.regular()) throw new Refused(file, Refusal.NOT_REGULAR, "");
        if ((st.mode() & 06000) != 0) throw new Refused(file, Refusal.SETUID, "");
        if (st.links() != 1) throw new Refused(file, Refusal.HARD_LINKS, st.links() + " links");
        if (callerUid != 0 && st.uid() != callerUid) throw new Refused(file, Refusal.NOT_CALLERS, "owner uid " + st.uid());
    }

    /** Some runner executes exactly this inode now, and owns it. */
    private void checkRunBy(String file, Beneath.Stat st, Collection<ProcessIdentity> runners) throws Refused {
        boolean runs = false;
        for (ProcessIdentity id : runners) {
            Optional<Integer> uid = runnerOf(id, st);
            if (uid.isEmpty()) continue;
            runs = true;
            if (uid.get() == st.uid()) return;
        }
        throw new Refused(file, runs ? Refusal.NOT_RUNNERS : Refusal.NOT_RUN_BY_STOP, runs ? "owner uid " + st.uid() : "");
    }

    /** The uid of ID when it runs the file ST now (start time read before and after); else empty. */
    private Optional<Integer> runnerOf(ProcessIdentity id, Beneath.Stat st) {
        if (!sameStart(id)) return Optional.empty();
        try {
            Path dir = procRoot.resolve(Integer.toString(id.pid()));
            Beneath.Stat exe = Beneath.following(dir.resolve("exe").toString());
            int uid = (Integer) Files.getAttribute(dir, "unix:uid");
            if (exe.device() != st.device() || exe.inode() != st.inode() || !sameStart(id)) return Optional.empty();
            return Optional.of(uid);
        } catch (Beneath.Failed | IOException | RuntimeException gone) {
            return Optional.empty();
        }
    }

    private boolean sameStart(ProcessIdentity id) {
        return ProcStat.read(procRoot, id.pid()).map(s -> s.startTicks() == id.startTicks()).orElse(false);
    }

    private static void chmod(String file, Beneath.Fd fd, int mode) throws Refused {
        try {
            fd.chmod(mode);
        } catch (Beneath.Failed e) {
            throw new Refused(file, e.errno() == Beneath.EPERM ? Refusal.NOT_PERMITTED : Refusal.FAILED, e.getMessage());
        }
    }

    /** Absolute, no empty, "." or ".." component, no trailing slash: the form the roots are compared in. */
    static boolean canonical(String path) {
        if (!path.startsWith("/") || path.length() < 2 || path.endsWith("/") || path.indexOf('\0') >= 0) return false;
        for (String part : path.substring(1).split("/", -1)) {
            if (part.isEmpty() || part.equals(".") || part.equals("..")) return false;
        }
        return true;
    }
}
