// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.plan;

/** The ways to stop a set of processes from growing, strongest first. */
public enum Lever {
    FREEZE_CGROUP("freeze the cgroup that holds only the targets"),
    REVOKE_EXEC("take execute permission off the targets' disposable binaries"),
    QUARANTINE("move the targets into a fresh frozen cgroup"),
    SIGSTOP_SWEEP("stop every target with SIGSTOP, sweeping until no new one appears");

    private final String description;

    Lever(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
