// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.view;

import dev.runaway.guard.GuardState;
import dev.runaway.guard.HeldGroup;

import java.util.Collection;
import java.util.Map;

/** What the running guard holds, for the console's rows and header: its file re-read at most every 2 s, whoever asks. */
public final class GuardHolds {
    private static final long EVERY_NANOS = 2_000_000_000L;
    private static volatile Map<String, HeldGroup> held = Map.of();
    private static volatile long readAt;

    private GuardHolds() {
    }

    /** The guard's hold of a command key, or null. */
    public static HeldGroup of(String command) {
        return fresh().get(command);
    }

    /** Every hold of the running guard (and, dry run, what it would hold): the header counts them. */
    public static Collection<HeldGroup> all() {
        return fresh().values();
    }

    private static Map<String, HeldGroup> fresh() {
        long now = System.nanoTime();
        if (readAt == 0 || now - readAt > EVERY_NANOS) {
            readAt = now;
            held = GuardState.read();
        }
        return held;
    }
}
