// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.drill;

import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.TeardownReport;

import java.nio.file.Path;

/**
 * A drill this process started: its sandbox, its folder and what was started. Closing it
 * tears the sandbox down in the stop order and removes the folder.
 */
public final class Drill implements AutoCloseable {
    private final DrillInfo info;
    private final Sandbox sandbox;
    private final Process root;

    Drill(DrillInfo info, Sandbox sandbox, Process root) {
        this.info = info;
        this.sandbox = sandbox;
        this.root = root;
    }

    public DrillInfo info() {
        return info;
    }

    public Sandbox sandbox() {
        return sandbox;
    }

    public Process root() {
        return root;
    }

    public Path folder() {
        return Path.of(info.folder());
    }

    /** Tears the sandbox down (stop growth, kill, confirm zero, remove) and deletes the folder. */
    public TeardownReport teardown() {
        TeardownReport report = sandbox.teardown();
        DrillFiles.deleteTree(folder());
        Drills.forget(this);
        return report;
    }

    @Override
    public void close() {
        teardown();
    }

    /** What a user needs to know about the drill, one fact a line. */
    public String describe() {
        return "DRILL " + info.id() + " (" + info.scenario().key() + ": " + info.scenario().description() + ")\n"
                + "  sandbox:   " + sandbox.containment() + "\n"
                + "  root pid:  " + info.rootPid() + "\n"
                + "  cap:       " + info.maxTasks() + " tasks\n"
                + (info.scenario() == Scenario.LINEAR ? "  memory:    " + info.levelMiB() + " MiB per level"
                        + (info.levelMiB() < Drills.LINEAR_LEVEL_MIB ? " (less than " + Drills.LINEAR_LEVEL_MIB
                        + ": the cap times that would take over a quarter of the free memory)" : "") + "\n" : "")
                + "  folder:    " + info.folder() + "\n"
                + "  lifetime:  " + info.lifetimeSeconds() + " s" + (info.detached() ? " (detached)" : "");
    }
}
