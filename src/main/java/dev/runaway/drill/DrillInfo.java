// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.drill;

import java.time.Instant;

/**
 * What was started, kept as drill.json in the drill's folder so {@code drill --list} and
 * {@code drill --stop} in another process can find it.
 *
 * @param id          the drill's id, also its sandbox label ({@code drill-linear-3f2a})
 * @param rootPid     the first process of the workload
 * @param folder      the drill's temporary folder (scripts, the disposable binary, the log)
 * @param levelMiB    memory each level holds, for the linear drill (0 for the others)
 */
public record DrillInfo(String id, Scenario scenario, String sandboxId, String containment, int maxTasks,
                        long rootPid, String folder, long levelMiB, Instant startedAt, long lifetimeSeconds,
                        boolean detached) {
}
