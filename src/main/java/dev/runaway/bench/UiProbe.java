// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.bench;

import dev.runaway.ui.ConsoleSession;
import dev.runaway.ui.WindowSeam;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Measures how responsive a console window is, for {@code runaway bench ui}: every 20 ms a
 * task is posted to the JavaFX thread and the delay until it runs is kept (a stall shows as a
 * long delay); every refresh, the age of the newest pulse it shows (from the sampler's thread
 * handing it over to the label being set). A collector's pause stops the posting thread too, so
 * no task waits through it; the gaps between the probe's tasks running on the JavaFX thread (by
 * the wall clock) are what show such freezes.
 */
public final class UiProbe implements AutoCloseable {
    /** Figures in milliseconds. */
    public record Figures(int fxSamples, double fxMedianMs, double fxP99Ms, double fxWorstMs, int stallsOver100Ms,
                          int renders, double sampleToScreenMedianMs, double sampleToScreenP95Ms,
                          double sampleToScreenWorstMs, double freezeWorstMs, int freezesOver100Ms,
                          List<Double> freezesAtUptimeSeconds, java.util.Map<String, Integer> frozenIn) {
    }

    /** How long the JavaFX thread must have run no probe task before the probe looks where it is. */
    public static final long FROZEN_LOOK_MS = 150;

