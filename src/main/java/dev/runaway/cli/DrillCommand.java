// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import dev.runaway.bench.PidMax;
import dev.runaway.drill.Drill;
import dev.runaway.drill.DrillInfo;
import dev.runaway.drill.Drills;
import dev.runaway.drill.RunningDrill;
import dev.runaway.drill.Scenario;
import dev.runaway.model.Units;
import dev.runaway.sandbox.SandboxMonitor;
import dev.runaway.sandbox.SandboxSample;
import dev.runaway.sandbox.TeardownReport;
import dev.runaway.tui.DrillScreen;
import dev.runaway.timeline.IncidentFiles;
import dev.runaway.ui.ConsoleApp;
import dev.runaway.ui.ConsoleSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code runaway drill}: start, list and stop contained practice incidents. */
@Command(name = "drill", mixinStandardHelpOptions = true,
        description = "Start a contained practice incident: real processes that run away inside a sandbox "
                + "(a cgroup with a process-count cap), shown live until you tear it down.",
        footerHeading = "%nScenarios:%n",
        footer = {"  linear     one chain, ~16 MiB a level, ~32 levels a second (cap 400)",
                "  orphans    three chains of a disposable binary, parented to init (cap 600)",
                "  recursive  deploy.sh runs the tests, a test runs deploy.sh (cap 200)",
                "  fanout     each process starts two more (cap 1000)",
                "  pressing   every process tries to fork every 50 ms, backing off when refused (cap 2000);",
                "             --max-tasks up to 20000 and more (kernel.pid_max is raised for it and put back)",
                "",
                "Examples:",
                "  runaway drill linear                 watch it grow to its cap, then press q",
                "  runaway drill orphans --detach       leave it running for another tool",
                "  runaway drill pressing --max-tasks 5000 --view terminal   a machine on fire, contained",
                "  runaway drill --list",
                "  runaway drill --stop drill-orphans-1a2b"},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:done, torn down to zero", "1:zero was not confirmed", "2:usage or start error",
                "3:no drill with that id"})
public final class DrillCommand implements Callable<Integer> {
    enum View { AUTO, WINDOW, TERMINAL, LINES }

    @Parameters(arity = "0..1", paramLabel = "SCENARIO", description = "linear, orphans, recursive, fanout or pressing")
    String scenario;

    @Option(names = "--max-tasks", paramLabel = "N", description = "the sandbox's process-count cap (default: per scenario)")
    Integer maxTasks;

    @Option(names = "--lifetime", paramLabel = "DURATION", defaultValue = "10m", converter = Durations.class,
            description = "hard lifetime, after which a watchdog tears the drill down (default: ${DEFAULT-VALUE})")
    Duration lifetime;

    @Option(names = "--detach", description = "leave the drill running and return; stop it with --stop ID")
    boolean detach;

    @Option(names = "--view", paramLabel = "VIEW", defaultValue = "auto",
            description = "auto (a window when there is a display, else the terminal), window, terminal, lines")
    View view;

    @Option(names = "--list", description = "list running drills")
    boolean list;

    @Option(names = "--stop", paramLabel = "ID", description = "tear a drill down: stop growth, kill, confirm zero")
    String stopId;

    @Spec
    CommandSpec spec;

    private PrintWriter out;
    private PrintWriter err;

    @Override
    public Integer call() throws Exception {
        out = spec.commandLine().getOut();
        err = spec.commandLine().getErr();
        if (list) return list();
        if (stopId != null) return stop(stopId);
        if (scenario == null) {
            err.println("runaway drill: name a scenario (linear, orphans, recursive, fanout, pressing), or use --list or --stop ID");
            return 2;
        }
        Scenario chosen;
        try {
            chosen = Scenario.parse(scenario);
        } catch (IllegalArgumentException e) {
            err.println("runaway drill: " + e.getMessage());
            return 2;
        }
        int cap = maxTasks != null ? maxTasks : chosen.defaultMaxTasks();
        if (cap < 1) {
            err.println("runaway drill: --max-tasks must be at least 1");
            return 2;
        }
        int pidsWanted = pidsWanted(cap);
        if (detach && pidsWanted > currentPidMax()) {
            err.println("runaway drill: " + cap + " tasks need kernel.pid_max >= " + pidsWanted + " (it is " + currentPidMax()
                    + "); a detached drill could not put it back: run it without --detach, or ask for fewer tasks");
            return 2;
        }
        if (!detach) dev.runaway.stop.act.OomShield.protectSelf(java.nio.file.Path.of("/proc"), null);
        try (PidMax pidMax = PidMax.atLeast(pidsWanted, err)) {
            Drill drill = Drills.start(chosen, cap, lifetime, detach);
            out.println(drill.describe());
            out.flush();
            if (detach) {
                out.println("Running detached. Stop it with: runaway drill --stop " + drill.info().id());
                return 0;
            }
            return watchThenTearDown(drill);
        } catch (java.io.IOException e) {
            err.println("runaway drill: " + e.getMessage());
            return 2;
        }
    }

