// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.target;

import dev.runaway.procfs.ProcReader;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;

/**
 * /proc/PID/exe of many processes, read by a few threads so that no one process can hold the
 * others up. Reading a process's exe link waits while that process is in the middle of an exec,
 * and the process, one ordinary task of the runaway, waits its turn for a CPU behind thousands
 * of others: at 20,000 pressing tasks a stop sat in one such readlink for over 90 s (bench stop,
 * issue 14). A fork copies the memory map under the same lock, refused forks at a cap included,
 * so at 20,000 pressing tasks all 8 readers can wait at once: when no read returns for 10 ms,
 * 8 more take the pids left (at most 256). Reads that have not returned once every pid was
 * taken and nothing moved for a while are left unknown; their threads finish on their own later.
 */
public final class ExeReads {
    /** The exe of each pid read (empty when the process was gone), and the pids whose read had not returned. */
    public record Result(Map<Integer, String> exes, Set<Integer> unknown) {
    }

    private static final int THREADS = 8;
    /** Readers are added, THREADS at a time, when no read returned for this long; at most this many. */
    private static final long ADD_AFTER_NANOS = 10_000_000;
    private static final int MAX_THREADS = 256;

    private ExeReads() {
    }

    public static Result read(Path proc, int[] pids, long stallMillis) {
        return read(pids, () -> new ProcReader(proc)::exe, stallMillis); // one reader (one buffer) per thread
    }

    /** Starts up to MORE readers; returns how many run now. At a task cap a thread is a task too: none may start. */
    private static int start(Runnable work, int running, int more) {
        for (int i = 0; i < more && running < MAX_THREADS; i++) {
            Thread t = new Thread(null, work, "runaway-exe-" + running, 256 * 1024);
            t.setDaemon(true);
            try {
                t.start();
            } catch (OutOfMemoryError noThread) {
                return running; // the readers there are must do
            }
            running++;
        }
        return running;
    }

    /** With {@code readers} giving each thread its own reading function. */
    static Result read(int[] pids, java.util.function.Supplier<java.util.function.IntFunction<String>> readers, long stallMillis) {
        AtomicInteger next = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        AtomicReferenceArray<String> out = new AtomicReferenceArray<>(pids.length);
        Runnable work = () -> {
            java.util.function.IntFunction<String> reader = readers.get();
            try (var raised = dev.runaway.sys.Sched.raisedWhile()) {
                for (int at; (at = next.getAndIncrement()) < pids.length; ) {
                    out.set(at, reader.apply(pids[at]));
                    done.incrementAndGet();
                }
            }
        };
        int threads = 0;
        threads = start(work, threads, Math.min(THREADS, Math.max(1, pids.length)));
        if (threads == 0) work.run(); // no thread could start (at the cap): read here, one by one, as before ExeReads
        long stall = stallMillis * 1_000_000L;
        int seen = -1;
        long movedAt = System.nanoTime();
        long addedAt = movedAt;
        while (done.get() < pids.length) {
            LockSupport.parkNanos(1_000_000);
            int now = done.get();
            long t = System.nanoTime();
            boolean claimed = next.get() >= pids.length;
            if (now != seen) {
                seen = now;
                movedAt = t;
            } else if (t - movedAt > stall && (claimed || threads >= MAX_THREADS)) {
                break;
            }
            // Every reader waiting on a process that holds its map's lock: more readers take the pids left.
            if (!claimed && threads < MAX_THREADS && t - movedAt > ADD_AFTER_NANOS && t - addedAt > ADD_AFTER_NANOS) {
                threads = start(work, threads, THREADS);
                addedAt = t;
            }
        }
        Map<Integer, String> exes = new HashMap<>();
        Set<Integer> unknown = new HashSet<>();
        for (int i = 0; i < pids.length; i++) {
            String exe = out.get(i);
            if (exe == null) unknown.add(pids[i]);
            else exes.put(pids[i], exe);
        }
        return new Result(exes, unknown);
    }
}
