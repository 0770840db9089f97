// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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
 * not hold its executable back; the caller may say from the exe that the command line is not
 * needed (a program's key is its executable), and then it is not read.
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

    private static final Map<Path, ExeCmdlineReads> SHARED = new ConcurrentHashMap<>();

    private final ThreadLocal<Reader> reader;
    private final ReaderThreads<Batch> threads;

    /** One batch: threads take its requests in turn until it is done or ended. */
    private static final class Batch {
        final Request[] requests;
        final AtomicInteger next = new AtomicInteger();
        final Map<Integer, String> exes = new HashMap<>();       // guarded by this
        final Map<Integer, List<String>> args = new HashMap<>(); // guarded by this
        final Set<Integer> underway = new HashSet<>();           // guarded by this
        final java.util.Queue<Late> late;
        final java.util.function.Predicate<String> needsCmdline;
        boolean ended;                                            // guarded by this

        Batch(Request[] requests, java.util.Queue<Late> late, java.util.function.Predicate<String> needsCmdline) {
            this.requests = requests;
            this.late = late;
            this.needsCmdline = needsCmdline;
        }

        synchronized int answers() {
            return exes.size() + args.size();
        }

        synchronized boolean complete() {
            return args.size() >= requests.length;
        }
    }

    /** With {@code readers} giving each thread its own reader. */
    ExeCmdlineReads(Supplier<Reader> readers, String name) {
        this(readers, name, System::nanoTime, () -> { });
    }

    /** ...with the clock and the slow start of {@link ReaderThreads}'s test constructor. */
    ExeCmdlineReads(Supplier<Reader> readers, String name, java.util.function.LongSupplier clock, Runnable beforeStart) {
        this.reader = ThreadLocal.withInitial(readers);
        this.threads = new ReaderThreads<>(name, FREE_THREADS, MAX_THREADS, this::work, clock, beforeStart);
    }

    /**
     * The reader for this /proc, one per root for the whole JVM: its threads are started with the
     * first table (a console opened before the fire has them when the runaway holds every task).
     */
    static ExeCmdlineReads of(Path root) {
        return SHARED.computeIfAbsent(root, r -> new ExeCmdlineReads(() -> {
            ProcReader procReader = new ProcReader(r);
            return new Reader() {
                public String exe(int pid) {
                    return procReader.exe(pid);
                }

                public List<String> cmdline(int pid) {
                    return procReader.cmdline(pid);
                }
            };
        }, "runaway-cmdline"));
    }

    /** Ends a reader made for one use (its threads); never the shared ones of {@link #of}. */
    void close() {
        threads.close();
    }

    /** Threads alive (waiting or free). */
    int threads() {
        return threads.threads();
    }

    /** Reads every command line: {@link #read(List, long, java.util.Queue, java.util.function.Predicate)}. */
    Result read(List<Request> requests, long stallMillis, java.util.Queue<Late> late) {
        return read(requests, stallMillis, late, exe -> true);
    }

    /**
     * Reads what is asked for; returns once all is read or no read has returned for
     * {@code stallMillis}. Answers of reads still under way then go to {@code late}. A command
     * line is read only when {@code needsCmdline} says so of the executable read first (else it
     * is answered as empty).
     */
    Result read(List<Request> requests, long stallMillis, java.util.Queue<Late> late, java.util.function.Predicate<String> needsCmdline) {
        if (requests.isEmpty()) return new Result(Map.of(), Map.of(), Set.of(), Set.of());
        Batch batch = new Batch(requests.toArray(new Request[0]), late, needsCmdline);
        threads.offer(batch);
        threads.awaitProgress(batch, batch, batch::answers, batch::complete, stallMillis);
        synchronized (batch) {
            batch.ended = true;
            batch.next.set(batch.requests.length); // nobody starts another read of this batch
            Set<Integer> notRead = new HashSet<>();
            for (Request r : batch.requests) {
                if (!batch.args.containsKey(r.pid()) && !batch.underway.contains(r.pid())) notRead.add(r.pid());
            }
            return new Result(Map.copyOf(batch.exes), Map.copyOf(batch.args), Set.copyOf(batch.underway), notRead);
        }
    }

    /** A reading thread's share of a batch: the exe first, handed over at once, then the command line. */
    private void work(Batch batch) {
        Reader reader = this.reader.get();
        ReaderThreads.Slot slot = threads.slot();
        for (int at; (at = batch.next.getAndIncrement()) < batch.requests.length; ) {
            Request r = batch.requests[at];
            synchronized (batch) {
                if (batch.ended) break;
                batch.underway.add(r.pid());
            }
            slot.enter(threads.now());
            String exe = null;
            List<String> args;
            boolean exeInTime;
            try {
                exe = safely(() -> reader.exe(r.pid()), "");
                synchronized (batch) {
                    exeInTime = !batch.ended;
                    if (exeInTime) batch.exes.put(r.pid(), exe);
                }
                String read = exe;
                args = safely(() -> batch.needsCmdline.test(read) ? reader.cmdline(r.pid()) : List.of(), List.of());
            } finally {
                slot.leave();
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

    private static <T> T safely(Supplier<T> read, T unreadable) {
        try {
            return read.get();
        } catch (RuntimeException e) {
            return unreadable;
        }
    }
}
