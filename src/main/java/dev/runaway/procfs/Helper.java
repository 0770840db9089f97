// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import dev.runaway.model.ProcessSample;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * A second reading thread for the process table. Most of a scan's time is the kernel's, per
 * file; on a machine with two cores, half the files are read here while the scan thread reads
 * the other half (and lists the directory). Small batches are not worth the hand-off and stay
 * on the caller's thread.
 */
final class Helper {
    /** Below this many pids a batch is read by the caller alone. */
    static final int PARALLEL_FROM = 128;

    /**
     * Started with the class, not on the first large batch: a console opened before the fire, on
     * a calm machine whose batches are all small, must not need a new thread once the runaway
     * holds every task its cgroup allows.
     */
    private static final ExecutorService WORKER = started();
    private static final ThreadLocal<Map<Path, ProcReader>> READERS = ThreadLocal.withInitial(HashMap::new);

    private Helper() {
    }

    private static ExecutorService started() {
        java.util.concurrent.ThreadPoolExecutor pool = new java.util.concurrent.ThreadPoolExecutor(1, 1, 0,
                java.util.concurrent.TimeUnit.SECONDS, new java.util.concurrent.LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(() -> {
                        dev.runaway.sys.Sched.aheadOfOrdinaryTasks(); // as the scan thread it helps
                        r.run();
                    }, "runaway-scan-helper");
                    t.setDaemon(true);
                    return t;
                });
        try {
            pool.prestartAllCoreThreads();
        } catch (OutOfMemoryError noThread) {
            // at a task cap already: every batch is read on the caller's thread (see submit)
        }
        return pool;
    }

    private static ProcReader reader(Path root) {
        return READERS.get().computeIfAbsent(root, ProcReader::new);
    }

    /** Stats of these pids on the helper thread, or now with the caller's reader when few. */
    static Future<Map<Integer, ProcStat>> submit(ProcReader caller, List<Integer> pids, ProcessTable.StatFilter filter) {
        List<Integer> copy = List.copyOf(pids);
        if (copy.size() < PARALLEL_FROM) return CompletableFuture.completedFuture(ProcessTable.readStats(copy, caller, filter));
        Path root = caller.root();
        try {
            return WORKER.submit(() -> ProcessTable.readStats(copy, reader(root), filter));
        } catch (OutOfMemoryError noThread) { // the helper thread is gone and no new one may start (a task cap)
            return CompletableFuture.completedFuture(ProcessTable.readStats(copy, caller, filter));
        }
    }

    /** New pids read whole on the helper thread, or now with the caller's reader when few. */
    static Future<Map<Integer, ProcessSample>> submitAdmit(ProcReader caller, List<Integer> pids, ProcessTable.Admitter admitter) {
        List<Integer> copy = List.copyOf(pids);
        if (copy.size() < PARALLEL_FROM) return CompletableFuture.completedFuture(admitter.admit(copy, caller));
        Path root = caller.root();
        try {
            return WORKER.submit(() -> admitter.admit(copy, reader(root)));
        } catch (OutOfMemoryError noThread) { // the helper thread is gone and no new one may start (a task cap)
            return CompletableFuture.completedFuture(admitter.admit(copy, caller));
        }
    }

    static <T> T join(Future<T> future) {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the scan helper read /proc", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("the scan helper failed", e.getCause());
        }
    }
}
