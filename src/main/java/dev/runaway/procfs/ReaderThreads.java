// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * Reading threads for reads of /proc that can wait on the process read ({@link StatReads},
 * {@link ExeCmdlineReads}), and the one rule for how long a caller waits for them: until all is
 * read or no read has returned for a stall deadline. Batches are offered to every thread; each
 * free thread takes the batch and works through its share.
 *
 * <ul>
 *   <li>More threads are started while all wait inside reads, up to a bound (a waiting thread
 *       costs a stack, no CPU); a thread whose read has waited {@link #STUCK_NANOS} no longer
 *       counts, up to a ceiling.</li>
 *   <li>They are started by a starter thread: starting a thread waits until the new thread has
 *       run (the JVM's handshake), which at the ordinary policy during a fire takes seconds; the
 *       starter passes its real-time policy on (as root), and the caller never waits for it.</li>
 *   <li>A pause of the whole JVM (a collection) is not a stall: the waiter, woken late, gives the
 *       readers a whole window again, a few times at most.</li>
 * </ul>
 * One-shot scans at 5,000 pressing tasks left 1,600-5,000 command lines unread that a plain loop
 * read in 50-360 ms; with these two rules, 0-14.
 */
final class ReaderThreads<B> {
    /** A waiter this late was held, not the reads. */
    static final long PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    static final int MAX_PAUSES = 3;
    /** No read returned for this long while every thread waits in one: start {@link #GROW_STEP} more. */
    static final long GROW_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    static final int GROW_STEP = 4;
    /**
     * A read waiting this long waits on its process (a read of /proc takes microseconds), not for
     * a CPU: its thread no longer counts against the bound, so threads stuck on processes mid-exec
     * cannot leave a later batch none (80 children mid-exec at a freeze held all 32 stat readers,
     * and the stop's plan read no member of 20,000: "nothing matches", bench stop).
     */
    static final long STUCK_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    /** Threads at most, stuck ones included, as a multiple of the bound: each costs a small stack. */
    static final int CEILING_FACTOR = 8;
    /** A reader's stack: reading a /proc file needs little. */
    private static final long STACK_BYTES = 256 * 1024;

    private final String name;
    private final int first;
    private final int max;
    private final Consumer<B> work;
    private final LongSupplier clock;
    private final Runnable beforeStart;
    private final LinkedBlockingQueue<B> offers = new LinkedBlockingQueue<>();
    private final AtomicInteger threads = new AtomicInteger();
    private final AtomicInteger starting = new AtomicInteger();
    /** Every reading thread's slot; read by the waiter (a few times a batch), written only by its own thread. */
    private final java.util.List<Slot> slots = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final ThreadLocal<Slot> mySlot = new ThreadLocal<>();
    private final ExecutorService starter;
    /** Every reading thread this pool started, so a pool made for one use (a test's) can end them. */
    private final java.util.List<Thread> started = new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile boolean closed;

    /**
     * A reading thread's own record of the read it is in: when it began (0: in none) and what it
     * reads (a caller's key, 0: nothing). Two volatile writes a read, and no shared counter or
     * map: a complete rescan makes 50,000 reads, and a shared map's insert and remove, a shared
     * counter's increments and a lock taken per read cost both reading threads their caches on
     * every read (issue 30, docs/sampling.md).
     */
    static final class Slot {
        private volatile long since;
        private volatile long key;

        /** Enters a read (the thread counts as busy, and as stuck once it has waited too long). */
        void enter(long now) {
            since = Math.max(1, now);
        }

        /** Enters a read of {@code what}, a non-zero key the caller may ask {@link #readingKeys} about. */
        void enter(long what, long now) {
            key = what;
            since = Math.max(1, now);
        }

        /** Leaves the read (its time no longer counts), still holding the key until {@link #release}. */
        void leave() {
            since = 0;
        }

        /** Drops the key: the read's answer has been handed over (in time or late). */
        void release() {
            key = 0;
        }
    }

    ReaderThreads(String name, int first, int max, Consumer<B> work) {
        this(name, first, max, work, System::nanoTime, () -> { });
    }

    /**
     * ...timing the stall deadline with {@code clock} (tests give one that jumps, as a pause of the
     * JVM does), and running {@code beforeStart} on the starter before each thread it starts (tests
     * make it slow, as a start is during a fire).
     */
    ReaderThreads(String name, int first, int max, Consumer<B> work, LongSupplier clock, Runnable beforeStart) {
        this.name = name;
        this.first = first;
        this.max = max;
        this.work = work;
        this.clock = clock;
        this.beforeStart = beforeStart;
        this.starter = starter(name);
        // Started now: a console opened before the fire has them when the runaway holds every task.
        for (int i = 0; i < first; i++) startThread();
    }

    /** Threads alive (waiting or free). */
    int threads() {
        return threads.get();
    }

    /** Offers {@code batch} to every thread (the free ones take it now, the others when their reads return), starting more when too few are free. */
    void offer(B batch) {
        for (int i = threads.get() - busy(); i < first; i++) startLater(batch);
        for (int i = 0, n = threads.get(); i < n; i++) offers.add(batch);
    }

    /** The calling reading thread's slot (a thread of this pool; null on any other). */
    Slot slot() {
        return mySlot.get();
    }

    /** The clock reads are timed with. */
    long now() {
        return clock.getAsLong();
    }

    /** Threads inside a read now. */
    int busy() {
        int n = 0;
        for (Slot s : slots) if (s.since != 0) n++;
        return n;
    }

    /** The keys of the reads under way or whose answers are on their way (see {@link Slot#release}). */
    java.util.Set<Long> readingKeys() {
        java.util.Set<Long> keys = new java.util.HashSet<>();
        for (Slot s : slots) {
            long k = s.key;
            if (k != 0) keys.add(k);
        }
        return keys;
    }

    /** Whether some thread holds {@code key} (a read of it under way, or its answer on its way). */
    boolean reading(long key) {
        for (Slot s : slots) if (s.key == key) return true;
        return false;
    }

    /** The bound on threads now: the bound plus those stuck in a read, up to the ceiling. */
    int allowed() {
        long t = clock.getAsLong();
        int stuck = 0;
        for (Slot s : slots) {
            long since = s.since;
            if (since != 0 && t - since >= STUCK_NANOS) stuck++;
        }
        return Math.min(max * CEILING_FACTOR, max + stuck);
    }

    /** Tells the waiter on {@code monitor} that its batch is done. */
    void done(Object monitor) {
        synchronized (monitor) {
            monitor.notifyAll();
        }
    }

    /**
     * Waits on {@code monitor} until {@code complete} or {@code answers} has not moved for
     * {@code stallMillis}, starting more threads for {@code batch} while every thread waits.
     */
    void awaitProgress(B batch, Object monitor, IntSupplier answers, BooleanSupplier complete, long stallMillis) {
        long stall = TimeUnit.MILLISECONDS.toNanos(stallMillis);
        synchronized (monitor) {
            int seen = -1;
            long movedAt = clock.getAsLong();
            long wakeAt = movedAt;
            long grownAt = movedAt;
            int pauses = 0;
            while (!complete.getAsBoolean()) {
                long t = clock.getAsLong();
                int now = answers.getAsInt();
                boolean paused = t - wakeAt > PAUSE_NANOS && pauses < MAX_PAUSES;
                if (paused) pauses++;
                if (now != seen || paused) {
                    seen = now;
                    movedAt = t;
                }
                if (t - movedAt >= GROW_NANOS && t - grownAt >= GROW_NANOS && busy() >= threads.get()) {
                    grownAt = t;
                    for (int i = 0; i < GROW_STEP; i++) startLater(batch);
                }
                long left = movedAt + stall - t;
                if (left <= 0) return;
                if (threads.get() < allowed()) left = Math.min(left, GROW_NANOS); // look again soon: more threads may be wanted
                wakeAt = t + left;
                try {
                    TimeUnit.NANOSECONDS.timedWait(monitor, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** The one thread that starts the others, started with the pool (at a task cap none may start later). */
    private static ExecutorService starter(String name) {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
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
            // no thread may start: the readers started with the pool must do
        }
        return pool;
    }

    /** A thread more, started by the starter, which then offers it {@code batch}. */
    private void startLater(B batch) {
        if (threads.get() + starting.get() >= allowed()) return;
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
        } catch (RejectedExecutionException | OutOfMemoryError noStarter) {
            starting.decrementAndGet(); // the threads there are must do
        }
    }

    private boolean startThread() {
        if (closed) return false;
        Thread t = new Thread(null, this::loop, name + "-" + threads.get(), STACK_BYTES);
        t.setDaemon(true);
        try {
            t.start();
        } catch (OutOfMemoryError noThread) { // at a task cap: the threads there are must do
            return false;
        }
        threads.incrementAndGet();
        started.add(t);
        return true;
    }

    /**
     * Ends the pool: no thread is started again, and each reading thread ends when its read
     * returns (an idle one at once). The shared pools live as long as the JVM; only a pool made
     * for one use is closed.
     */
    void close() {
        closed = true;
        starter.shutdownNow();
        for (Thread t : started) t.interrupt();
    }

    private void loop() {
        dev.runaway.sys.Sched.aheadOfOrdinaryTasks(); // as the scan thread these reads are for
        Slot slot = new Slot();
        mySlot.set(slot);
        slots.add(slot);
        while (true) {
            B batch;
            try {
                batch = offers.take();
            } catch (InterruptedException e) {
                slots.remove(slot);
                threads.decrementAndGet();
                return;
            }
            work.accept(batch);
        }
    }
}
