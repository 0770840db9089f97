// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sys;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;

/**
 * The system calls a scan makes for every process (open, read and close of its /proc files,
 * readlink of its exe, stat of its directory), mapped directly: JNA's interface proxies go
 * through reflection on each call, and a Java array passed to one is copied in and out whole
 * (ProcReader's 64 KiB buffer, for each exe link). One instance belongs to one reading thread
 * and keeps the native buffers the calls fill, copied into the caller's array as far as read.
 * Measured in a one-shot scan of 5,000 processes (docs/benchmarks.md, "Listing at
 * 5,000 processes").
 */
public final class ProcCalls {
    /** Whether the calls are there (Linux); elsewhere a reader uses Java's files. */
    public static final boolean AVAILABLE = Platform.isLinux();
    /** Where st_uid sits in struct stat: x86_64 and the generic layout (aarch64, riscv64); -1 where unknown. */
    private static final int STAT_UID_OFFSET = !AVAILABLE || !Platform.is64Bit() ? -1
            : Platform.isIntel() ? 28 : Platform.isARM() ? 24 : -1;
    private static final int O_RDONLY = 0;
    private static final int O_CLOEXEC = 0x80000;
    private static final int STAT_BYTES = 256;

    static {
        if (AVAILABLE) {
            Jna.knownPaths();
            Native.register(ProcCalls.class, NativeLibrary.getInstance(Jna.LIBC));
        }
    }

    private final Memory data;
    private final Memory stat = new Memory(STAT_BYTES);

    /** With a data buffer of {@code bufferBytes}: the most a {@link #read} returns. */
    public ProcCalls(int bufferBytes) {
        if (!AVAILABLE) throw new UnsupportedOperationException("no libc calls on " + System.getProperty("os.name"));
        this.data = new Memory(bufferBytes);
    }

    /**
     * A whole file, up to {@code into.length} bytes, into {@code into}; its length, or -1 when it
     * cannot be opened or read (a process gone, even mid-read).
     */
    public int read(String path, byte[] into) {
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) return -1;
        try {
            int total = 0;
            while (total < into.length) {
                long got = read(fd, data.share(total), into.length - total);
                if (got < 0) return -1;
                if (got == 0) break;
                total += (int) got;
            }
            data.read(0, into, 0, total);
            return total;
        } finally {
            close(fd);
        }
    }

    /** A symlink's target, up to {@code maxBytes}, into {@code into}; its length, or -1 ({@link #errno} says why). */
    public int readlink(String path, byte[] into, int maxBytes) {
        long n = readlink(path, data, maxBytes);
        if (n <= 0) return -1;
        data.read(0, into, 0, (int) n);
        return (int) n;
    }

    /** Whether {@link #ownerUid} can answer here (the layout of struct stat is known). */
    public static boolean ownerKnown() {
        return STAT_UID_OFFSET >= 0;
    }

    /** The owner of {@code path} (st_uid); -1 when it cannot be stat'ed. Only where {@link #ownerKnown}. */
    public int ownerUid(String path) {
        if (stat(path, stat) != 0) return -1;
        return stat.getInt(STAT_UID_OFFSET); // native byte order, as the kernel wrote it
    }

    /** The errno of this thread's last call here (JNA keeps it per thread after each native call); see {@link Errno}. */
    public static int errno() {
        return Native.getLastError();
    }

    private static native int open(String path, int flags);

    private static native long read(int fd, Pointer buffer, long size);

    private static native int close(int fd);

    private static native long readlink(String path, Pointer buffer, long size);

    /** glibc 2.33 and later export stat itself; the buffer is a raw struct stat. */
    private static native int stat(String path, Pointer statBuffer);
}
