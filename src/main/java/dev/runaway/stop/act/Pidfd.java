// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.act;

import com.sun.jna.LastErrorException;
import com.sun.jna.Platform;
import dev.runaway.model.ProcessIdentity;
import dev.runaway.procfs.ProcStat;
import dev.runaway.sys.LibC;

import java.nio.file.Path;

/**
 * Signals a process by identity, never by pid alone: open a pidfd first (it names this process
 * and cannot come to name another), then check the start time in /proc, then signal through the
 * pidfd. A pid reused in between fails the check and gets nothing.
 */
public final class Pidfd {
    /** The generic syscall numbers, the same on x86_64 and aarch64. */
    private static final long SYS_PIDFD_SEND_SIGNAL = 424;
    private static final long SYS_PIDFD_OPEN = 434;
    private static final int ESRCH = 3;
    private static final int EPERM = 1;

    /** What became of a signal. */
    public enum Result { SENT, GONE, DENIED }

    private Pidfd() {
    }

    public static boolean available() {
        return Platform.isLinux();
    }

    public static Result signal(Path procRoot, ProcessIdentity id, int signal) {
        int fd;
        try {
            fd = LibC.INSTANCE.syscall(SYS_PIDFD_OPEN, id.pid(), 0);
        } catch (LastErrorException e) {
            return e.getErrorCode() == ESRCH ? Result.GONE : Result.DENIED;
        }
        try {
            boolean same = ProcStat.read(procRoot, id.pid()).map(s -> s.startTicks() == id.startTicks()).orElse(false);
            if (!same) return Result.GONE;
            LibC.INSTANCE.syscall(SYS_PIDFD_SEND_SIGNAL, fd, signal, null, 0);
            return Result.SENT;
        } catch (LastErrorException e) {
            return e.getErrorCode() == EPERM ? Result.DENIED : Result.GONE;
        } finally {
            LibC.INSTANCE.close(fd);
        }
    }
}
