// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sys;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Pointer;

/**
 * Files opened and changed through descriptors only, for actions taken as root on paths a user
 * may own a directory of. A path is resolved once, by {@code openat2} beneath a directory
 * descriptor with no symlink, no magic link and no "..", and everything after (the checks, the
 * mode change) uses that descriptor: a rename, a symlink or a bind mount swapped in afterwards
 * changes nothing we act on. Where the kernel lacks openat2 (before Linux 5.6) the open is
 * refused rather than done by path.
 */
public final class Beneath {
    /** The generic syscall number, the same on x86_64 and aarch64. */
    private static final long SYS_OPENAT2 = 437;

    /** The errno values a {@link Failed} carries, as its callers in stop/act name them (defined in {@link Errno}). */
    public static final int EPERM = Errno.EPERM;
    public static final int ENOENT = Errno.ENOENT;
    public static final int EACCES = Errno.EACCES;
    public static final int EXDEV = Errno.EXDEV;
    public static final int ENOTDIR = Errno.ENOTDIR;
    public static final int ENOSYS = Errno.ENOSYS;
    public static final int ELOOP = Errno.ELOOP;

    private static final int O_RDONLY = 0;
    private static final int O_WRONLY = 1;
    private static final int O_NOCTTY = 0400;
    private static final int O_NONBLOCK = 04000;
    private static final int O_DIRECTORY = 0200000;
    private static final int O_NOFOLLOW = 0400000;
    private static final int O_CLOEXEC = 02000000;
    private static final int O_PATH = 010000000;

    private static final long RESOLVE_NO_XDEV = 0x01;
    private static final long RESOLVE_NO_MAGICLINKS = 0x02;
    private static final long RESOLVE_NO_SYMLINKS = 0x04;
    private static final long RESOLVE_BENEATH = 0x08;

    private static final int AT_FDCWD = -100;
    private static final int AT_EMPTY_PATH = 0x1000;
    private static final int STATX_BASIC_STATS = 0x7ff;

    interface Calls extends Library {
        Calls INSTANCE = Jna.libc(Calls.class);

        /** openat2(dirfd, path, how, size). */
        int syscall(long number, int dirfd, String path, Pointer how, long size) throws LastErrorException;

        int open(String path, int flags) throws LastErrorException;

        int statx(int dirfd, String path, int flags, int mask, Pointer buffer) throws LastErrorException;

        int fchmod(int fd, int mode) throws LastErrorException;

        long write(int fd, byte[] buffer, long size) throws LastErrorException;

        int close(int fd);
    }

    /** A system call failed: its errno, and what was being done. */
    public static final class Failed extends Exception {
        private final int errno;

        Failed(String what, int errno) {
            super(what + ": " + describe(errno));
            this.errno = errno;
        }

        public int errno() {
            return errno;
        }
    }

    /** What fstat says of an open file (statx through its descriptor: the same layout on every architecture). */
    public record Stat(long device, long inode, int mode, int links, int uid) {
        public boolean regular() {
            return (mode & 0170000) == 0100000;
        }

        public int permissions() {
            return mode & 07777;
        }
    }

    /** An open descriptor; closed once. */
    public static final class Fd implements AutoCloseable {
        private final int fd;
        private boolean closed;

        private Fd(int fd) {
            this.fd = fd;
        }

        public Stat stat() throws Failed {
            return statx(fd, "", AT_EMPTY_PATH);
        }

        /** fchmod on this descriptor: the inode it names, whatever its path has become. */
        public void chmod(int mode) throws Failed {
            try {
                Calls.INSTANCE.fchmod(fd, mode);
            } catch (LastErrorException e) {
                throw new Failed("fchmod", e.getErrorCode());
            }
        }

        @Override
        public void close() {
            if (!closed) Calls.INSTANCE.close(fd);
            closed = true;
        }
    }

    private Beneath() {
    }

