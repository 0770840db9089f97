// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.guard;

import java.util.Locale;

/** How a hold ended: counted by the guard, a series each in the metrics ({@code runaway_guard_holds_ended_total{how}}). */
public enum HoldEnd {
    /** A person released it (the notification, {@code --release}), or the guard stopping released it. */
    RELEASED,
    /** A person asked the guard to stop it to zero (the notification's Stop, {@code --stop}). */
    STOPPED,
    /** Nobody answered for the policy's {@code kill-after}: the guard stopped it to zero. */
    KILL_AFTER,
    /** Its processes went: a guided stop from elsewhere (console, top, runaway stop), or they exited. */
    GONE;

    /** The metric's label: released, stopped, kill_after, gone. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
