// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.guard;

import java.time.Instant;

/**
 * A group the guard holds (or, dry run, would hold), as {@code scan}, {@code top}, the console
 * and the metrics show it.
 *
 * @param lever     FREEZE_CGROUP or SIGSTOP_SWEEP; empty for a dry run
 * @param processes how many it held
 * @param owner     the uid its processes run as (-1 unknown)
 * @param dryRun    the policy said hold, and the guard only said so
 */
public record HeldGroup(String key, String cgroup, GuardRule rule, String why, Instant since, String lever, int processes,
                        int owner, boolean dryRun) {

    /** "HELD since 12:01:02: WHY" in a line. */
    public String words() {
        return (dryRun ? "would hold (dry run)" : "HELD by the guard") + " since " + since + ": " + why;
    }
}
