// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sandbox;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * One command run so that it cannot take the machine down and is cleaned up completely: in a
 * sandbox with its caps, under a subreaper (anything it orphans stays below it), in a process
 * group of its own; at its end, on a timeout or on an interrupt, the whole sandbox is torn down
 * in the stop order and zero is confirmed.
 */
public final class ContainedRun {
    /** The environment variable that carries how deep runs are nested. */
    public static final String DEPTH_VARIABLE = "RUNAWAY_RUN_DEPTH";
    /** Exit statuses of the run itself, distinct from a command's usual ones. */
    public static final int EXIT_START_FAILED = 120;
    public static final int EXIT_NESTING = 121;
    public static final int EXIT_TIMEOUT = 124;
    public static final int EXIT_TASK_CAP = 125;

    /** What happened, for the one-line summary. */
    public record Result(int exitStatus, int commandStatus, boolean timedOut, boolean hitTaskCap, long refusedForks,
                         int peakTasks, long peakRssBytes, int straysKilled, Duration took, TeardownReport teardown,
                         String containment) {
    }

    private final List<String> command;
    private final int tasksMax;
    private final OptionalLong memoryMaxBytes;
    private final Duration timeout;

    public ContainedRun(List<String> command, int tasksMax, OptionalLong memoryMaxBytes, Duration timeout) {
        this.command = List.copyOf(command);
        this.tasksMax = tasksMax;
        this.memoryMaxBytes = memoryMaxBytes;
        this.timeout = timeout;
    }

    /** The depth this process runs at (0 outside any run), from the environment. */
    public static int currentDepth(Map<String, String> env) {
        try {
            return Math.max(0, Integer.parseInt(env.getOrDefault(DEPTH_VARIABLE, "0").trim()));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * Runs the command; {@code onStart} is told the containment in force before it starts.
     * The sandbox lives for the timeout plus a minute, or a day without one.
     */
    public Result run(int depth, java.util.function.Consumer<String> onStart) throws IOException, InterruptedException {
        return run(depth, onStart, sample -> { });
    }

    /** As {@link #run(int, java.util.function.Consumer)}, telling {@code onSample} every 100 ms sample (a recording). */
    public Result run(int depth, java.util.function.Consumer<String> onStart, java.util.function.Consumer<SandboxSample> onSample)
            throws IOException, InterruptedException {
        long started = System.nanoTime();
        Duration lifetime = timeout.isZero() ? Duration.ofDays(1) : timeout.plusMinutes(1);
        String label = "run-" + sanitize(command.get(0));
        SandboxSpec spec = new SandboxSpec(label, tasksMax, memoryMaxBytes, lifetime, false);
        try (Sandbox sandbox = Sandboxes.create(spec);
             SandboxMonitor monitor = new SandboxMonitor(sandbox).start(Duration.ofMillis(100))) {
            monitor.addListener(onSample);
            onStart.accept(sandbox.containment());
            List<String> reaped = new ArrayList<>(List.of(NativeBinaries.find(NativeBinaries.SANDBOX).toString(), "reap", "--"));
            reaped.addAll(command);
            ProcessBuilder builder = new ProcessBuilder(reaped).inheritIO();
            builder.environment().put(DEPTH_VARIABLE, Integer.toString(depth + 1));
            Process process = sandbox.start(builder);
            boolean finished = timeout.isZero() ? waitFor(process) : process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            int commandStatus = finished ? process.exitValue() : -1;
            monitor.sample();
            Set<Integer> left = sandbox.memberPids();
            left.remove((int) process.pid()); // the reaper itself, on its way out
            long refused = Math.max(0, sandbox.failedForks());
            TeardownReport report = sandbox.teardown();
            var peak = monitor.peak();
            boolean hitCap = refused > 0;
            int exit = !finished ? EXIT_TIMEOUT : hitCap && commandStatus != 0 ? EXIT_TASK_CAP : commandStatus;
            return new Result(exit, commandStatus, !finished, hitCap, refused, peak == null ? 0 : peak.tasks(),
                    peak == null ? 0 : peak.rssBytes(), left.size(), Duration.ofNanos(System.nanoTime() - started), report,
                    sandbox.containment());
        }
    }

    private static boolean waitFor(Process process) throws InterruptedException {
        process.waitFor();
        return true;
    }

    private static String sanitize(String program) {
        String name = program.substring(program.lastIndexOf('/') + 1).replaceAll("[^A-Za-z0-9_-]", "_");
        return name.isEmpty() ? "command" : name.substring(0, Math.min(40, name.length()));
    }
}
