// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import dev.runaway.model.Units;
import dev.runaway.sandbox.ContainedRun;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.concurrent.Callable;

/** {@code runaway run}: a command (a test suite, say) that cannot take the machine down. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Run a command (a test suite, say) so that it cannot take the machine down.",
                "It runs in its own sandbox: a process-count cap (and a memory cap where the machine allows), a subreaper",
                "so nothing it orphans escapes; at its end, a timeout or Ctrl-C, everything it started is torn down in the",
                "stop order with zero confirmed. Nested runs carry a depth and refuse past --max-depth."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"N:the command's own status", "120:the run could not start", "121:refused: nesting limit reached",
                "124:killed by the timeout", "125:the command failed and the task cap had refused forks"})
public final class RunCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--tasks-max", paramLabel = "N", defaultValue = "4096", description = "the task cap (default: ${DEFAULT-VALUE})")
    int tasksMax;

    @Option(names = "--memory-max", paramLabel = "SIZE", description = "a memory cap, e.g. 2G, where a cgroup memory controller is usable (v2, or v1 on a hybrid host)")
    String memoryMax;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "0", converter = Durations.class,
            description = "kill everything after this long (default: none)")
    Duration timeout;

    @Option(names = "--max-depth", paramLabel = "N", defaultValue = "8",
            description = "refuse when runs are nested deeper than this (default: ${DEFAULT-VALUE})")
    int maxDepth;

    @Option(names = "--record", paramLabel = "FILE",
            description = "record the run's timeline (tasks, memory, refused forks at 10 Hz, and how it ended) to FILE")
    java.nio.file.Path record;

    @Parameters(arity = "1..*", paramLabel = "CMD", description = "the command and its arguments (after --)")
    List<String> command;

    /** Where the nesting depth is read from (a test gives its own). */
    java.util.Map<String, String> environment = System.getenv();

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        int depth = ContainedRun.currentDepth(environment);
        if (depth >= maxDepth) {
            err.printf("runaway run: refused: nesting limit %d reached (%s=%d); a command that starts itself"
                    + " through runaway run stops here%n", maxDepth, ContainedRun.DEPTH_VARIABLE, depth);
            return ContainedRun.EXIT_NESTING;
        }
        if (tasksMax < 1) {
            err.println("runaway run: --tasks-max must be at least 1");
            return 2;
        }
        OptionalLong memory;
        try {
            memory = memoryMax == null ? OptionalLong.empty() : OptionalLong.of(Sizes.parse(memoryMax));
        } catch (IllegalArgumentException e) {
            err.println("runaway run: " + e.getMessage());
            return 2;
        }
        ContainedRun.Result r;
        try (RunRecording recording = record == null ? null : new RunRecording(record, command, tasksMax, err)) {
            r = new ContainedRun(command, tasksMax, memory, timeout).run(depth, containment -> {
                err.println("runaway run: contained by " + containment);
                err.flush();
                if (recording != null) recording.containment(containment);
            }, sample -> {
                if (recording != null) recording.sample(sample);
            });
            if (recording != null) recording.end(r);
        } catch (java.io.IOException | RuntimeException e) {
            err.println("runaway run: could not start " + command.get(0) + ": " + e.getMessage());
            return ContainedRun.EXIT_START_FAILED;
        }
        err.println(summary(r));
        return r.exitStatus();
    }

    static String summary(ContainedRun.Result r) {
        String how = r.timedOut() ? "killed by the timeout" : "exit " + r.commandStatus();
        return String.format(Locale.ROOT, "runaway run: %s after %.1f s; peak %d tasks, %s; %s; %d stray%s killed at the end; %s",
                how, r.took().toMillis() / 1000.0, r.peakTasks(), Units.bytes(r.peakRssBytes()),
                r.hitTaskCap() ? "hit the task cap (" + r.refusedForks() + " forks refused)" : "task cap not reached",
                r.straysKilled(), r.straysKilled() == 1 ? "" : "s",
                r.teardown().zeroConfirmed() ? "zero confirmed" : r.teardown().remaining() + " LEFT");
    }
}
