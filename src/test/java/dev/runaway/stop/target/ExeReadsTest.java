// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.target;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

@Timeout(value = 20, unit = TimeUnit.SECONDS)
class ExeReadsTest {
    @Test
    void everyExeIsReadWhenNoneWaits() {
        int[] pids = IntStream.rangeClosed(100, 2099).toArray();
        ExeReads.Result r = ExeReads.read(pids, () -> pid -> pid % 2 == 0 ? "/bin/even" : "/bin/odd", 50);
        assertThat(r.unknown()).isEmpty();
        assertThat(r.exes()).hasSize(2000).containsEntry(100, "/bin/even").containsEntry(2099, "/bin/odd");
    }

    /** Returns at all (the class's timeout): waiting on them would never end. */
    @Test
    void readsThatWaitAreLeftUnknownAndHoldNoOneElseUp() {
        CountDownLatch never = new CountDownLatch(1);
        int[] pids = IntStream.rangeClosed(1, 5000).toArray();
        // two processes mid-exec whose lock holders never get a CPU
        ExeReads.Result r = ExeReads.read(pids, () -> waitingOn(pid -> pid == 7 || pid == 4000, never), 50);
        assertThat(r.unknown()).containsExactlyInAnyOrder(7, 4000);
        assertThat(r.exes()).hasSize(4998);
        never.countDown();
    }

    /** At 20,000 pressing tasks many processes hold their map's lock at once: every first reader waits, more take the rest. */
    @Test
    void whenEveryReaderWaitsMoreReadersTakeThePidsLeft() {
        CountDownLatch never = new CountDownLatch(1);
        int[] pids = IntStream.rangeClosed(1, 5000).toArray();
        // 20 processes mid-fork, more than the first 8 readers
        ExeReads.Result r = ExeReads.read(pids, () -> waitingOn(pid -> pid % 250 == 1, never), 50);
        assertThat(r.unknown()).hasSize(20).allMatch(pid -> pid % 250 == 1);
        assertThat(r.exes()).hasSize(4980);
        never.countDown();
    }

    /** Reads "/opt/tool", waiting on {@code until} for the pids that {@code waits} names (their lock is held). */
    private static java.util.function.IntFunction<String> waitingOn(java.util.function.IntPredicate waits, CountDownLatch until) {
        return pid -> {
            if (waits.test(pid)) {
                try {
                    until.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return "/opt/tool";
        };
    }
}
