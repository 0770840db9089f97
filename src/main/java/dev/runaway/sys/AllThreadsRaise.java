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
 * server, which the JavaFX thread waits on for every round trip. That process is known by its
 * start time too, so a pid that has been reused is neither swept nor put back.
 */
public final class AllThreadsRaise implements AutoCloseable {
    private final Map<Integer, Sched.Raised> raised = new HashMap<>();
    private final Path tasks;
    /** The raised process's start time (stat field 22), or -1 for this process. */
    private final long startTicks;
    private final int pid;
    private boolean closed;

    private AllThreadsRaise(Path tasks, int pid, long startTicks) {
        this.tasks = tasks;
        this.pid = pid;
        this.startTicks = startTicks;
    }

    /** Raises every thread of this process now. */
    public static AllThreadsRaise start() {
        AllThreadsRaise r = new AllThreadsRaise(Path.of("/proc/self/task"), -1, -1);
        r.sweep();
        return r;
    }

    /**
     * Raises every thread of process {@code pid} now, at the display's priority (it is for the
     * window's X server: {@link Sched#raisedForDisplay}); privilege needed: without it nothing
     * changes and {@link #words()} says "nothing". Empty when the process is gone.
     */
    public static java.util.Optional<AllThreadsRaise> ofProcess(int pid) {
        long start = startTicks(pid);
        if (start < 0) return java.util.Optional.empty();
        return java.util.Optional.of(ofProcess(pid, start));
    }

    /** Raises process {@code pid}'s threads if it is the one that started at {@code startTicks}. */
    static AllThreadsRaise ofProcess(int pid, long startTicks) {
        AllThreadsRaise r = new AllThreadsRaise(Path.of("/proc/" + pid + "/task"), pid, startTicks);
        r.sweep();
        return r;
    }

    /** Whether the process raised is still the one it was (always, for this process). */
    private boolean sameProcess() {
        return pid < 0 || startTicks(pid) == startTicks;
    }

    /** Field 22 of /proc/PID/stat, -1 when the process is gone or unreadable. */
    static long startTicks(int pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[22 - 3]);
        } catch (IOException | RuntimeException gone) {
            return -1;
        }
    }

    /**
     * Raises the threads started since the last sweep and those this raise had raised that are
     * at the ordinary policy again; forgets those gone. Cheap: one listing of /proc/self/task
     * and one system call per thread.
     */
    public synchronized void sweep() {
        if (closed) return;
        if (!sameProcess()) {
            raised.clear(); // exited (and its pid perhaps reused): nothing of it to raise or put back
            return;
        }
        Set<Integer> live = new HashSet<>(threads(tasks));
        raised.keySet().retainAll(live);
        for (int tid : live) {
            if (compiler(tasks, tid)) continue;
            Sched.Raised r = raised.get(tid);
            if (r == null || (!r.words().isEmpty() && Sched.ordinary(tid))) {
                raised.put(tid, pid < 0 ? Sched.raisedWhile(tid) : Sched.raisedForDisplay(tid));
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
        if (!sameProcess()) {
            raised.clear();
            return;
        }
        Set<Integer> live = new HashSet<>(threads(tasks));
        for (Map.Entry<Integer, Sched.Raised> e : raised.entrySet()) {
            if (live.contains(e.getKey())) e.getValue().close();
        }
        raised.clear();
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
