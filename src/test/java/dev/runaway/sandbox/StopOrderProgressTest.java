// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sandbox;

import dev.runaway.stoporder.StopOrder;
import dev.runaway.stoporder.StopOutcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Confirm-zero waits as long as the killed set keeps falling: at 20,000 pressing tasks the
 * kernel took 16 s to tear them down after one cgroup.kill, and a stop that says "zero not
 * reached" while they are still going is wrong. A set that stops falling still ends the wait.
 * No processes: the census is a stand-in whose every reading takes 100 ms.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class StopOrderProgressTest {
    private static final Duration TIMEOUT = Duration.ofMillis(300);

    /** A census that reads {@code counts} in turn, the last one for ever, each reading taking 100 ms. */
    private static StopOrder.Target dying(int... counts) {
        return new StopOrder.Target() {
            private int reading;

            @Override
            public List<StopOrder.Growth> growthLevers() {
                return List.of();
            }

            @Override
            public void kill(StopOrder.Growth held, StopOrder.Log log) {
            }

            @Override
            public StopOrder.Census census() {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
                int n = counts[Math.min(reading++, counts.length - 1)];
                List<Integer> alive = new ArrayList<>();
                for (int i = 0; i < n; i++) alive.add(1000 + i);
                return StopOrder.Census.of(alive);
            }

            @Override
            public void killStragglers(StopOrder.Census census, StopOrder.Log log) {
            }

            @Override
            public void restore(StopOrder.Log log) {
            }
        };
    }

    @Test
    void aSetThatKeepsFallingIsWaitedForPastTheTimeout() {
        // Eight readings of 100 ms before zero: well past the 300 ms timeout, each one a new low.
        StopOutcome outcome = new StopOrder(Duration.ZERO, TIMEOUT, 1).run(dying(8, 7, 6, 5, 4, 3, 2, 1, 0), s -> { });
        assertThat(outcome.status()).as(outcome.steps().toString()).isEqualTo(StopOutcome.Status.ZERO_CONFIRMED);
    }

    @Test
    void aSetThatStopsFallingEndsTheWaitAndSaysSo() {
        StopOutcome outcome = new StopOrder(Duration.ZERO, TIMEOUT, 1).run(dying(5, 4, 3), s -> { });
        assertThat(outcome.status()).isEqualTo(StopOutcome.Status.SURVIVORS);
        assertThat(outcome.survivors()).hasSize(3);
        assertThat(outcome.steps().get(outcome.steps().size() - 1).note())
                .isEqualTo("zero not reached: 3 left, none gone in the last 300 ms");
    }
}
