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
import java.util.function.Supplier;

/**
 * The executable and command line of many processes, read by a few threads with a stall
 * deadline, so that no one process can hold a scan up. Both reads can wait on the process read:
 * /proc/PID/cmdline on its memory map, which a process in the middle of a fork holds while it
 * copies it (at 20,000 tasks pressing on a cap every refused fork copies it first); the exe link
 * on a process in the middle of an exec. Such a process, one ordinary task among thousands
 * runnable, waits seconds to minutes for a CPU while the read waits on it (issue 14: no live
 * scan finished while measuring). Once no read has returned for the stall deadline, the batch
 * ends: what was not read is left unread for this scan. A read that returns after its batch
 * ended is handed over later ({@link Late}); its thread then goes back to the others. More
 * threads are started while too few are free, up to a limit; none when no thread may start.
 * Each request reads the exe first, and hands it over at once: a command line that waits does
 * not hold its executable back.
 */
final class ExeCmdlineReads {
    /** What each reading thread reads with (a {@link ProcReader} holds one buffer: one per thread). */
    interface Reader {
        String exe(int pid);

        List<String> cmdline(int pid);
    }

    /** A process whose executable and command line are wanted; the ticket comes back with the answers. */
    record Request(int pid, long ticket) {
    }

    /** Answers that came after their batch had ended: the exe (null when it came in time) and the command line. */
    record Late(int pid, long ticket, String exe, List<String> args) {
    }

    /**
     * @param exes    executables read, by pid (a process gone reads "")
     * @param args    command lines read, by pid
     * @param waiting pids whose read is still under way: their answers come as {@link Late}
     * @param notRead pids nobody started to read (all the threads were waiting)
     */
    record Result(Map<Integer, String> exes, Map<Integer, List<String>> args, Set<Integer> waiting, Set<Integer> notRead) {
        boolean complete() {
            return waiting.isEmpty() && notRead.isEmpty();
        }
    }

    /** Threads started with the reader; more while fewer than these are free. */
    static final int FREE_THREADS = 4;
    /**
     * At most this many threads in all: each waiting thread holds one process's read (a parked
     * thread costs a stack, no CPU). With 16, all were held by a 20,000-task fire and nothing
     * else on the machine got read (a test's own drill under a concurrent fire).
     */
    static final int MAX_THREADS = 64;

    /**
     * A waiter this late was held, not the reads. Measured in one-shot scans at 5,000 pressing
     * tasks: a cold JVM's collections and safepoints ended batches early, leaving 1,600 to 5,000
     * command lines unread that a plain loop read in 50-360 ms.
     */
    static final long PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    static final int MAX_PAUSES = 3;
    /** No read returned for this long while every thread waits in one: start {@link #GROW_STEP} more. */
    static final long GROW_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    static final int GROW_STEP = 4;

    private static final Map<Path, ExeCmdlineReads> SHARED = new ConcurrentHashMap<>();

    private final Supplier<Reader> readers;
    private final LinkedBlockingQueue<Batch> offers = new LinkedBlockingQueue<>();
    private final AtomicInteger threads = new AtomicInteger();
    private final AtomicInteger busy = new AtomicInteger();
    private final String name;
    private final java.util.function.LongSupplier clock;
    private final Runnable beforeStart;
    private final java.util.concurrent.ExecutorService starter;
    private final AtomicInteger starting = new AtomicInteger();

    /** One batch: threads take its requests in turn until it is done or ended. */
    private static final class Batch {
        final Request[] requests;
        final AtomicInteger next = new AtomicInteger();
        final Map<Integer, String> exes = new HashMap<>();       // guarded by this
        final Map<Integer, List<String>> args = new HashMap<>(); // guarded by this
        final Set<Integer> underway = new HashSet<>();           // guarded by this
        final java.util.Queue<Late> late;
        boolean ended;                                            // guarded by this

        Batch(Request[] requests, java.util.Queue<Late> late) {
            this.requests = requests;
            this.late = late;
        }

        int answers() {
            return exes.size() + args.size();
        }
    }

    /** With {@code readers} giving each thread its own reader. */
    ExeCmdlineReads(Supplier<Reader> readers, String name) {
        this(readers, name, System::nanoTime, () -> { });
    }

    /**
     * ...timing the stall deadline with {@code clock} (tests give one that jumps, as a pause of the
     * JVM does), and running {@code beforeStart} on the starter before each thread it starts (tests
     * make it slow, as a start is during a fire).
     */
    ExeCmdlineReads(Supplier<Reader> readers, String name, java.util.function.LongSupplier clock, Runnable beforeStart) {
        this.readers = readers;
        this.name = name;
        this.clock = clock;
        this.beforeStart = beforeStart;
        this.starter = starter(name);
        for (int i = 0; i < FREE_THREADS; i++) startThread();
    }

    /**
     * The reader for this /proc, one per root for the whole JVM: its threads are started with the
     * first table (a console opened before the fire has them when the runaway holds every task).
     */
    static ExeCmdlineReads of(Path root) {
        return SHARED.computeIfAbsent(root, r -> new ExeCmdlineReads(() -> {
            ProcReader reader = new ProcReader(r);
            return new Reader() {
                public String exe(int pid) {
                    return reader.exe(pid);
                }

                public List<String> cmdline(int pid) {
                    return reader.cmdline(pid);
                }
            };
        }, "runaway-cmdline"));
    }

