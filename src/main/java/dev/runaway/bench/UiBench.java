// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.bench;

import dev.runaway.analysis.Snapshot;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import dev.runaway.ui.ConsoleSession;
import dev.runaway.ui.UiProbe;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * The console's responsiveness under load: N sleepers in a sandbox (kernel.pid_max raised when
 * needed, and put back), the console window open on the live machine with the biggest group
 * expanded, and for a while: how long a task waits for the JavaFX thread (stalls), and how old
 * the newest pulse is when the window shows it. The console records meanwhile, as it does by
 * default. Figures, never a pass/fail test.
 */
public final class UiBench {
    /** What was measured. */
    public record Result(int sleepers, int processesSeen, int rowsMade, double seconds, double scanMedianMs,
                         double scanWorstMs, UiProbe.Figures ui, double cpuCores, long rssBytes) {
    }

    private final int sleepers;
    private final Duration duration;
    private final Duration warmUp;
    private final PrintWriter progress;

    public UiBench(int sleepers, Duration duration, Duration warmUp, PrintWriter progress) {
        this.sleepers = sleepers;
        this.duration = duration;
        this.warmUp = warmUp;
        this.progress = progress;
    }

    public Result run() throws Exception {
        try (PidMax pidMax = PidMax.atLeast(sleepers + 16_384, progress);
             Sandbox sandbox = Sandboxes.create(SandboxSpec.of("bench-ui", sleepers + 64)
                     .withLifetime(duration.plus(warmUp).plusMinutes(5)))) {
            if (sleepers > 0) {
                progress.printf("starting %,d sleepers in %s%n", sleepers, sandbox.containment());
                progress.flush();
                ScanBench.startSleepers(sandbox, sleepers);
            }
            // Recording, as the console does by default, to a file of the bench's own that goes at the end.
            Path folder = Files.createTempDirectory("runaway-bench-ui");
            try (ConsoleSession session = ConsoleSession.live(Optional.of(folder.resolve("incident.jsonl")))) {
                List<Double> scans = Collections.synchronizedList(new ArrayList<>());
                int[] processes = {0};
                session.live().orElseThrow().onSnapshot((Snapshot s) -> {
                    scans.add(s.scanNanos() / 1e6);
                    processes[0] = s.processes();
                });
                UiProbe probe = UiProbe.open(session);
                try {
                    progress.printf("window open; warming up for %d s%n", warmUp.toSeconds());
                    progress.flush();
                    Thread.sleep(Math.max(3000, warmUp.toMillis() / 2));
                    probe.expandBiggest();
                    Thread.sleep(Math.max(0, warmUp.toMillis() / 2));
                    progress.printf("measuring for %d s%n", duration.toSeconds());
                    progress.flush();
                    scans.clear();
                    long cpu0 = cpuNanos();
                    long t0 = System.nanoTime();
                    probe.measure(true);
                    Thread.sleep(duration.toMillis());
                    probe.measure(false);
                    double seconds = (System.nanoTime() - t0) / 1e9;
                    double cores = (cpuNanos() - cpu0) / 1e9 / seconds;
                    List<Double> sorted;
                    synchronized (scans) {
                        sorted = new ArrayList<>(scans);
                    }
                    Collections.sort(sorted);
                    return new Result(sleepers, processes[0], probe.rows(), Math.round(seconds * 10) / 10.0,
                            sorted.isEmpty() ? Double.NaN : round(ScanBench.median(sorted)),
                            sorted.isEmpty() ? Double.NaN : round(sorted.get(sorted.size() - 1)), probe.figures(),
                            round(cores), ScanBench.peakRssBytes());
                } finally {
                    probe.close();
                }
            } finally {
                try (var files = Files.list(folder)) {
                    for (Path f : files.toList()) Files.deleteIfExists(f);
                }
                Files.deleteIfExists(folder);
            }
        }
    }

    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static double round(double v) {
        return Math.round(v * 10) / 10.0;
    }
}
