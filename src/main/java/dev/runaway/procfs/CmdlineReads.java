// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * Command lines of many processes, read by a few threads with a stall deadline, so that no one
 * process can hold a scan up. Reading /proc/PID/cmdline waits on that process's memory map, and
 * a process in the middle of a fork holds its map while it copies it: at 20,000 tasks pressing
 * on a cap (every refused fork copies the map first), such a process, one ordinary task among
 * thousands runnable, waits seconds for a CPU while the read waits on it (issue 14: no live scan
 * finished while measuring). Once no read has returned for the stall deadline, the batch ends:
 * what was not read is left unread for this scan. A read that returns after its batch ended is
 * handed over later ({@link #late}); its thread then goes back to the others. More threads are
 * started while too few are free, up to a limit; none when no thread may start (a task cap).
 */
final class CmdlineReads {
    /** A process whose command line is wanted; the ticket comes back with the answer. */
    record Request(int pid, long ticket) {
    }

    /** A command line read after its batch had ended. */
    record Late(int pid, long ticket, List<String> args) {
    }

    /**
     * @param args    the command lines read, by pid
     * @param waiting pids whose read is still under way: their answer comes through {@link #late}
     * @param notRead pids nobody started to read (all the threads were waiting)
     */
    record Result(Map<Integer, List<String>> args, Set<Integer> waiting, Set<Integer> notRead) {
        boolean complete() {
            return waiting.isEmpty() && notRead.isEmpty();
        }
    }

    /** Threads started with the reader; more while fewer than these are free. */
    static final int FREE_THREADS = 4;
    /** At most this many threads in all: each waiting thread holds one process's read. */
    static final int MAX_THREADS = 16;

    private static final Map<Path, CmdlineReads> SHARED = new ConcurrentHashMap<>();

    private final Supplier<IntFunction<List<String>>> readers;
    private final LinkedBlockingQueue<Batch> offers = new LinkedBlockingQueue<>();
    private final AtomicInteger threads = new AtomicInteger();
    private final AtomicInteger busy = new AtomicInteger();
    private final String name;

    /** One batch: threads take its requests in turn until it is done or ended. */
    private static final class Batch {
        final Request[] requests;
        final AtomicInteger next = new AtomicInteger();
        final Map<Integer, List<String>> read = new HashMap<>(); // guarded by this
        final Set<Integer> underway = new HashSet<>();           // guarded by this
        final java.util.Queue<Late> late;
        boolean ended;                                            // guarded by this

        Batch(Request[] requests, java.util.Queue<Late> late) {
            this.requests = requests;
            this.late = late;
        }
    }

    /** With {@code readers} giving each thread its own reading function (a {@link ProcReader} holds one buffer). */
    CmdlineReads(Supplier<IntFunction<List<String>>> readers, String name) {
        this.readers = readers;
        this.name = name;
        for (int i = 0; i < FREE_THREADS; i++) startThread();
    }

    /**
     * The reader for this /proc, one per root for the whole JVM: its threads are started with the
     * first table (a console opened before the fire has them when the runaway holds every task).
     */
    static CmdlineReads of(Path root) {
        return SHARED.computeIfAbsent(root, r -> new CmdlineReads(() -> new ProcReader(r)::cmdline, "runaway-cmdline"));
    }

    /** Threads alive (waiting or free). */
    int threads() {
        return threads.get();
    }

    /**
     * Reads the command lines asked for; returns once all are read or no read has returned for
     * {@code stallMillis}. Answers of reads still under way then go to {@code late}.
     */
    Result read(List<Request> requests, long stallMillis, java.util.Queue<Late> late) {
        if (requests.isEmpty()) return new Result(Map.of(), Set.of(), Set.of());
        Batch batch = new Batch(requests.toArray(new Request[0]), late);
        while (threads.get() - busy.get() < FREE_THREADS && threads.get() < MAX_THREADS && startThread()) {
            // more threads: the others wait on reads that have not returned
        }
        for (int i = 0, n = threads.get(); i < n; i++) offers.add(batch); // each free thread takes a share
        long stall = TimeUnit.MILLISECONDS.toNanos(stallMillis);
        synchronized (batch) {
            int seen = -1;
            long movedAt = System.nanoTime();
            while (batch.read.size() < batch.requests.length) {
                int now = batch.read.size();
                if (now != seen) {
                    seen = now;
                    movedAt = System.nanoTime();
                }
                long left = movedAt + stall - System.nanoTime();
                if (left <= 0) break;
                try {
                    TimeUnit.NANOSECONDS.timedWait(batch, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            batch.ended = true;
            batch.next.set(batch.requests.length); // nobody starts another read of this batch
            Set<Integer> notRead = new HashSet<>();
            for (Request r : batch.requests) {
                if (!batch.read.containsKey(r.pid()) && !batch.underway.contains(r.pid())) notRead.add(r.pid());
            }
            return new Result(Map.copyOf(batch.read), Set.copyOf(batch.underway), notRead);
        }
    }

    private boolean startThread() {
        Thread t = new Thread(this::work, name + "-" + threads.get());
        t.setDaemon(true);
        try {
            t.start();
        } catch (OutOfMemoryError noThread) { // at a task cap: the threads there are must do
            return false;
        }
        threads.incrementAndGet();
        return true;
    }

    private void work() {
        dev.runaway.sys.Sched.aheadOfOrdinaryTasks(); // as the scan thread these reads are for
        IntFunction<List<String>> reader = readers.get();
        while (true) {
            Batch batch;
            try {
                batch = offers.take();
            } catch (InterruptedException e) {
                threads.decrementAndGet();
                return;
            }
            for (int at; (at = batch.next.getAndIncrement()) < batch.requests.length; ) {
                Request r = batch.requests[at];
                synchronized (batch) {
                    if (batch.ended) break;
                    batch.underway.add(r.pid());
                }
                busy.incrementAndGet();
                List<String> args;
                try {
                    args = reader.apply(r.pid());
                } catch (RuntimeException unreadable) {
                    args = List.of();
                } finally {
                    busy.decrementAndGet();
                }
                synchronized (batch) {
                    batch.underway.remove(r.pid());
                    if (batch.ended) {
                        batch.late.add(new Late(r.pid(), r.ticket(), args));
                    } else {
                        batch.read.put(r.pid(), args);
                        if (batch.read.size() == batch.requests.length) batch.notifyAll(); // the waiter checks progress at its deadline
                    }
                }
            }
        }
    }
}
