// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.bench;

import dev.runaway.analysis.Snapshot;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import dev.runaway.ui.ConsoleSession;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
                         double scanWorstMs, UiProbe.Figures ui, double cpuCores, long rssBytes, int pressing,
                         double pulsesPerSecond, double loadAverageMax, UiProbe.WindowStop windowStop, FireSession fireSession) {
    }

    /**
     * Where the pressing drill's session is. Xvfb under xvfb-run shares the bench's session; on a
     * desktop the display server has a session (or cgroup) of its own, apart from a runaway started
     * in a terminal or a CI job, and the kernel shares the CPU between sessions (autogroup) or
     * cgroups before it shares it between their tasks.
     */
    public enum FireSession {
        /** The runaway leads a session of its own, apart from the bench, its window and Xvfb: as on a desktop. */
        OWN,
        /** The runaway in the bench's session, with Xvfb: a display server starved with the runaway's own tasks. */
        SHARED
    }

    private final int sleepers;
    private final Duration duration;
    private final Duration warmUp;
    private final PrintWriter progress;
    private final int pressing;
    private final FireSession fireSession;

    public UiBench(int sleepers, Duration duration, Duration warmUp, PrintWriter progress) {
        this(sleepers, 0, FireSession.OWN, duration, warmUp, progress);
    }

    /** With {@code pressing} tasks of the pressing drill at their cap beside the sleepers: a machine on fire. */
    public UiBench(int sleepers, int pressing, FireSession fireSession, Duration duration, Duration warmUp, PrintWriter progress) {
        this.pressing = pressing;
        this.fireSession = fireSession;
        this.sleepers = sleepers;
        this.duration = duration;
        this.warmUp = warmUp;
        this.progress = progress;
    }

    public Result run() throws Exception {
        Duration lifetime = duration.plus(warmUp).plusMinutes(5);
        try (PidMax pidMax = PidMax.atLeast(sleepers + pressing + 16_384, progress);
             Sandbox sandbox = Sandboxes.create(SandboxSpec.of("bench-ui", sleepers + 64).withLifetime(lifetime))) {
            dev.runaway.drill.Drill fire = null;
            if (sleepers > 0) {
                progress.printf("starting %,d sleepers in %s%n", sleepers, sandbox.containment());
                progress.flush();
                ScanBench.startSleepers(sandbox, sleepers);
            }
            // Recording, as the console does by default, to a file of the bench's own that goes at the end.
            Path folder = Files.createTempDirectory("runaway-bench-ui");
            try (ConsoleSession session = ConsoleSession.live(Optional.of(folder.resolve("incident.jsonl")))) {
                List<Double> scans = Collections.synchronizedList(new ArrayList<>());
                int[] processes = {0}; // the latest scan's; kept as the measuring ends (after the stop only the rest of the machine is left)
                int[] processesAtStop = {-1};
                session.live().orElseThrow().onSnapshot((Snapshot s) -> {
                    scans.add(s.scanNanos() / 1e6);
                    processes[0] = s.processes();
                });
                List<Long> pulses = Collections.synchronizedList(new ArrayList<>());
                session.live().orElseThrow().onPulse(p -> pulses.add(System.nanoTime()));
                double[] loadMax = {0};
                UiProbe.WindowStop[] windowStop = {null};
                UiProbe probe = UiProbe.open(session);
                try {
                    progress.printf("window open; warming up for %d s%n", warmUp.toSeconds());
                    progress.flush();
                    Thread.sleep(Math.max(3000, warmUp.toMillis() / 2));
                    if (pressing > 0) {
                        CleanPages.beforeFire(progress);
                        // As a user meets a fire: the console already open, then the runaway starts.
                        fire = dev.runaway.drill.Drills.start(dev.runaway.drill.Scenario.PRESSING, pressing, 0, lifetime, false,
                                fireSession == FireSession.OWN);
                        progress.printf("%,d tasks of the pressing drill %s on their way to their cap, %s%n", pressing, fire.info().id(),
                                fireSession == FireSession.OWN ? "in a session of their own" : "in the bench's session (with Xvfb)");
                        progress.flush();
                        long capDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
                        while ((fire.sandbox().taskCount() < pressing || fire.sandbox().failedForks() <= 0) && System.nanoTime() < capDeadline) {
                            Thread.sleep(100);
                        }
                        progress.printf("  %,d tasks pressing on their cap, %,d forks refused; load %.0f%n", fire.sandbox().taskCount(),
                                fire.sandbox().failedForks(), load1());
                        progress.flush();
                    }
                    probe.expandBiggest();
                    Thread.sleep(Math.max(0, warmUp.toMillis() / 2));
                    progress.printf("measuring for %d s%n", duration.toSeconds());
                    progress.flush();
                    scans.clear();
                    pulses.clear();
                    long cpu0 = cpuNanos();
                    long t0 = System.nanoTime();
                    probe.measure(true);
                    long end = t0 + duration.toNanos();
                    while (System.nanoTime() < end) {
                        loadMax[0] = Math.max(loadMax[0], load1());
                        Thread.sleep(Math.min(1000, Math.max(1, (end - System.nanoTime()) / 1_000_000)));
                    }
                    probe.measure(false);
                    processesAtStop[0] = processes[0];
                    progress.printf("the window's scene: %s%n", probe.sceneNodes());
                    progress.flush();
                    if (fire != null) {
                        progress.printf("stopping the pressing drill through the window: STOP, plan, Enter%n");
                        progress.flush();
                        windowStop[0] = probe.stopFromEnter(fire.folder().resolve("cache/tool").toString(),
                                ((dev.runaway.sandbox.CgroupSandbox) fire.sandbox()).dirs().memberDir(), Duration.ofMinutes(5));
                        progress.printf("  plan shown %,d ms after STOP; Enter to growth stopped %,d ms, to '%s' %,d ms%n",
                                windowStop[0].planMillis(), windowStop[0].enterToGrowthStoppedMillis(), windowStop[0].state(),
                                windowStop[0].enterToZeroMillis());
                        progress.printf("  the plan: %s%n", windowStop[0].plan().strip().replace("\n", " | "));
                        progress.flush();
                    }
                    double pulseRate = pulses.size() / ((System.nanoTime() - t0) / 1e9);
                    double seconds = (System.nanoTime() - t0) / 1e9;
                    double cores = (cpuNanos() - cpu0) / 1e9 / seconds;
                    List<Double> sorted;
                    synchronized (scans) {
                        sorted = new ArrayList<>(scans);
                    }
                    Collections.sort(sorted);
                    return new Result(sleepers, processesAtStop[0], probe.rows(), Math.round(seconds * 10) / 10.0,
                            sorted.isEmpty() ? Double.NaN : round(ScanBench.median(sorted)),
                            sorted.isEmpty() ? Double.NaN : round(sorted.get(sorted.size() - 1)), probe.figures(),
                            round(cores), ScanBench.peakRssBytes(), pressing, round(pulseRate), round(loadMax[0]), windowStop[0], fireSession);
                } finally {
                    probe.close();
                    if (fire != null) fire.close();
                }
            } finally {
                try (var files = Files.list(folder)) {
                    for (Path f : files.toList()) Files.deleteIfExists(f);
                }
                Files.deleteIfExists(folder);
            }
        }
    }

    private static double load1() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+")[0]);
        } catch (java.io.IOException | RuntimeException e) {
            return 0;
        }
    }

    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static double round(double v) {
        return Math.round(v * 10) / 10.0;
    }
}
