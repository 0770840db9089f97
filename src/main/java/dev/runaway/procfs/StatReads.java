// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A scan's per-process reads other than the executable and command line (stat, and for a new
 * process its uid and cgroup), done by reading threads while the scan thread waits with a stall
 * deadline: no one process can hold a scan up. /proc/PID/stat waits while the process is in the
 * middle of an exec (the kernel takes its exec_update_lock to read it); during a fire such a
 * process, one ordinary task among thousands runnable, holds it for seconds: seen at 20,000
 * pressing tasks, the console's scan thread sat in do_task_stat and a scan took 145 s. What is not
 * read once no read has returned for the stall deadline is left for this scan; its answer, when
 * it comes, is dropped (the next scan reads it again, unless that read is still under way: {@link
 * #underway}). Threads are added while all wait, up to a bound, by {@link ReaderThreads}.
 *
 * <p>One pool for the JVM; each thread keeps a {@link ProcReader} per /proc root it is asked about.
 */
final class StatReads {
    /** What one reading thread reads for one pid; empty when the process is gone. */
    interface Read<T> {
        Optional<T> read(ProcReader reader, int pid);
    }

    /** Takes an answer that came after its batch ended (on the reading thread). */
    interface Late<T> {
        void answered(int pid, Optional<T> answer);
    }

    /**
     * @param read    answers by pid (an empty Optional: the process is gone)
     * @param unread  pids not answered before the stall deadline (a read under way, or none started)
     */
    record Answers<T>(Map<Integer, Optional<T>> read, Set<Integer> unread) {
    }

    /** Reading threads started with the pool (the scan thread and the old helper were two). */
    static final int FIRST_THREADS = 2;
    /** At most this many: each waiting thread holds one process's read, no CPU. */
    static final int MAX_THREADS = 32;

    private static final StatReads SHARED = new StatReads("runaway-stat");

    private final ReaderThreads<Batch<?>> threads;
    /** A small number for each /proc root asked about (a read's key is that number and its pid). */
    private final Map<Path, Integer> roots = new ConcurrentHashMap<>();
    private final AtomicInteger rootsSeen = new AtomicInteger();

    /** Marks an answer's place once its batch has ended without it: the answer, when it comes, is late. */
    private static final Object ENDED = new Object();

    /**
     * One batch: threads take its pids in turn until it is done or ended. Each answer has its own
     * place, taken by one compare-and-set: the reading thread's (in time) or the waiter's as the
     * batch ends (the answer is then late), never both or neither, and no lock is taken per read.
     */
    private static final class Batch<T> {
        final Path root;
        final int rootId;
        final int[] pids;
        final Read<T> read;
        final Late<T> late; // null: late answers are dropped
        final AtomicInteger next = new AtomicInteger();
        final java.util.concurrent.atomic.AtomicReferenceArray<Object> answers; // by place: null, an Optional, or ENDED
        final AtomicInteger answered = new AtomicInteger();
        volatile boolean ended;

        Batch(Path root, int rootId, int[] pids, Read<T> read, Late<T> late) {
            this.root = root;
            this.rootId = rootId;
            this.pids = pids;
            this.read = read;
            this.late = late;
            this.answers = new java.util.concurrent.atomic.AtomicReferenceArray<>(pids.length);
        }
    }

    /** A batch under way: {@link #await} it. */
    static final class Pending<T> {
        private final Batch<T> batch;

        private Pending(Batch<T> batch) {
            this.batch = batch;
        }
    }

    StatReads(String name) {
        this.threads = new ReaderThreads<>(name, FIRST_THREADS, MAX_THREADS, this::work);
    }

    static StatReads shared() {
        return SHARED;
    }

    /** Starts reading {@code pids} below {@code root}; the answers are taken with {@link #await}. */
    <T> Pending<T> start(Path root, List<Integer> pids, Read<T> read) {
        return start(root, pids, read, null);
    }

    /** As {@link #start(Path, List, Read)}; an answer that comes after {@link #await} gave up goes to {@code late}. */
    <T> Pending<T> start(Path root, List<Integer> pids, Read<T> read, Late<T> late) {
        int[] asked = new int[pids.size()];
        for (int i = 0; i < asked.length; i++) asked[i] = pids.get(i);
        Batch<T> batch = new Batch<>(root, rootId(root), asked, read, late);
        if (asked.length > 0) threads.offer(batch);
        return new Pending<>(batch);
    }

    /**
     * The answers, once all are in or none has come for {@code stallMillis}; what is left then is
     * unread, and nobody starts another read of it.
     */
    @SuppressWarnings("unchecked")
    <T> Answers<T> await(Pending<T> pending, long stallMillis) {
        Batch<T> batch = pending.batch;
        int n = batch.pids.length;
        if (n > 0) threads.awaitProgress(batch, batch, batch.answered::get, () -> batch.answered.get() >= n, stallMillis);
        batch.ended = true;
        batch.next.set(n); // nobody starts another read of this batch
        Map<Integer, Optional<T>> read = new HashMap<>(Math.max(16, n * 4 / 3 + 1));
        Set<Integer> unread = new HashSet<>();
        for (int i = 0; i < n; i++) {
            if (batch.answers.compareAndSet(i, null, ENDED)) unread.add(batch.pids[i]);
            else read.put(batch.pids[i], (Optional<T>) batch.answers.get(i));
        }
        return new Answers<>(read, unread);
    }

    /** Whether a read of this pid below this root has not returned yet (do not ask again). */
    boolean underway(Path root, int pid) {
        return threads.reading(key(rootId(root), pid));
    }

    /** The pids below {@code root} whose reads have not returned yet, as one look (do not ask again). */
    Set<Integer> underway(Path root) {
        int id = rootId(root);
        Set<Integer> pids = new HashSet<>();
        for (long key : threads.readingKeys()) if ((int) (key >>> 32) == id) pids.add((int) key);
        return pids;
    }

    private int rootId(Path root) {
        return roots.computeIfAbsent(root, r -> rootsSeen.incrementAndGet());
    }

    private static long key(int rootId, int pid) {
        return (long) rootId << 32 | (pid & 0xffffffffL);
    }

    private final ThreadLocal<Map<Path, ProcReader>> readers = ThreadLocal.withInitial(HashMap::new);

    /** A reading thread's share of a batch. */
    private <T> void work(Batch<T> batch) {
        ProcReader reader = readers.get().computeIfAbsent(batch.root, ProcReader::new);
        ReaderThreads.Slot slot = threads.slot();
        for (int at; (at = batch.next.getAndIncrement()) < batch.pids.length; ) {
            if (batch.ended) break;
            int pid = batch.pids[at];
            slot.enter(key(batch.rootId, pid), threads.now()); // underway from here until its answer is handed over
            Optional<T> answer;
            try {
                answer = batch.read.read(reader, pid);
            } catch (RuntimeException unreadable) {
                answer = Optional.empty();
            } finally {
                slot.leave();
            }
            if (batch.answers.compareAndSet(at, null, answer)) { // in time
                slot.release();
                if (batch.answered.incrementAndGet() == batch.pids.length) threads.done(batch);
                continue;
            }
            try {
                if (batch.late != null) batch.late.answered(pid, answer); // else dropped, read again next scan
            } finally {
                slot.release(); // only now: no scan asks again for an answer on its way to the late sink
            }
        }
    }
}
