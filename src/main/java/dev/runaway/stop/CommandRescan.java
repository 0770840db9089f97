// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.stop.target.Exclusions;
import dev.runaway.stop.target.TargetRescan;
import dev.runaway.stop.target.Targets;
import dev.runaway.procfs.PulseReader;

import java.nio.file.Path;
import java.util.function.Supplier;

/** The definition of a command key's group ({@link Selector.Command}), read afresh on every call. */
public final class CommandRescan implements Supplier<Targets> {
    private final TargetRescan rescan;

    public CommandRescan(Path procRoot, String command, PulseReader pulse) {
        this.rescan = new TargetRescan(procRoot, new Selector.Command(command), Exclusions.ofThisProcess(procRoot), pulse);
    }

    @Override
    public Targets get() {
        return rescan.get();
    }
}
