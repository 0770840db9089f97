// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sys;

import com.sun.jna.LastErrorException;
import com.sun.jna.Platform;

/**
 * pidfd_open and pidfd_send_signal, by their generic syscall numbers (the same on x86_64 and
 * aarch64; glibc 2.36 is the first with wrappers). Errors come back as a negative errno, so the
 * caller (stop/act/Pidfd) decides on named numbers, not on exceptions of the native layer.
 */
public final class PidfdCalls {
    private static final long SYS_PIDFD_SEND_SIGNAL = 424;
    private static final long SYS_PIDFD_OPEN = 434;

    private PidfdCalls() {
    }

    public static boolean available() {
        return Platform.isLinux();
    }

    /** A pidfd naming {@code pid}, or -errno. */
    public static int open(int pid) {
        try {
            return LibC.INSTANCE.syscall(SYS_PIDFD_OPEN, pid, 0);
        } catch (LastErrorException e) {
            return -e.getErrorCode();
        }
    }

    /** Sends {@code signal} through the pidfd: 0, or -errno. */
    public static int sendSignal(int pidfd, int signal) {
        try {
            LibC.INSTANCE.syscall(SYS_PIDFD_SEND_SIGNAL, pidfd, signal, null, 0);
            return 0;
        } catch (LastErrorException e) {
            return -e.getErrorCode();
        }
    }

    public static void close(int fd) {
        LibC.INSTANCE.close(fd);
    }
}
