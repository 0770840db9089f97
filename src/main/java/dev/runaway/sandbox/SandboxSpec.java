// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sandbox;

import java.time.Duration;
import java.util.OptionalLong;

/**
 * What a sandbox should hold its workload to.
 *
 * @param label          short name, part of the cgroup name (e.g. {@code drill-linear-3f2a})
 * @param tasksMax       the process-count cap (pids.max, or RLIMIT_NPROC headroom unprivileged)
 * @param memoryMaxBytes a memory cap where a memory controller can be used
 * @param lifetime       hard lifetime, enforced by a watchdog that outlives this JVM
 * @param detached       true when the sandbox outlives the process that made it (until its
 *                       lifetime ends or someone tears it down)
 */
public record SandboxSpec(String label, int tasksMax, OptionalLong memoryMaxBytes, Duration lifetime, boolean detached) {

    public static final Duration DEFAULT_LIFETIME = Duration.ofMinutes(10);

    public SandboxSpec {
        if (tasksMax < 1) throw new IllegalArgumentException("tasksMax must be at least 1: " + tasksMax);
        if (lifetime.isNegative() || lifetime.isZero()) throw new IllegalArgumentException("lifetime must be positive");
    }

    public static SandboxSpec of(String label, int tasksMax) {
        return new SandboxSpec(label, tasksMax, OptionalLong.empty(), DEFAULT_LIFETIME, false);
    }

    public SandboxSpec withLifetime(Duration value) {
        return new SandboxSpec(label, tasksMax, memoryMaxBytes, value, detached);
    }

    public SandboxSpec withMemoryMax(long bytes) {
        return new SandboxSpec(label, tasksMax, OptionalLong.of(bytes), lifetime, detached);
    }

    public SandboxSpec detach() {
        return new SandboxSpec(label, tasksMax, memoryMaxBytes, lifetime, true);
    }
}
