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
import java.util.function.IntFunction;
import java.util.function.IntPredicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Command lines read with a stall deadline: a read that waits (a forking process's memory map) holds nobody else up. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CmdlineReadsTest {
    private static final long STALL_MILLIS = 50;
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void releaseWaitingReads() {
        release.countDown();
    }

    /** A reader whose reads of the pids {@code waits} names wait until the test releases them. */
    private CmdlineReads reads(IntPredicate waits) {
        IntFunction<List<String>> read = pid -> {
            if (waits.test(pid)) {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return List.of("/opt/tool", "--n", Integer.toString(pid));
        };
        return new CmdlineReads(() -> read, "test-cmdline");
    }

    private static List<CmdlineReads.Request> requests(int from, int to) {
        List<CmdlineReads.Request> out = new ArrayList<>();
        for (int pid = from; pid <= to; pid++) out.add(new CmdlineReads.Request(pid, 1000L + pid));
        return out;
    }

    @Test
    void everyCommandLineIsReadWhenNoneWaits() {
        CmdlineReads reads = reads(pid -> false);

        CmdlineReads.Result r = reads.read(requests(1, 3000), STALL_MILLIS, new ConcurrentLinkedQueue<>());

        assertThat(r.complete()).isTrue();
        assertThat(r.args()).hasSize(3000).containsEntry(17, List.of("/opt/tool", "--n", "17"));
    }

    @Test
    void readsThatWaitAreLeftAndTheirAnswersComeLater() {
        CmdlineReads reads = reads(pid -> pid == 7 || pid == 4000);
        Queue<CmdlineReads.Late> late = new ConcurrentLinkedQueue<>();

        CmdlineReads.Result r = reads.read(requests(1, 5000), STALL_MILLIS, late);

        assertThat(r.args()).hasSize(4998).doesNotContainKeys(7, 4000);
        assertThat(r.waiting()).containsExactlyInAnyOrder(7, 4000);
        assertThat(r.notRead()).isEmpty();
        assertThat(late).isEmpty();

        release.countDown(); // the forks end: the reads return
        await().atMost(10, TimeUnit.SECONDS).until(() -> late.size() == 2);
        assertThat(late).extracting(CmdlineReads.Late::pid, CmdlineReads.Late::ticket)
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple(7, 1007L), org.assertj.core.groups.Tuple.tuple(4000, 5000L));
    }

    /** Threads held by waiting reads are replaced, up to a bound; past it a batch returns with what it could not read. */
    @Test
    void waitingThreadsAreReplacedUpToTheBound() {
        CmdlineReads reads = reads(pid -> pid <= 100);
        Queue<CmdlineReads.Late> late = new ConcurrentLinkedQueue<>();
        Set<Integer> waiting = new java.util.HashSet<>();
        for (int round = 0; round < 10; round++) {
            long started = System.nanoTime();
            List<CmdlineReads.Request> left = new ArrayList<>();
            for (CmdlineReads.Request q : requests(1, 200)) if (!waiting.contains(q.pid())) left.add(q);

            CmdlineReads.Result r = reads.read(left, STALL_MILLIS, late);

            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).isLessThan(5_000);
            waiting.addAll(r.waiting());
            assertThat(reads.threads()).isLessThanOrEqualTo(CmdlineReads.MAX_THREADS);
        }
        assertThat(reads.threads()).isEqualTo(CmdlineReads.MAX_THREADS);
        assertThat(waiting).hasSize(CmdlineReads.MAX_THREADS).allMatch(pid -> pid <= 100);

        release.countDown();
        await().atMost(10, TimeUnit.SECONDS).until(() -> late.size() == CmdlineReads.MAX_THREADS);
        CmdlineReads.Result after = reads.read(requests(101, 200), STALL_MILLIS, late);
        assertThat(after.complete()).isTrue(); // the threads are back
    }
}
