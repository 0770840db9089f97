// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.act;

import dev.runaway.model.ProcessIdentity;
import dev.runaway.procfs.ProcStat;
import dev.runaway.sys.Errno;
import dev.runaway.sys.PidfdCalls;

import java.nio.file.Path;

/**
 * Signals a process by identity, never by pid alone: open a pidfd first (it names this process
 * and cannot come to name another), then check the start time in /proc, then signal through the
 * pidfd. A pid reused in between fails the check and gets nothing.
 */
public final class Pidfd {
    /** What became of a signal. */
    public enum Result { SENT, GONE, DENIED }

    private Pidfd() {
    }

    public static boolean available() {
        return PidfdCalls.available();
    }

    public static Result signal(Path procRoot, ProcessIdentity id, int signal) {
        int fd = PidfdCalls.open(id.pid());
        if (fd < 0) return fd == -Errno.ESRCH ? Result.GONE : Result.DENIED;
        try {
            boolean same = ProcStat.read(procRoot, id.pid()).map(s -> s.startTicks() == id.startTicks()).orElse(false);
            if (!same) return Result.GONE;
            int sent = PidfdCalls.sendSignal(fd, signal);
            if (sent == 0) return Result.SENT;
            return sent == -Errno.EPERM ? Result.DENIED : Result.GONE;
        } finally {
            PidfdCalls.close(fd);
        }
    }
}
