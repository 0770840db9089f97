// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sandbox;

import java.time.Instant;

/**
 * One look at a sandbox.
 *
 * @param tasks        tasks counted against the cap (threads included)
 * @param processes    member processes
 * @param rssBytes     resident memory of all members
 * @param failedForks  forks refused by the cap so far (-1 where unknown)
 */
public record SandboxSample(Instant time, double secondsSinceStart, int tasks, int processes, long rssBytes,
                            long failedForks) {
}
