// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import java.io.File;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * The live threads of a process whose main thread ended while others run (pthread_exit in the
 * leader). The kernel keeps the leader as a zombie until the last thread goes: /proc/PID/stat
 * says Z, and /proc/PID/exe and cmdline read empty (they read the leader's memory map, which is
 * gone), while its other threads run, fork and exec as before. Such a process is alive: what it
 * is and does is read through one of its live threads, /proc/PID/task/TID (measured on kernel
 * 6.18, STACK-NOTES "Zombie leaders"). Only a stat that says Z with more than one thread is
 * looked at here, so the scan of every process does not list every task directory.
 */
public final class LiveThreads {
    private LiveThreads() {
    }

    /**
     * The task directory of a live thread of process {@code pid} when its leader exited (its stat
     * says Z with more than one thread, and one of them lives); empty otherwise.
     */
    public static Optional<Path> taskDir(Path procRoot, int pid) {
        Optional<ProcStat> stat = ProcStat.readFile(procRoot.resolve(pid + "/stat"));
        if (stat.isEmpty() || !stat.get().mayHaveLiveThreads()) return Optional.empty();
        return of(procRoot, pid).map(thread -> procRoot.resolve(pid + "/task/" + thread.pid()));
    }

    /** A live thread's stat (as {@link #of(String, int, IntFunction)}), read through files. */
    static Optional<ProcStat> of(Path procRoot, int pid) {
        return of(procRoot.toString(), pid, tid -> ProcStat.readFile(procRoot.resolve(pid + "/task/" + tid + "/stat")));
    }

    /**
     * The stat of a live thread (not Z or X) of process {@code pid} other than its leader, read by
     * {@code statOfTask} (a tid's /proc/PID/task/TID/stat); empty when none lives: a true zombie.
     */
    static Optional<ProcStat> of(String procRoot, int pid, IntFunction<Optional<ProcStat>> statOfTask) {
        String[] tids = new File(procRoot + "/" + pid + "/task").list();
        if (tids == null) return Optional.empty();
        for (String name : tids) {
            int tid;
            try {
                tid = Integer.parseInt(name);
            } catch (NumberFormatException notATask) {
                continue;
            }
            if (tid == pid) continue;
            Optional<ProcStat> thread = statOfTask.apply(tid);
            if (thread.isPresent() && !thread.get().isZombie()) return thread;
        }
        return Optional.empty();
    }
}
