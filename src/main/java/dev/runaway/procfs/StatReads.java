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
    private final Set<Long> underway = ConcurrentHashMap.newKeySet(); // root id << 32 | pid, of reads not returned

    /** One batch: threads take its pids in turn until it is done or ended. */
    private static final class Batch<T> {
        final Path root;
        final int[] pids;
        final Read<T> read;
        final Late<T> late; // null: late answers are dropped
        final AtomicInteger next = new AtomicInteger();
        final Map<Integer, Optional<T>> answers = new ConcurrentHashMap<>();
        volatile boolean ended;

        Batch(Path root, int[] pids, Read<T> read, Late<T> late) {
            this.root = root;
            this.pids = pids;
            this.read = read;
            this.late = late;
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
        Batch<T> batch = new Batch<>(root, asked, read, late);
        if (asked.length > 0) threads.offer(batch);
        return new Pending<>(batch);
    }

    /**
     * The answers, once all are in or none has come for {@code stallMillis}; what is left then is
     * unread, and nobody starts another read of it.
     */
    <T> Answers<T> await(Pending<T> pending, long stallMillis) {
        Batch<T> batch = pending.batch;
        if (batch.pids.length > 0) {
            threads.awaitProgress(batch, batch, batch.answers::size, () -> batch.answers.size() >= batch.pids.length, stallMillis);
        }
        Map<Integer, Optional<T>> read;
        synchronized (batch) {
            batch.ended = true;
            batch.next.set(batch.pids.length);
            read = new HashMap<>(batch.answers);
        }
        Set<Integer> unread = new HashSet<>();
        for (int pid : batch.pids) if (!read.containsKey(pid)) unread.add(pid);
        return new Answers<>(read, unread);
    }

    /** Whether a read of this pid below this root has not returned yet (do not ask again). */
    boolean underway(Path root, int pid) {
        return underway.contains(key(root, pid));
    }

    private static long key(Path root, int pid) {
        return (long) root.hashCode() << 32 | (pid & 0xffffffffL);
    }

    private final ThreadLocal<Map<Path, ProcReader>> readers = ThreadLocal.withInitial(HashMap::new);

    /** A reading thread's share of a batch. */
    private <T> void work(Batch<T> batch) {
        ProcReader reader = readers.get().computeIfAbsent(batch.root, ProcReader::new);
        for (int at; (at = batch.next.getAndIncrement()) < batch.pids.length; ) {
            if (batch.ended) break;
            int pid = batch.pids[at];
            long key = key(batch.root, pid);
            underway.add(key);
            threads.busy(true);
            Optional<T> answer;
            try {
                answer = batch.read.read(reader, pid);
            } catch (RuntimeException unreadable) {
                answer = Optional.empty();
            } finally {
                threads.busy(false);
            }
            synchronized (batch) { // against await's end: each answer is either in time or late, never both or neither
                if (!batch.ended) {
                    underway.remove(key);
                    batch.answers.put(pid, answer);
                    if (batch.answers.size() == batch.pids.length) threads.done(batch);
                    continue;
                }
            }
            try {
                if (batch.late != null) batch.late.answered(pid, answer); // else dropped, read again next scan
            } finally {
                underway.remove(key); // only now: no scan asks again for an answer on its way to the late sink
            }
        }
    }
}