    /**
     * Pids the machine needs for the drill beside what runs now, with room left over for
     * everything else (a shell, the console, the stop): the drill must press on its own cap,
     * never on the machine's.
     */
    static int pidsWanted(int cap) {
        // /proc/loadavg's fourth field is runnable/total tasks.
        int tasksNow = new dev.runaway.procfs.ProcReader(java.nio.file.Path.of("/proc")).text("loadavg")
                .map(t -> t.trim().split("\\s+")).filter(f -> f.length >= 4 && f[3].contains("/"))
                .map(f -> Integer.parseInt(f[3].substring(f[3].indexOf('/') + 1))).orElse(0);
        return tasksNow + cap + PID_HEADROOM;
    }

    /** Pids left free beside a drill, so the machine's own limit is never what stops it. */
    static final int PID_HEADROOM = 8_192;

    private static int currentPidMax() {
        return new dev.runaway.procfs.ProcReader(java.nio.file.Path.of("/proc")).text("sys/kernel/pid_max")
                .map(String::trim).map(Integer::parseInt).orElse(Integer.MAX_VALUE);
    }

    private int watchThenTearDown(Drill drill) throws Exception {
        View chosen = view;
        if (chosen == View.AUTO) chosen = hasDisplay() ? View.WINDOW : System.console() != null ? View.TERMINAL : View.LINES;
        if (chosen == View.WINDOW) {
            Optional<TeardownReport> report = inConsole(drill);
            if (report.isPresent()) {
                out.println("Tore down " + drill.info().id() + ": " + report.get().summary());
                return report.get().zeroConfirmed() ? 0 : 1;
            }
            chosen = System.console() != null ? View.TERMINAL : View.LINES;
        }
        try (SandboxMonitor monitor = new SandboxMonitor(drill.sandbox()).start(Duration.ofMillis(100))) {
            DrillScreen screen = new DrillScreen(drill, monitor, out);
            out.flush();
            if (chosen == View.TERMINAL) screen.showInteractive();
            else screen.showLines();
            SandboxSample peak = monitor.peak();
            TeardownReport report = drill.teardown();
            out.println("Tore down " + drill.info().id() + ": " + report.summary());
            if (peak != null) {
                out.println("Peak: " + peak.tasks() + " tasks, " + Units.bytes(peak.rssBytes()) + " resident");
            }
            return report.zeroConfirmed() ? 0 : 1;
        }
    }

    /**
     * The drill in the console window, marked DRILL, recorded like any incident; torn down when
     * the window closes. Empty when the window could not open (the caller falls back to the terminal).
     */
    private Optional<TeardownReport> inConsole(Drill drill) throws Exception {
        ConsoleSession session = ConsoleSession.live(Optional.of(IncidentFiles.fresh()));
        session.adopt(drill);
        session.recorder().flatMap(r -> r.writer()).ifPresent(w -> out.println("Recording to " + w.file()));
        out.flush();
        try {
            java.nio.file.Path themeFile = ConsoleApp.themeFile();
            ConsoleApp.show(session, ConsoleApp.darkAtStart(false, themeFile), themeFile, ms -> { });
        } catch (RuntimeException | LinkageError e) {
            session.live().ifPresent(l -> l.close());
            session.recorder().ifPresent(r -> r.close());
            err.println("runaway: the window could not open (" + e.getMessage() + "); using the terminal view."
                    + " For the window, install GTK 3: apt-get install libgtk-3-0");
            return Optional.empty();
        }
        Optional<TeardownReport> report = session.stopDrill();
        if (report.isEmpty()) report = session.lastTeardown(); // torn down from the window's menu
        session.close();
        return report;
    }

    static boolean hasDisplay() {
        return notBlank(System.getenv("DISPLAY")) || notBlank(System.getenv("WAYLAND_DISPLAY"));
    }

    private static boolean notBlank(String s) {
        return s != null && !s.isBlank();
    }

    /** Start times in the machine's zone, to the second: what a person compares with a clock. */
    private static final java.time.format.DateTimeFormatter LOCAL_TIME = java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private int list() {
        List<RunningDrill> drills = Drills.list();
        if (drills.isEmpty()) {
            out.println("No drills running.");
            return 0;
        }
        out.printf("%-24s %-10s %7s %7s %9s  %s%n", "ID", "SCENARIO", "TASKS", "CAP", "LEFT", "STARTED");
        for (RunningDrill d : drills) {
            Optional<DrillInfo> info = d.info();
            long left = d.sandbox().name().deadlineEpochSecond() - Instant.now().getEpochSecond();
            out.printf("%-24s %-10s %7d %7d %8ds  %s%n", d.sandbox().name().label(),
                    info.map(i -> i.scenario().key()).orElse("?"), d.sandbox().taskCount(),
                    d.sandbox().spec().tasksMax(), Math.max(0, left),
                    info.map(i -> LOCAL_TIME.format(i.startedAt().atZone(java.time.ZoneId.systemDefault()))).orElse("?"));
        }
        return 0;
    }

    private int stop(String id) {
        Optional<TeardownReport> report = Drills.stop(id);
        if (report.isEmpty()) {
            err.println("runaway drill: no drill '" + id + "' is running (see: runaway drill --list)");
            return 3;
        }
        out.println("Tore down " + id + ": " + report.get().summary());
        return report.get().zeroConfirmed() ? 0 : 1;
    }
}
