// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sys;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;

/**
 * The system calls a scan makes for every process (open, read and close of its /proc files,
 * readlink of its exe, stat of its directory), mapped directly: JNA's interface proxies go
 * through reflection on each call, and a Java array passed to one is copied in and out whole
 * (ProcReader's 64 KiB buffer, for each exe link). Buffers here are native memory the caller
 * keeps. Measured in a one-shot scan of 5,000 processes (docs/benchmarks.md, "Listing at
 * 5,000 processes"). Errors are returned as -1; {@link #errno} reads the reason where one matters.
 */
public final class ProcCalls {
    static {
        Jna.knownPaths();
        Native.register(ProcCalls.class, NativeLibrary.getInstance(Jna.LIBC));
    }

    private ProcCalls() {
    }

    public static final int O_RDONLY = 0;
    public static final int O_CLOEXEC = 0x80000;
    /** No such file: for /proc/PID/exe, a process without a memory map (kernel thread, zombie, ended leader). */
    public static final int ENOENT = 2;

    /** The errno of this thread's last call here (JNA keeps it per thread after each native call). */
    public static int errno() {
        return Native.getLastError();
    }

    public static native int open(String path, int flags);

    public static native long read(int fd, Pointer buffer, long size);

    public static native int close(int fd);

    public static native long readlink(String path, Pointer buffer, long size);

    /** glibc 2.33 and later export stat itself; the buffer is a raw struct stat. */
    public static native int stat(String path, Pointer statBuffer);
}