    /** The one thread that starts the others, started with the reader (at a task cap none may start later). */
    private static java.util.concurrent.ExecutorService starter(String name) {
        java.util.concurrent.ThreadPoolExecutor pool = new java.util.concurrent.ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(() -> {
                        dev.runaway.sys.Sched.raisedWithChildren(); // never closed: this thread starts threads, no process
                        r.run();
                    }, name + "-starter");
                    t.setDaemon(true);
                    return t;
                });
        try {
            pool.prestartAllCoreThreads();
        } catch (OutOfMemoryError noThread) {
            // no thread may start: the readers started with the reader must do
        }
        return pool;
    }

    /** Threads alive (waiting or free). */
    int threads() {
        return threads.get();
    }

    /**
     * Reads what is asked for; returns once all is read or no read has returned for
     * {@code stallMillis}. Answers of reads still under way then go to {@code late}.
     */
    Result read(List<Request> requests, long stallMillis, java.util.Queue<Late> late) {
        if (requests.isEmpty()) return new Result(Map.of(), Map.of(), Set.of(), Set.of());
        Batch batch = new Batch(requests.toArray(new Request[0]), late);
        for (int i = threads.get() - busy.get(); i < FREE_THREADS; i++) startLater(batch); // the others wait on reads that have not returned
        for (int i = 0, n = threads.get(); i < n; i++) offers.add(batch); // each free thread takes a share
        long stall = TimeUnit.MILLISECONDS.toNanos(stallMillis);
        synchronized (batch) {
            int seen = -1;
            long movedAt = clock.getAsLong();
            long wakeAt = movedAt;
            long grownAt = movedAt;
            int pauses = 0;
            while (batch.args.size() < batch.requests.length) {
                long t = clock.getAsLong();
                int now = batch.answers();
                // Woken well past its time, the waiter was held with everyone else (a collection
                // stops every thread of the JVM): that is no stalled read, so the readers get a
                // whole window again, a few times at most (a waiter starved of CPU is late every time).
                boolean paused = t - wakeAt > PAUSE_NANOS && pauses < MAX_PAUSES;
                if (paused) pauses++;
                if (now != seen || paused) {
                    seen = now;
                    movedAt = t;
                }
                // Every thread waits inside a read and none has returned for a while: more
                // threads take the rest (as runaway-rt's first lever does), up to the bound.
                if (t - movedAt >= GROW_NANOS && t - grownAt >= GROW_NANOS && busy.get() >= threads.get()) {
                    grownAt = t;
                    for (int i = 0; i < GROW_STEP; i++) startLater(batch);
                }
                long left = movedAt + stall - t;
                if (left <= 0) break;
                if (threads.get() < MAX_THREADS) left = Math.min(left, GROW_NANOS); // look again soon: more threads may be wanted
                wakeAt = t + left;
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
                if (!batch.args.containsKey(r.pid()) && !batch.underway.contains(r.pid())) notRead.add(r.pid());
            }
            return new Result(Map.copyOf(batch.exes), Map.copyOf(batch.args), Set.copyOf(batch.underway), notRead);
        }
    }

    /**
     * A thread more, started by the starter thread, which then offers it {@code batch}: starting a
     * thread waits until the new thread has run (the JVM's handshake), and one that starts at the
     * ordinary policy during a fire gets a CPU seconds later. The reading thread never waits
     * for that. The starter passes its real-time policy on to the threads it starts (as root).
     */
    private void startLater(Batch batch) {
        if (threads.get() + starting.get() >= MAX_THREADS) return;
        starting.incrementAndGet();
        try {
            starter.execute(() -> {
                try {
                    beforeStart.run();
                    if (startThread()) offers.add(batch);
                } finally {
                    starting.decrementAndGet();
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException | OutOfMemoryError noStarter) {
            starting.decrementAndGet(); // the threads there are must do
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
        Reader reader = readers.get();
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
                String exe = null;
                List<String> args;
                boolean exeInTime;
                try {
                    exe = safely(() -> reader.exe(r.pid()), "");
                    synchronized (batch) {
                        exeInTime = !batch.ended;
                        if (exeInTime) batch.exes.put(r.pid(), exe);
                    }
                    args = safely(() -> reader.cmdline(r.pid()), List.of());
                } finally {
                    busy.decrementAndGet();
                }
                synchronized (batch) {
                    batch.underway.remove(r.pid());
                    if (batch.ended) {
                        batch.late.add(new Late(r.pid(), r.ticket(), exeInTime ? null : exe, args));
                    } else {
                        batch.args.put(r.pid(), args);
                        if (batch.args.size() == batch.requests.length) batch.notifyAll(); // the waiter checks progress at its deadline
                    }
                }
            }
        }
    }

    private static <T> T safely(Supplier<T> read, T unreadable) {
        try {
            return read.get();
        } catch (RuntimeException e) {
            return unreadable;
        }
    }
}
