// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sys;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * Every thread of this process raised ({@link Sched#raisedWhile(int)} each), and on each
 * {@link #sweep()} the threads started since and those that lowered themselves. Why every one:
 * a collection, and the JVM's periodic safepoints, stop all Java threads; they wait for the
 * slowest thread to reach its safepoint, and an ordinary thread that was runnable in Java code
 * waits seconds for a CPU at a load of 12,000 (the console's JavaFX thread froze 0.4-6 s while
 * only it and the toolkit's threads were raised). A thread blocked in a read or a wait is
 * already at its safepoint; only runnable ones matter, and a sweep catches new ones within its
 * period. A thread some holder had raised before ("already") is left to that holder, unless it
 * is found ordinary again at a sweep; then this raise takes it over.
 *
 * <p>Not the JIT's compiler threads: a compiling thread is at its safepoint (in the VM, not in
 * Java code), and at one real-time priority with the window's threads its compiles (up to 45 % of
 * a CPU during a fire, bench ui) took whole 100 ms turns while the JavaFX thread, runnable, waited
 * 750 ms for a CPU.
 *
 * <p>Another process's threads can be raised the same way ({@link #ofProcess}): the console's X
 * server, which the JavaFX thread waits on for every round trip. The caller says whether the pid
 * still names that process, so a pid that has been reused is neither swept nor put back.
 */
public final class AllThreadsRaise implements AutoCloseable {
    private final Map<Integer, Sched.Raised> raised = new HashMap<>();
    private final Path tasks;
    /** Whether the process raised is still the one it was (always, for this process). */
    private final BooleanSupplier sameProcess;
    private final boolean display;
    private boolean closed;

    private AllThreadsRaise(Path tasks, BooleanSupplier sameProcess, boolean display) {
        this.tasks = tasks;
        this.sameProcess = sameProcess;
        this.display = display;
    }

    /** Raises every thread of this process now. */
    public static AllThreadsRaise start() {
        AllThreadsRaise r = new AllThreadsRaise(Path.of("/proc/self/task"), () -> true, false);
        r.sweep();
        return r;
    }

    /**
     * Raises every thread of process {@code pid} now, at the display's priority (it is for the
     * window's X server: {@link Sched#raisedForDisplay}), while {@code sameProcess} says the pid
     * still names the process meant (its start time, read by the caller). Privilege needed:
     * without it nothing changes ({@link #changedAny()} is false).
     */
    public static AllThreadsRaise ofProcess(int pid, BooleanSupplier sameProcess) {
        AllThreadsRaise r = new AllThreadsRaise(Path.of("/proc/" + pid + "/task"), sameProcess, true);
        r.sweep();
        return r;
    }

    /** Whether any thread's scheduling was changed by this raise (and is held now). */
    public synchronized boolean changedAny() {
        return raised.values().stream().anyMatch(Sched.Raised::changed);
    }

    /**
     * Raises the threads started since the last sweep and those this raise had raised that are
     * at the ordinary policy again; forgets those gone. Cheap: one listing of /proc/self/task
     * and one system call per thread.
     */
    public synchronized void sweep() {
        if (closed) return;
        if (!sameProcess.getAsBoolean()) {
            raised.clear(); // exited (and its pid perhaps reused): nothing of it to raise or put back
            return;
        }
        Set<Integer> live = new HashSet<>(threads(tasks));
        raised.keySet().retainAll(live);
        for (int tid : live) {
            if (compiler(tasks, tid)) continue;
            Sched.Raised r = raised.get(tid);
            if (r == null || (!r.words().isEmpty() && Sched.ordinary(tid))) {
                raised.put(tid, display ? Sched.raisedForDisplay(tid) : Sched.raisedWhile(tid));
            }
        }
    }

    /** What the threads got, counted ("SCHED_RR 1 × 41, already × 6"). */
    public synchronized String words() {
        Map<String, Integer> counts = new java.util.TreeMap<>();
        for (Sched.Raised r : raised.values()) counts.merge(r.words().isEmpty() ? "nothing" : r.words(), 1, Integer::sum);
        return String.join(", ", counts.entrySet().stream().map(e -> e.getKey() + " × " + e.getValue()).toList());
    }

    /** Puts back the threads this raise raised that are still this process's. */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        // A thread id that left the task list may name another process's thread by now.
        if (!sameProcess.getAsBoolean()) {
            raised.clear();
            return;
        }
        Set<Integer> live = new HashSet<>(threads(tasks));
        for (Map.Entry<Integer, Sched.Raised> e : raised.entrySet()) {
            if (live.contains(e.getKey())) e.getValue().close();
        }
        raised.clear();
    }

    /**
     * Every thread of this process that is real-time by inheritance put back to the ordinary
     * policy: for a process started real-time as a whole, once it no longer needs to be. Threads
     * this code raised on purpose (the scans', each with reset-on-fork) keep their raise. Returns
     * how many were lowered.
     */
    public static int lowerInherited() {
        int lowered = 0;
        for (int tid : threads()) {
            if (!Sched.inheritedRealtime(tid)) continue;
            Sched.ordinaryAgain(tid);
            lowered++;
        }
        return lowered;
    }

    /** HotSpot's compiler threads ("C1 CompilerThread0", "C2 CompilerThread1", as the kernel cuts them: 15 characters). */
    static boolean compiler(Path tasks, int tid) {
        try {
            return Files.readString(tasks.resolve(tid + "/comm")).strip().matches("C[12] CompilerThre.*");
        } catch (IOException | RuntimeException gone) {
            return false;
        }
    }

    /** This process's thread ids (empty when /proc/self/task cannot be read). */
    static List<Integer> threads() {
        return threads(Path.of("/proc/self/task"));
    }

    /** The thread ids in a task list (empty when it cannot be read). */
    static List<Integer> threads(Path taskDir) {
        try (Stream<Path> tasks = Files.list(taskDir)) {
            return tasks.map(p -> Integer.parseInt(p.getFileName().toString())).toList();
        } catch (IOException | RuntimeException unreadable) {
            return List.of();
        }
    }
}
