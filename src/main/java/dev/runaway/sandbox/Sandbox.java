// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sandbox;

import java.io.IOException;
import java.util.Set;

/**
 * A workload's container: everything started through {@link #start} (and all it starts, even
 * processes that leave the tree) is counted against the spec's cap and torn down together,
 * in the stop order, on {@link #teardown}, at JVM exit, or by a watchdog at the hard lifetime.
 */
public sealed interface Sandbox extends AutoCloseable permits CgroupSandbox, SessionSandbox {

    /** The sandbox's name; for a cgroup sandbox, the cgroup directory name. */
    String id();

    SandboxSpec spec();

    /** In plain words, which containment is in force and what it does not cover. */
    String containment();

    /**
     * Starts the builder's command inside the sandbox. It joins the sandbox before it runs,
     * so nothing it forks is ever outside.
     */
    Process start(ProcessBuilder builder) throws IOException;

    /**
     * As {@link #start}, the command leading a session of its own, as a runaway started from
     * another terminal or a CI job does: the kernel's scheduler then shares the CPU between
     * sessions (autogroup) or cgroups before it shares it between their tasks.
     */
    Process startInOwnSession(ProcessBuilder builder) throws IOException;

    /** Pids of every member now (processes, not threads). */
    Set<Integer> memberPids();

    /** Tasks (threads included) counted against the cap now. */
    int taskCount();

    /** How often a fork was refused by the cap so far; -1 where the containment cannot tell. */
    long failedForks();

    /** Tears the sandbox down in the stop order; idempotent once zero is confirmed, else tries again. */
    TeardownReport teardown();

    @Override
    default void close() {
        teardown();
    }
}
