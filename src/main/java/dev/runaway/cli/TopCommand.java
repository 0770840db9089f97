// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import dev.runaway.analysis.LiveAnalysis;
import dev.runaway.tui.TopScreen;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.time.Duration;
import java.util.concurrent.Callable;

/** {@code runaway top}: a refreshing terminal view of the groups, usable over SSH. */
@Command(name = "top", mixinStandardHelpOptions = true,
        description = {"A refreshing terminal view: machine totals, then command groups, most severe first.",
                "Keys as in htop: Up and Down (or a click) select a group, F9 or k opens the guided stop of the"
                        + " selected group (its plan; Enter runs it, Esc cancels) and shows its steps to zero confirmed,"
                        + " F5 or t shows the chains as a tree, F6 or < > sorts (tasks, rate, memory, cpu), / filters,"
                        + " F1 or ? shows the keys, F10 or q (or Ctrl-C) quits.",
                "Without a terminal, or with -n, prints plain frames."})
public final class TopCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = {"-n", "--iterations"}, paramLabel = "N", description = "print N plain frames and exit")
    Integer iterations;

    @Option(names = {"-d", "--delay"}, paramLabel = "DURATION", defaultValue = "1s", converter = Durations.class,
            description = "time between frames (default: ${DEFAULT-VALUE})")
    Duration delay;

    @Override
    public Integer call() throws Exception {
        dev.runaway.stop.act.OomShield.protectSelf(java.nio.file.Path.of("/proc"), null); // the console outlives the runaway
        try (LiveAnalysis live = LiveAnalysis.live().sharingLineage(dev.runaway.procfs.LineageQuestion.Keeper.TOP).start()) {
            TopScreen screen = new TopScreen(live, spec.commandLine().getOut());
            if (iterations == null && System.console() != null) screen.showInteractive(delay.toMillis());
            else screen.showBatch(iterations == null ? Integer.MAX_VALUE : iterations, delay.toMillis());
        }
        return 0;
    }
}