    /** The probe's period: a gap between two of its tasks longer than this, plus 100 ms, is a freeze. */
    static final double PERIOD_MS = 20;

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        // Raised like the window's threads: a poster that waits for a CPU would count its own wait as the window's.
        Thread t = new Thread(() -> {
            dev.runaway.sys.Sched.aheadOfOrdinaryTasks();
            r.run();
        }, "runaway-ui-probe");
        t.setDaemon(true);
        return t;
    });
    private final List<Double> fxDelays = Collections.synchronizedList(new ArrayList<>());
    private final List<Double> sampleAges = Collections.synchronizedList(new ArrayList<>());
    private final List<Double> runGaps = Collections.synchronizedList(new ArrayList<>());
    /** When each freeze over 100 ms ended, in JVM uptime: to line up with -Xlog:gc, whose times are uptime too. */
    private final List<Double> freezesAt = Collections.synchronizedList(new ArrayList<>());
    private long lastRun; // JavaFX thread only
    /** Where the JavaFX thread was in each freeze, looked at once per freeze: its Java frames and its kernel wait. */
    private final java.util.Map<String, Integer> frozenIn = new java.util.concurrent.ConcurrentHashMap<>();
    private volatile Thread fxThread;
    private volatile int fxTid;
    private volatile long lastRunSeen;
    private long lookedAtRun; // probe thread only: the last run before the freeze already looked at
    private long lookedAtMs;  // probe thread only: how far into that freeze
    private volatile boolean measuring;
    private long lastArrival;

    private UiProbe() {
    }

    /** Opens a console window for the session (the toolkit started if needed) and probes it. */
    public static UiProbe open(ConsoleSession session) throws InterruptedException {
        UiProbe probe = new UiProbe();
        probe.window = WindowSeam.open(session);
        probe.window.onRender(probe::rendered);
        probe.timer.scheduleAtFixedRate(probe::post, 20, 20, TimeUnit.MILLISECONDS);
        return probe;
    }

    private WindowSeam window;

    private void post() {
        long posted = System.nanoTime();
        lookIfFrozen(posted);
        window.runLater(() -> {
            long now = System.nanoTime();
            if (fxThread == null) {
                fxThread = Thread.currentThread();
                fxTid = dev.runaway.sys.Sched.currentTid();
            }
            lastRunSeen = now;
            if (measuring) {
                fxDelays.add((now - posted) / 1e6);
                if (lastRun != 0) {
                    double gap = (now - lastRun) / 1e6 - PERIOD_MS;
                    runGaps.add(gap);
                    if (gap > 100) freezesAt.add(java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime() / 1e3);
                }
            }
            lastRun = now;
        });
    }

    /**
     * When no probe task has run for {@link #FROZEN_LOOK_MS}, once per freeze: the JavaFX
     * thread's top Java frames and its kernel wait channel (a collection, work of its own, or a
     * wait on the display server tell apart there).
     */
    private void lookIfFrozen(long now) {
        long last = lastRunSeen;
        Thread fx = fxThread;
        long frozenMs = (now - last) / 1_000_000;
        if (!measuring || fx == null || last == 0 || frozenMs < FROZEN_LOOK_MS) return;
        if (last == lookedAtRun && frozenMs < lookedAtMs + FROZEN_LOOK_MS) return; // again every 150 ms of the same freeze
        lookedAtRun = last;
        lookedAtMs = frozenMs;
        StringBuilder where = new StringBuilder("at " + (frozenMs / FROZEN_LOOK_MS * FROZEN_LOOK_MS) + " ms: ");
        StackTraceElement[] stack = fx.getStackTrace();
        // The JDK's stream and collection frames say little (one freeze read "DistinctOps$1$2.accept <
        // ReferencePipeline..."): six frames past them name whose work it was.
        int shown = 0;
        for (int i = 0; i < stack.length && shown < 6; i++) {
            if (shown > 0 && stack[i].getClassName().startsWith("java.util.")) continue;
            where.append(shown++ == 0 ? "" : " < ").append(stack[i].getClassName().replaceAll(".*\\.", ""))
                    .append('.').append(stack[i].getMethodName());
        }
        where.append(' ').append(kernelSide(fxTid));
        // runLater reaches the JavaFX thread through GTK's dispatcher; its renderer draws each frame.
        for (int tid : window.toolkitThreads()) where.append("; ").append(comm(tid)).append(' ').append(kernelSide(tid));
        frozenIn.merge(where.toString(), 1, Integer::sum);
    }

    /** A thread's scheduling policy and wait channel, in brackets ("[RR, poll_schedule_timeout]"). */
    private static String kernelSide(int tid) {
        try {
            java.nio.file.Path task = java.nio.file.Path.of("/proc/self/task/" + tid);
            String stat = java.nio.file.Files.readString(task.resolve("stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
            String policy = switch (f[41 - 3]) {
                case "0" -> "ordinary";
                case "2" -> "RR";
                default -> "policy " + f[41 - 3];
            };
            String stack;
            try {
                stack = String.join(" < ", java.nio.file.Files.readAllLines(task.resolve("stack")).stream().limit(4)
                        .map(l -> l.replaceAll("^\\[<[0-9a-f]+>\\] ", "").replaceAll("\\+0x.*", "")).toList());
            } catch (java.io.IOException | RuntimeException notRoot) {
                stack = java.nio.file.Files.readString(task.resolve("wchan")).strip();
            }
            return "[" + policy + ", state " + f[0] + ", " + stack + "]";
        } catch (java.io.IOException | RuntimeException unreadable) {
            return "[gone]";
        }
    }

    private static String comm(int tid) {
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/self/task/" + tid + "/comm")).strip();
        } catch (java.io.IOException unreadable) {
            return "?";
        }
    }

    private void rendered(long arrivalNanos) {
        if (!measuring || arrivalNanos == lastArrival) return;
        lastArrival = arrivalNanos;
        sampleAges.add((System.nanoTime() - arrivalNanos) / 1e6);
    }

    /** Opens the biggest group and its first chain, so the table holds its rows while measured. */
    public void expandBiggest() throws InterruptedException {
        window.expandBiggestGroup();
    }

    /** A stop driven through the window, in milliseconds (-1: not reached). */
    public record WindowStop(long planMillis, long enterToGrowthStoppedMillis, long enterToZeroMillis, String state, String plan) {
    }

    /**
     * As a user does it: selects the group {@code key} in the table, presses STOP, waits for the
     * plan, then presses Enter (a key event to the window, which its default button takes), and
     * watches the group's cgroup from outside for growth stopped ({@code pids.max} 0 or frozen)
     * and the panel for the outcome.
     */
    public WindowStop stopFromEnter(String key, java.nio.file.Path cgroup, java.time.Duration limit) throws Exception {
        long deadline = System.nanoTime() + limit.toNanos();
        long planStart = System.nanoTime();
        boolean opened = false;
        while (!opened && System.nanoTime() < deadline) {
            opened = window.pressStop(key);
            if (!opened) Thread.sleep(200);
        }
        if (!opened) return new WindowStop(-1, -1, -1, "the group never showed or could not be selected", "");
        boolean ready = false;
        while (!ready && System.nanoTime() < deadline) {
            ready = window.planReady();
            if (!ready) Thread.sleep(50);
        }
        long planMillis = (System.nanoTime() - planStart) / 1_000_000;
        String plan = window.plan();
        if (!ready) return new WindowStop(planMillis, -1, -1, "no plan within the limit", plan);
        // The watch must not be later than what it watches: raised like the stop it measures.
        try (var raised = dev.runaway.sys.Sched.raisedWhile()) {
            return afterEnter(cgroup, deadline, planMillis, plan);
        }
    }

    private WindowStop afterEnter(java.nio.file.Path cgroup, long deadline, long planMillis, String plan) throws Exception {
        long enter = System.nanoTime();
        window.pressEnter();
        long growth = -1;
        while (growth < 0 && System.nanoTime() < deadline) {
            if (read(cgroup.resolve("pids.max")).equals("0") || read(cgroup.resolve("cgroup.freeze")).equals("1")
                    || !java.nio.file.Files.isDirectory(cgroup)) {
                growth = (System.nanoTime() - enter) / 1_000_000;
            } else {
                Thread.sleep(1); // a spin would take a CPU from the stop being measured
            }
        }
        String state = "";
        long zero = -1;
        while (zero < 0 && System.nanoTime() < deadline) {
            state = window.stopState();
            if (state.startsWith("Zero")) zero = (System.nanoTime() - enter) / 1_000_000;
            else Thread.sleep(50);
        }
        return new WindowStop(planMillis, growth, zero, state, plan);
    }

    private static String read(java.nio.file.Path file) {
        try {
            return java.nio.file.Files.readString(file).strip();
        } catch (java.io.IOException gone) {
            return "";
        }
    }

    /** Rows the chains view has made (groups, and what expansion created). */
    public int rows() throws InterruptedException {
        return window.rowsMade();
    }

    public void measure(boolean on) {
        if (on) {
            fxDelays.clear();
            sampleAges.clear();
            runGaps.clear();
            freezesAt.clear();
            frozenIn.clear();
        }
        measuring = on;
    }

    /**
     * The window's scene graph in numbers: its nodes, and the parents with the most children
     * (class and count). Every pulse walks the whole graph to update bounds: a profile of a fire
     * found the JavaFX thread there in half its samples.
     */
    public String sceneNodes() throws InterruptedException {
        return window.sceneNodes();
    }

    public Figures figures() {
        List<Double> fx = sorted(fxDelays);
        List<Double> age = sorted(sampleAges);
        int stalls = episodes();
        List<Double> gaps = sorted(runGaps);
        int freezes = (int) gaps.stream().filter(g -> g > 100).count();
        return new Figures(fx.size(), pct(fx, 50), pct(fx, 99), pct(fx, 100), stalls, age.size(), pct(age, 50), pct(age, 95),
                pct(age, 100), pct(gaps, 100), freezes, List.copyOf(freezesAt), java.util.Map.copyOf(frozenIn));
    }

    /** Stalls as episodes: a run of posted tasks that each waited over 100 ms counts once. */
    private int episodes() {
        synchronized (fxDelays) {
            int n = 0;
            boolean in = false;
            for (double d : fxDelays) {
                if (d > 100 && !in) n++;
                in = d > 100;
            }
            return n;
        }
    }

    private static List<Double> sorted(List<Double> values) {
        synchronized (values) {
            List<Double> copy = new ArrayList<>(values);
            Collections.sort(copy);
            return copy;
        }
    }

    private static double pct(List<Double> sorted, int percent) {
        if (sorted.isEmpty()) return Double.NaN;
        int i = Math.min(sorted.size() - 1, (int) Math.ceil(percent / 100.0 * sorted.size()) - 1);
        return Math.round(sorted.get(Math.max(0, i)) * 10) / 10.0;
    }

    /** Closes the window (the session is the caller's). */
    @Override
    public void close() {
        timer.shutdownNow();
        window.close();
    }
}