    /**
     * The directory at ABSOLUTE, walked from "/" with no symlink and no magic link on the way (a
     * mount may be crossed: /tmp often is one); an O_PATH descriptor, good only as a root below.
     */
    public static Fd directory(String absolute) throws Failed {
        if (!absolute.startsWith("/")) throw new IllegalArgumentException("not absolute: " + absolute);
        int slash;
        try {
            slash = Calls.INSTANCE.open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
        } catch (LastErrorException e) {
            throw new Failed("open /", e.getErrorCode());
        }
        try {
            if (absolute.equals("/")) return new Fd(slash);
            return new Fd(openat2(slash, absolute.substring(1), O_PATH | O_DIRECTORY,
                    RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS));
        } finally {
            if (!absolute.equals("/")) Calls.INSTANCE.close(slash);
        }
    }

    /**
     * The file at RELATIVE beneath DIR, opened for reading without blocking (a FIFO swapped in
     * cannot hang us) and without a controlling terminal: no symlink, no magic link, no "..",
     * no mount crossed.
     */
    public static Fd file(Fd dir, String relative) throws Failed {
        return new Fd(openat2(dir.fd, relative, O_RDONLY | O_NONBLOCK | O_NOCTTY,
                RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV));
    }

    /**
     * Writes VALUE to the file NAME directly beneath DIR (a cgroup's control file): no symlink,
     * no mount crossed, the directory the descriptor names even if it was renamed since.
     */
    public static void write(Fd dir, String name, String value) throws Failed {
        if (name.contains("/")) throw new IllegalArgumentException("not a name: " + name);
        int fd = openat2(dir.fd, name, O_WRONLY, RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV);
        try {
            byte[] bytes = value.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            Calls.INSTANCE.write(fd, bytes, bytes.length);
        } catch (LastErrorException e) {
            throw new Failed("write " + name, e.getErrorCode());
        } finally {
            Calls.INSTANCE.close(fd);
        }
    }

    private static int openat2(int dirfd, String path, int flags, long resolve) throws Failed {
        Memory how = new Memory(24); // struct open_how: u64 flags, u64 mode, u64 resolve
        how.setLong(0, flags | O_NOFOLLOW | O_CLOEXEC);
        how.setLong(8, 0);
        how.setLong(16, resolve);
        try {
            return Calls.INSTANCE.syscall(SYS_OPENAT2, dirfd, path, how, 24);
        } catch (LastErrorException e) {
            throw new Failed("openat2 " + path, e.getErrorCode());
        }
    }

    /**
     * What PATH names, links followed: for /proc/PID/exe, the file that process runs (a magic
     * link to the open file, not a name resolved again), comparable with {@link Fd#stat}.
     */
    public static Stat following(String path) throws Failed {
        return statx(AT_FDCWD, path, 0);
    }

    private static Stat statx(int dirfd, String path, int flags) throws Failed {
        Memory buffer = new Memory(256); // struct statx
        buffer.clear();
        try {
            Calls.INSTANCE.statx(dirfd, path, flags, STATX_BASIC_STATS, buffer);
        } catch (LastErrorException e) {
            throw new Failed("statx " + path, e.getErrorCode());
        }
        long device = ((long) buffer.getInt(136) << 32) | (buffer.getInt(140) & 0xffffffffL);
        return new Stat(device, buffer.getLong(32), buffer.getShort(28) & 0xffff, buffer.getInt(16), buffer.getInt(20));
    }

    /** errno in words for the few the callers meet; the number otherwise. */
    public static String describe(int errno) {
        return switch (errno) {
            case EPERM -> "operation not permitted";
            case ENOENT -> "no such file";
            case EACCES -> "permission denied";
            case EXDEV -> "crosses a mount point";
            case ENOTDIR -> "a component is not a directory";
            case ENOSYS -> "this kernel has no openat2 (Linux 5.6 and later)";
            case ELOOP -> "a symlink on the way";
            default -> "errno " + errno;
        };
    }
}
