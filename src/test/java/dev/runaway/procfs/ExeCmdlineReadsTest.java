// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.IntPredicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Executables and command lines read with a stall deadline: a read that waits (a forking process's memory map, an exec) holds nobody else up. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ExeCmdlineReadsTest {
    private static final long STALL_MILLIS = 50;
    private final CountDownLatch release = new CountDownLatch(1);

    /** The pools this test made: their threads end with it, not with the suite's JVM. */
    private final List<ExeCmdlineReads> made = new ArrayList<>();

    @AfterEach
    void releaseWaitingReads() {
        release.countDown();
        made.forEach(ExeCmdlineReads::close);
    }

    private ExeCmdlineReads made(ExeCmdlineReads reads) {
        made.add(reads);
        return reads;
    }

    /** A reader whose command-line reads of the pids {@code waits} names wait until the test releases them. */
    private ExeCmdlineReads reads(IntPredicate waits) {
        return reads(pid -> false, waits);
    }

    /** ...and whose exe reads of the pids {@code exeWaits} names wait too. */
    private ExeCmdlineReads reads(IntPredicate exeWaits, IntPredicate waits) {
        ExeCmdlineReads.Reader reader = new ExeCmdlineReads.Reader() {
            public String exe(int pid) {
                if (exeWaits.test(pid)) awaitRelease();
                return "/opt/tool";
            }

            public List<String> cmdline(int pid) {
                if (waits.test(pid)) awaitRelease();
                return List.of("/opt/tool", "--n", Integer.toString(pid));
            }
        };
        return made(new ExeCmdlineReads(() -> reader, "test-cmdline"));
    }

    private void awaitRelease() {
        try {
            release.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static List<ExeCmdlineReads.Request> requests(int from, int to) {
        List<ExeCmdlineReads.Request> out = new ArrayList<>();
        for (int pid = from; pid <= to; pid++) out.add(new ExeCmdlineReads.Request(pid, 1000L + pid));
        return out;
    }

    @Test
    void aClosedPoolEndsItsThreadsEvenOneWaitingInARead() {
        ExeCmdlineReads reads = reads(pid -> pid == 7);
        reads.read(requests(1, 20), STALL_MILLIS, new ConcurrentLinkedQueue<>());
        assertThat(reads.threads()).isPositive();

        reads.close();
        release.countDown(); // the waiting read returns; its thread then ends instead of taking more

        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).until(() -> reads.threads() == 0);
    }

    @Test
    void everyCommandLineIsReadWhenNoneWaits() {
        ExeCmdlineReads reads = reads(pid -> false);

        ExeCmdlineReads.Result r = reads.read(requests(1, 3000), STALL_MILLIS, new ConcurrentLinkedQueue<>());

        assertThat(r.complete()).isTrue();
        assertThat(r.args()).hasSize(3000).containsEntry(17, List.of("/opt/tool", "--n", "17"));
    }

    @Test
    void readsThatWaitAreLeftAndTheirAnswersComeLater() {
        ExeCmdlineReads reads = reads(pid -> pid == 7 || pid == 4000);
        Queue<ExeCmdlineReads.Late> late = new ConcurrentLinkedQueue<>();

        ExeCmdlineReads.Result r = reads.read(requests(1, 5000), STALL_MILLIS, late);

        assertThat(r.args()).hasSize(4998).doesNotContainKeys(7, 4000);
        assertThat(r.exes()).as("a command line that waits does not hold its executable back").hasSize(5000)
                .containsEntry(7, "/opt/tool");
        assertThat(r.waiting()).containsExactlyInAnyOrder(7, 4000);
        assertThat(r.notRead()).isEmpty();
        assertThat(late).isEmpty();

        release.countDown(); // the forks end: the reads return
        await().atMost(10, TimeUnit.SECONDS).until(() -> late.size() == 2);
        assertThat(late).extracting(ExeCmdlineReads.Late::pid, ExeCmdlineReads.Late::ticket)
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple(7, 1007L), org.assertj.core.groups.Tuple.tuple(4000, 5000L));
        assertThat(late).allSatisfy(l -> assertThat(l.exe()).as("given in time already").isNull());
    }

    /** A process in the middle of an exec: its exe read waits, and both answers come later. */
    @Test
    void anExeReadThatWaitsIsLeftWithItsCommandLine() {
        ExeCmdlineReads reads = reads(pid -> pid == 12, pid -> false);
        Queue<ExeCmdlineReads.Late> late = new ConcurrentLinkedQueue<>();

        ExeCmdlineReads.Result r = reads.read(requests(1, 100), STALL_MILLIS, late);

        assertThat(r.exes()).hasSize(99).doesNotContainKey(12);
        assertThat(r.args()).hasSize(99).doesNotContainKey(12);
        assertThat(r.waiting()).containsExactly(12);
        release.countDown();
        await().atMost(10, TimeUnit.SECONDS).until(() -> late.size() == 1);
        assertThat(late.peek().exe()).isEqualTo("/opt/tool");
        assertThat(late.peek().args()).containsExactly("/opt/tool", "--n", "12");
    }

    /** Every free thread caught in a read that waits: more threads are started within the batch and read the rest. */
    @Test
    void whenEveryThreadWaitsMoreThreadsReadTheRest() {
        ExeCmdlineReads reads = reads(pid -> pid <= ExeCmdlineReads.FREE_THREADS);
        Queue<ExeCmdlineReads.Late> late = new ConcurrentLinkedQueue<>();

        ExeCmdlineReads.Result r = reads.read(requests(1, 400), STALL_MILLIS, late);

        assertThat(r.waiting()).hasSize(ExeCmdlineReads.FREE_THREADS);
        assertThat(r.notRead()).isEmpty();
        assertThat(r.args()).hasSize(400 - ExeCmdlineReads.FREE_THREADS);
        assertThat(reads.threads()).isGreaterThan(ExeCmdlineReads.FREE_THREADS);
    }

    /**
     * Starting a thread waits until it has run, seconds during a fire: the batch is not held up by
     * it (the starter waits), and the threads it starts read the next batch.
     */
    @Test
    void aSlowThreadStartDoesNotHoldTheBatchUp() {
        CountDownLatch started = new CountDownLatch(1);
        ExeCmdlineReads.Reader reader = new ExeCmdlineReads.Reader() {
            public String exe(int pid) {
                if (pid <= ExeCmdlineReads.FREE_THREADS) awaitRelease();
                return "/opt/tool";
            }

            public List<String> cmdline(int pid) {
                return List.of("/opt/tool");
            }
        };
        ExeCmdlineReads reads = made(new ExeCmdlineReads(() -> reader, "test-slow-start", System::nanoTime, () -> {
            try {
                started.await(); // as a new thread waits for a CPU: until the first batch is over
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        Queue<ExeCmdlineReads.Late> late = new ConcurrentLinkedQueue<>();
        long t0 = System.nanoTime();

        ExeCmdlineReads.Result r = reads.read(requests(1, 400), STALL_MILLIS, late);

        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)).as("returned at the stall deadline").isLessThan(2_000);
        assertThat(r.waiting()).hasSize(ExeCmdlineReads.FREE_THREADS);
        assertThat(r.notRead()).hasSize(400 - ExeCmdlineReads.FREE_THREADS);
        started.countDown();
        await().atMost(10, TimeUnit.SECONDS).until(() -> reads.threads() > ExeCmdlineReads.FREE_THREADS);
        ExeCmdlineReads.Result next = reads.read(new ArrayList<>(requests(ExeCmdlineReads.FREE_THREADS + 1, 400)), STALL_MILLIS, late);
        assertThat(next.complete()).as("the threads started meanwhile read it").isTrue();
    }

    /**
     * A pause of the whole JVM (a collection) holds the readers and the waiter alike: the waiter
     * wakes late and sees no new answer, which is no stalled read. Here the readers are held
     * until the waiter's clock has jumped past its deadline, as they are through a pause.
     */
    @Test
    void aPauseOfTheWholeJvmIsNoStall() {
        CountDownLatch pauseOver = new CountDownLatch(1);
        java.util.concurrent.atomic.AtomicInteger ticks = new java.util.concurrent.atomic.AtomicInteger();
        java.util.function.LongSupplier clock = () -> {
            long offset = 0;
            if (ticks.incrementAndGet() >= 3) { // the waiter's first wake-up comes 400 ms late
                offset = TimeUnit.MILLISECONDS.toNanos(400);
                pauseOver.countDown();
            }
            return System.nanoTime() + offset;
        };
        ExeCmdlineReads.Reader reader = new ExeCmdlineReads.Reader() {
            public String exe(int pid) {
                try {
                    pauseOver.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return "/opt/tool";
            }

            public List<String> cmdline(int pid) {
                return List.of("/opt/tool");
            }
        };
        ExeCmdlineReads reads = made(new ExeCmdlineReads(() -> reader, "test-pause", clock, () -> { }));

        ExeCmdlineReads.Result r = reads.read(requests(1, 500), STALL_MILLIS, new ConcurrentLinkedQueue<>());

        assertThat(r.complete()).as("read after the pause, not left unread").isTrue();
        assertThat(r.args()).hasSize(500);
    }

    /**
     * Threads held by waiting reads are replaced, past the bound once a read has waited long
     * enough to be waiting on its process: however many processes are mid-exec, a later batch
     * still gets threads (80 stuck stat reads left a stop's plan none).
     */
    @Test
    void waitingThreadsAreReplacedPastTheBoundOnceStuck() {
        int stuck = ExeCmdlineReads.MAX_THREADS + 36;
        ExeCmdlineReads reads = reads(pid -> pid <= stuck);
        Queue<ExeCmdlineReads.Late> late = new ConcurrentLinkedQueue<>();
        Set<Integer> waiting = new java.util.HashSet<>();
        for (int round = 0; round < 400 && waiting.size() < stuck; round++) {
            long started = System.nanoTime();
            List<ExeCmdlineReads.Request> left = new ArrayList<>();
            for (ExeCmdlineReads.Request q : requests(1, stuck + 100)) if (!waiting.contains(q.pid())) left.add(q);

            ExeCmdlineReads.Result r = reads.read(left, STALL_MILLIS, late);

            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).isLessThan(5_000);
            waiting.addAll(r.waiting());
        }
        assertThat(waiting).hasSize(stuck).allMatch(pid -> pid <= stuck);
        ExeCmdlineReads.Result others = reads.read(requests(stuck + 1, stuck + 100), STALL_MILLIS, late);
        assertThat(others.complete()).as("the other processes read beside the stuck ones").isTrue();

        release.countDown();
        await().atMost(10, TimeUnit.SECONDS).until(() -> late.size() == stuck);
    }

    /** Past the ceiling (the bound times {@link ReaderThreads#CEILING_FACTOR}) no thread is added: a batch returns with what it could not read. */
    @Test
    void stuckThreadsStopAtTheCeiling() {
        int ceiling = ExeCmdlineReads.MAX_THREADS * ReaderThreads.CEILING_FACTOR;
        ExeCmdlineReads reads = reads(pid -> true);
        Queue<ExeCmdlineReads.Late> late = new ConcurrentLinkedQueue<>();
        Set<Integer> waiting = new java.util.HashSet<>();
        for (int round = 0; round < 2_000 && reads.threads() < ceiling; round++) {
            List<ExeCmdlineReads.Request> left = new ArrayList<>();
            for (ExeCmdlineReads.Request q : requests(1, ceiling + 50)) if (!waiting.contains(q.pid())) left.add(q);
            waiting.addAll(reads.read(left, STALL_MILLIS, late).waiting());
            assertThat(reads.threads()).isLessThanOrEqualTo(ceiling);
        }
        assertThat(reads.threads()).isEqualTo(ceiling);
        ExeCmdlineReads.Result r = reads.read(requests(ceiling + 1, ceiling + 50), STALL_MILLIS, late);
        assertThat(r.complete()).isFalse();
        assertThat(reads.threads()).isEqualTo(ceiling);
    }
}
