// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.stop.act.Actuator;
import dev.runaway.stop.helper.HelperKeeper;
import dev.runaway.stop.helper.HelperUnavailable;
import dev.runaway.analysis.Snapshot;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console never raises a password dialog unasked: a spike only makes an offer that says why;
 * the helper starts when the user accepts it (or opens a stop plan), once, and a declined offer
 * is not made again.
 */
class HelperOfferTest {
    private static final Snapshot SPIKE = HelperAheadOfNeedTest.snapshot(5_000);

    @Test
    void aSpikeOffersAndOnlyTheUsersYesStartsTheHelper() throws Exception {
        AtomicInteger starts = new AtomicInteger();
        try (Actuator actuator = new Actuator(Path.of("/proc"), () -> {
            starts.incrementAndGet();
            throw new HelperUnavailable("the password dialog was cancelled");
        })) {
            HelperKeeper keeper = new HelperKeeper(actuator, false);
            keeper.onSnapshot(SPIKE);
            keeper.onSnapshot(SPIKE);
            assertThat(starts).as("no dialog on a spike").hasValue(0);
            assertThat(keeper.state()).isEqualTo(HelperKeeper.State.OFFERED);
            assertThat(keeper.offer()).get().asString().contains("5000 forks/s").contains("pkexec will ask for an administrator's password");

            keeper.prepare();
            for (int i = 0; i < 200 && keeper.state() != HelperKeeper.State.UNAVAILABLE; i++) Thread.sleep(10);
            assertThat(starts).hasValue(1);
            assertThat(keeper.offer()).isEmpty();
            assertThat(keeper.describe()).isEqualTo("helper not available: the password dialog was cancelled; your own privileges only");
            keeper.onSnapshot(SPIKE);
            assertThat(starts).as("a failure is said once, not retried on the next spike").hasValue(1);
        }
    }

    @Test
    void aDeclinedOfferIsNotMadeAgain() {
        try (Actuator actuator = new Actuator(Path.of("/proc"), () -> null)) {
            HelperKeeper keeper = new HelperKeeper(actuator, false);
            keeper.onSnapshot(SPIKE);
            assertThat(keeper.offer()).isPresent();
            keeper.decline();
            keeper.onSnapshot(SPIKE);
            assertThat(keeper.offer()).isEmpty();
            assertThat(keeper.state()).isEqualTo(HelperKeeper.State.IDLE);
        }
    }
}
