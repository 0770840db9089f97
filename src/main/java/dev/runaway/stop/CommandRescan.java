// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.analysis.Analyzer;
import dev.runaway.analysis.TargetSet;
import dev.runaway.model.PulseSample;
import dev.runaway.procfs.CgroupPids;
import dev.runaway.procfs.ProcReader;
import dev.runaway.procfs.ProcessTable;
import dev.runaway.procfs.PulseReader;
import dev.runaway.sys.LibC;

import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * A fresh, complete scan on every call, and the target set in it (of a command, a pid, a
 * cgroup): the stop
 * engine re-reads its targets this way between rounds, so new members are seen as they come.
 * Its analyzer keeps lineage across calls, so descendants whose parent exited are still found.
 */
public final class CommandRescan implements Supplier<TargetSet> {
    private final String command;
    private final java.util.function.BiPredicate<dev.runaway.model.ProcessSample, String> seed;
    private final ProcessTable table;
    private final Analyzer analyzer;
    private final PulseReader pulse;

    public CommandRescan(Path procRoot, String command, PulseReader pulse) {
        this(procRoot, command, (p, key) -> key.equals(command), pulse);
    }

    /** Targets seeded by any rule: a pid and what is below it, or a cgroup's members. */
    public CommandRescan(Path procRoot, String label, java.util.function.BiPredicate<dev.runaway.model.ProcessSample, String> seed,
                         PulseReader pulse) {
        this.command = label;
        this.seed = seed;
        this.table = new ProcessTable(new ProcReader(procRoot), LibC.INSTANCE.getpagesize());
        // The keys scan showed: the same /proc links resolve relative scripts and /dev/fd scripts.
        this.analyzer = new Analyzer(CgroupPids.live(), dev.runaway.procfs.ProcessCaps.none(),
                new dev.runaway.procfs.ProcPaths(procRoot));
        this.pulse = pulse;
    }

    @Override
    public TargetSet get() {
        PulseSample now = pulse.read();
        analyzer.analyze(table.scan(true), now);
        return analyzer.targets(command, seed);
    }
}
