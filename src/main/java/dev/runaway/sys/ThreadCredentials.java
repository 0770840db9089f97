// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sys;

import com.sun.jna.LastErrorException;

import java.util.concurrent.Callable;

/**
 * Root acting as another user on one thread only, for one call: the kernel keeps credentials per
 * thread, and glibc's setresuid() would change every thread of the JVM, so the system calls are
 * made directly. Used to connect to a user's session bus, which takes its peer's uid from the
 * socket (SO_PEERCRED, fixed at connect). The saved uid stays 0 so the thread can come back.
 */
public final class ThreadCredentials {
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
     * Runs CALL on this thread as uid/gid (real and effective), then as root again, whatever
     * happened. CALL must start no thread: a thread takes its starter's credentials and would stay
     * the user's for its whole life (and the user could signal the process through it).
     */
    public static <T> T as(int uid, int gid, Callable<T> call) throws Exception {
        if (uid == 0) return call.call();
        try {
            LibC.INSTANCE.syscall(setresgid(), gid, gid, 0);
            LibC.INSTANCE.syscall(setresuid(), uid, uid, 0);
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
