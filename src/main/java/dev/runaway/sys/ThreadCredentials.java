// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sys;

import com.sun.jna.LastErrorException;

import java.util.concurrent.Callable;

/**
 * Root acting as another user on one thread only, for one call: the kernel keeps credentials per
 * thread, and glibc's setresuid() would change every thread of the JVM, so the system calls are
 * made directly. Used to connect to a user's session bus, which takes its peer's uid from the
 * socket (SO_PEERCRED, fixed at connect: the effective uid). Only the effective (and so the file
 * system) ids change: the real and saved uid stay 0, so the thread can come back, and so the user
 * cannot signal it meanwhile (kill(2) lets a user signal a task whose real or saved uid is theirs;
 * a SIGKILL to one thread ends the whole guard).
 */
public final class ThreadCredentials {
    /** setresuid's "leave this one as it is". */
    private static final int UNCHANGED = -1;

    private ThreadCredentials() {
    }

    private static long setresuid() {
        return switch (System.getProperty("os.arch", "")) {
            case "aarch64" -> 147;
            default -> 117; // x86_64
        };
    }

    private static long setresgid() {
        return switch (System.getProperty("os.arch", "")) {
            case "aarch64" -> 149;
            default -> 119;
        };
    }

    /**
     * Runs CALL on this thread with uid/gid effective (real and saved stay root's), then as root again, whatever
     * happened. CALL must start no thread: a thread takes its starter's credentials and would stay
     * the user's for its whole life (and the user could signal the process through it).
     */
    public static <T> T as(int uid, int gid, Callable<T> call) throws Exception {
        if (uid == 0) return call.call();
        try {
            LibC.INSTANCE.syscall(setresgid(), UNCHANGED, gid, UNCHANGED);
            LibC.INSTANCE.syscall(setresuid(), UNCHANGED, uid, UNCHANGED);
        } catch (LastErrorException e) {
            back();
            throw new IllegalStateException("cannot act as uid " + uid + " (errno " + e.getErrorCode() + "): needs root");
        }
        try {
            return call.call();
        } finally {
            back();
        }
    }

    private static void back() {
        LibC.INSTANCE.syscall(setresuid(), 0, 0, 0);
        LibC.INSTANCE.syscall(setresgid(), 0, 0, 0);
    }
}
