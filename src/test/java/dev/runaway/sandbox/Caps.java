// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sandbox;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Waiting for a workload to press on its sandbox's cap, for tests that need it at full growth. */
public final class Caps {
    private Caps() {
    }

    /** Returns once the cap has refused a fork; fails the test after {@code seconds}. */
    public static void awaitRefusedFork(Sandbox sandbox, int seconds) throws InterruptedException {
        await().atMost(Duration.ofSeconds(seconds)).pollInterval(Duration.ofMillis(50)).untilAsserted(() ->
                assertThat(sandbox.failedForks()).as("the workload reached its cap of %d within %d s", sandbox.spec().tasksMax(), seconds)
                        .isPositive());
    }
}
