// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.runaway.bench.ScanBench;
import dev.runaway.model.Json;
import dev.runaway.model.Units;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;

/** {@code runaway bench scan}: readers timed side by side, as figures (never a pass/fail test). */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Benchmarks that print figures (never a pass or fail).",
                "scan: starts --procs sleepers in a sandbox (raising kernel.pid_max when needed, and putting it back),",
                "then times our scans, ps, OSHI, ProcessHandle and a minimal C reader side by side.",
                "live: the sampler and analyzer alone, as the console runs them. stop: the guided stop and a naive",
                "kill loop on each drill shape, --trials times; with --pressing N, the stops side by side on N pressing tasks.",
                "record: how fast an incident file grows with --procs sleepers running, over --seconds. metrics: runaway metrics with --procs sleepers,",
                "--seconds alone then --seconds scraped every second."})
public final class BenchCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "WHAT", description = "scan; live (the sampler and analyzer alone, as the console runs them);"
            + " stop (the guided stop and a naive kill loop on each drill shape); record (incident file size per hour);"
            + " ui (the console window's JavaFX stalls and sample-to-screen time with --procs sleepers; needs a display);"
            + " metrics (runaway metrics' CPU, memory, scrape time and size with --procs sleepers)")
    String what;

    @Option(names = "--procs", paramLabel = "N", defaultValue = "50000", description = "sleepers to start (default: ${DEFAULT-VALUE})")
    int procs;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "5", description = "rounds per reader (default: ${DEFAULT-VALUE})")
    int rounds;

    @Option(names = "--seconds", paramLabel = "N", defaultValue = "30", description = "live: how long to run (default: ${DEFAULT-VALUE})")
    int seconds;

    @Option(names = "--warm-up", paramLabel = "N", defaultValue = "10", description = "live: seconds left out at the start (default: ${DEFAULT-VALUE})")
    int warmUp;

    @Option(names = "--trials", paramLabel = "N", defaultValue = "20", description = "stop: trials per drill shape (default: ${DEFAULT-VALUE}); stop --pressing and ui --pressing: fires one after another (default: 1)")
    int trials;

    @Option(names = "--pressing", paramLabel = "N", description = "stop: instead of the drill shapes, N tasks of the pressing"
            + " drill at their cap (a machine on fire): the guided stop from the command line and the console's path, a naive"
            + " kill loop and cgroup.kill side by side, and ps, runaway scan and the C reader listing the table under that load;"
            + " ui: N pressing tasks at their cap beside the --procs sleepers")
    Integer pressing;

    @Option(names = "--fire-session", paramLabel = "S", defaultValue = "OWN",
            description = "ui --pressing: OWN puts the runaway in a session of its own, as one started in another terminal or a CI"
                    + " job, apart from the display server (default: ${DEFAULT-VALUE}); SHARED puts it in the bench's session, with"
                    + " xvfb-run's Xvfb, whose tasks then share one slice of the CPU with the runaway's")
    dev.runaway.bench.UiBench.FireSession fireSession;

    @Option(names = "--cli-limit", paramLabel = "DURATION", defaultValue = "180s", converter = Durations.class,
            description = "stop --pressing: how long the command line's stop may take before it is killed (default: ${DEFAULT-VALUE})")
    Duration cliLimit;

    @Option(names = "--cli-shell", paramLabel = "S", defaultValue = "REALTIME",
            description = "stop --pressing: the command line's stop is typed into a shell, started before the fire, that runs as a"
                    + " ${COMPLETION-CANDIDATES} task (default: ${DEFAULT-VALUE}, as a root shell started with chrt --rr 1: its fork and the"
                    + " launcher's first steps then do not wait behind the runaway; ORDINARY: as an ordinary shell)")
    dev.runaway.bench.PressingBench.Shell cliShell;

    @Option(names = "--methods", paramLabel = "M", split = ",", description = "stop --pressing: which to run, of ${COMPLETION-CANDIDATES}"
            + " (default: all but FLOOR; the floor, one cgroup.kill of the same pressing fire, is measured before and after the trials of"
            + " every run that stops anything, and each stop is set against it; CGROUP_KILL measures it in each trial too; CLI stops"
            + " from the launcher with runaway-rt's own kill, CLI_JVM_KILL with it off; FLOOR: one cgroup.kill of N sleepers, the"
            + " kernel's exits alone; LISTINGS on a drill of its own, first)")
    java.util.Set<dev.runaway.bench.PressingBench.Method> methods = java.util.EnumSet.noneOf(dev.runaway.bench.PressingBench.Method.class);

    @Option(names = "--json", description = "the table as JSON: one entry per reader with reader, procs, medianMs, minMs, maxMs, ratioToC")
    boolean json;

    @Option(names = "--guard", description = "metrics: run runaway guard (the guard on the exporter's sampler) instead of runaway metrics")
    boolean guard;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if ("live".equals(what)) return live(out);
        if ("stop".equals(what)) return stop(out, err);
        if ("record".equals(what)) return record(out, err);
        if ("ui".equals(what)) return ui(out, err);
        if ("metrics".equals(what)) return metrics(out, err);
        if (!"scan".equals(what)) {
            err.println("runaway bench: unknown bench '" + what + "'; benches: scan, live, stop, record, ui, metrics");
            return 2;
        }
        if (procs < 1 || rounds < 1) {
            err.println("runaway bench: --procs and --rounds must be at least 1");
            return 2;
        }
        ScanBench.Result r = new ScanBench(procs, rounds, err).run();
        if (json) {
            ObjectMapper mapper = Json.TREES;
            ObjectNode root = mapper.createObjectNode();
            ArrayNode readers = root.putArray("readers");
            for (ScanBench.Row row : r.rows()) readers.add(mapper.valueToTree(row));
            root.put("incrementalChurnMs", r.incrementalMs());
            root.put("incrementalChurnListingMs", r.incrementalListingMs());
            root.put("incrementalFollowsProcessEvents", r.followsEvents());
            root.put("churnPercent", r.churnPercent());
            root.put("pulseMedianMs", r.pulseMedianMs());
            root.put("pulseWorstMs", r.pulseWorstMs());
            root.set("live", mapper.valueToTree(r.live()));
            root.put("loadBefore", r.loadBefore());
            root.put("loadAfter", r.loadAfter());
            out.println(Json.PRETTY.writeValueAsString(root));
        } else {
            out.printf("load average %s before the rounds, %s after%n", r.loadBefore(), r.loadAfter());
            out.printf("%-46s %7s %10s %17s %6s%n", "reader", "procs", "median ms", "spread ms", "x C");
            for (ScanBench.Row row : r.rows()) {
                out.printf("%-46s %7d %10.1f %17s %6.2f%n", row.reader(), row.procs(), row.medianMs(),
                        String.format(java.util.Locale.ROOT, "%.1f-%.1f", row.minMs(), row.maxMs()), row.ratioToC());
            }
            out.println("(x C: to the C reader's own clock, one thread; our rescan is warm, on two reading threads: " + Guide.DIR + "sampling.html)");
            out.printf("incremental rescan after %.0f%% churn: %.1f ms %s; %.1f ms listing /proc%n", r.churnPercent(),
                    r.incrementalMs(), r.followsEvents() ? "following process events" : "(no process events: not root)",
                    r.incrementalListingMs());
            out.printf("pulse read under load: median %.2f ms, worst %.2f ms (period 100 ms)%n", r.pulseMedianMs(), r.pulseWorstMs());
            printLive(out, r.live());
        }
        return 0;
    }

    /** {@code bench stop}: the guided stop and a naive kill loop, side by side, per drill shape. */
    private int stop(PrintWriter out, PrintWriter err) throws Exception {
        if (trials < 1) {
            err.println("runaway bench: --trials must be at least 1");
            return 2;
        }
        if (pressing != null) return pressing(out, err);
        java.util.List<dev.runaway.bench.StopBench.Row> rows = new dev.runaway.bench.StopBench(trials, err).run();
        if (json) {
            out.println(Json.PRETTY.writeValueAsString(rows));
            return 0;
        }
        out.printf("%-10s %5s %6s | %12s %10s %9s %8s | %12s %9s %8s%n", "shape", "cap", "trials", "guided ms", "worst ms",
                "survivors", "failed", "naive ms", "survivors", "failed");
        for (var r : rows) {
            out.printf("%-10s %5d %6d | %12.1f %10.1f %9d %8d | %12.1f %9d %8d%n", r.shape(), r.cap(), r.trials(), r.guidedMedianMs(),
                    r.guidedWorstMs(), r.guidedSurvivors(), r.guidedFailures(), r.naiveMedianMs(), r.naiveSurvivors(), r.naiveFailures());
        }
        out.println("guided: from the start of the stop to confirmed zero (the 2 s stable window not counted);"
                + " naive: SIGKILL by pid every 100 ms until a round finds nobody (at most 5 s)");
        return 0;
    }

    /** {@code bench stop --pressing N}: the stops side by side on a machine on fire, and the listings under it. */
    private int pressing(PrintWriter out, PrintWriter err) throws Exception {
        if (pressing < 10) {
            err.println("runaway bench: --pressing must be at least 10");
            return 2;
        }
        if (methods.contains(dev.runaway.bench.PressingBench.Method.CONSOLE_OPENED) && !dev.runaway.bench.PressingBench.hasDisplay()) {
            err.println("runaway bench: CONSOLE_OPENED opens the console's window: it needs a display (xvfb-run -a runaway bench stop ...) and xdotool");
            return 2;
        }
        int runs = spec.commandLine().getParseResult().hasMatchedOption("--trials") ? trials : 1;
        var r = new dev.runaway.bench.PressingBench(pressing, runs, cliLimit, cliShell, methods, err).run();
        if (json) {
            out.println(Json.PRETTY.writeValueAsString(r));
            return 0;
        }
        out.printf("%,d tasks pressing on their cap; the command line's stop started through %s%n", r.pressing(), r.launcher());
        out.printf("the floor (one cgroup.kill of the same %,d-task pressing fire, the kernel's own kill): %s, measured %s%n", r.pressing(),
                r.floor() < 0 ? "not measured" : String.format("%,d ms", r.floor()), r.floorMillis());
        out.printf("%-20s %14s %10s %11s %8s %5s %9s %8s  %s%n", "stop", "growth stopped", "zero", "over floor", "x floor", "zero?",
                "survivors", "load max", "measured by");
        for (var s : r.stops()) {
            out.printf("%-20s %11d ms %7d ms %8s ms %8s %5s %9d %8.0f  %s%s%n", s.method(), s.millisToGrowthStopped(), s.millisToZero(),
                    s.ratioToFloor() < 0 ? "-" : String.format("%,d", s.overFloorMillis()), s.ratioToFloor() < 0 ? "-" : String.format("%.2f", s.ratioToFloor()),
                    s.zeroConfirmed() ? "yes" : "NO", s.survivors(), s.loadAverageMax(), s.source(),
                    (s.planMillis() >= 0 ? "; plan " + s.planMillis() + " ms before Enter" : "") + (s.note().isEmpty() ? "" : "; " + s.note()));
        }
        for (String method : java.util.List.of("guided CLI", "guided CLI, JVM kill", "console path")) {
            var rows = r.stops().stream().filter(s -> s.method().equals(method)).toList();
            if (rows.isEmpty()) continue;
            long[] growth = rows.stream().mapToLong(s -> s.millisToGrowthStopped() < 0 ? Long.MAX_VALUE : s.millisToGrowthStopped()).sorted().toArray();
            long[] zero = rows.stream().mapToLong(s -> s.millisToZero() < 0 ? Long.MAX_VALUE : s.millisToZero()).sorted().toArray();
            long met = rows.stream().filter(s -> s.withinTargets(r.floor())).count();
            out.printf("%n%s, %d trials: growth stopped median %s, worst %s; zero median %s, worst %s; within the targets"
                    + " (growth stopped under %,d ms; zero within %.2fx the floor; no survivor) in %d of %d%n",
                    method, rows.size(), ms(growth[growth.length / 2]), ms(growth[growth.length - 1]), ms(zero[zero.length / 2]),
                    ms(zero[zero.length - 1]), dev.runaway.bench.PressingBench.GROWTH_TARGET_MILLIS,
                    dev.runaway.bench.PressingBench.FLOOR_RATIO_TARGET, met, rows.size());
        }
        if (!r.consoleOpened().isEmpty()) printConsoleOpened(out, r.consoleOpened(), r.floor());
        out.printf("%n%-36s %12s %8s %12s %18s%n", "listing the table under that load", "ms", "x floor", "processes", "drill's tasks after");
        for (var l : r.listings()) {
            out.printf("%-36s %12.0f %8s %12d %18d%n", l.reader(), l.millis(), r.floor() <= 0 ? "-" : String.format("%.2f", l.millis() / r.floor()),
                    l.processes(), l.pressingAfter());
        }
        return 0;
    }

    /** The console opened on the fire: a line per trial, then how many met the targets. */
    private static void printConsoleOpened(PrintWriter out, java.util.List<dev.runaway.bench.ConsoleOnFire.Trial> trials, long floor) {
        out.printf("%nthe console opened on the fire (from its launch: shown, figures, the runaway named first and selected;"
                + " from Ctrl+K: the plan; from Enter: growth stopped, zero, 'zero confirmed' shown)%n");
        out.printf("%8s %8s %8s %-28s %8s | %8s | %9s %8s %7s %10s %5s %9s%n", "shown", "figures", "named", "first row", "rate",
                "plan", "growth", "zero", "x floor", "zero shown", "zero?", "survivors");
        for (var t : trials) {
            out.printf("%5d ms %5d ms %5d ms %-28s %8s | %5d ms | %6d ms %5d ms %7s %7d ms %5s %9d  %s%n", t.launchToShown(),
                    t.launchToFigures(), t.launchToNamed(), (t.namedTheRunaway() ? "the fire, " : t.named().isEmpty() ? "none" : "ANOTHER: ")
                    + (t.namedTheRunaway() ? t.badge() : t.named()), t.rate(), t.keyToPlan(), t.enterToGrowthStopped(), t.enterToZero(),
                    floor > 0 && t.enterToZero() >= 0 ? String.format("%.2f", t.enterToZero() / (double) floor) : "-", t.enterToZeroShown(),
                    t.zeroConfirmed() ? "yes" : "NO", t.survivors(), t.note());
        }
        long met = trials.stream().filter(t -> t.withinTargets(floor)).count();
        out.printf("within the targets (shown and the runaway named at its cap within %,d ms of the launch; the plan within %,d ms of"
                + " Ctrl+K; growth stopped under %,d ms and zero within %.2fx the floor of Enter; zero confirmed) in %d of %d%n",
                dev.runaway.bench.ConsoleOnFire.NAMED_TARGET_MILLIS, dev.runaway.bench.ConsoleOnFire.PLAN_TARGET_MILLIS,
                dev.runaway.bench.PressingBench.GROWTH_TARGET_MILLIS, dev.runaway.bench.PressingBench.FLOOR_RATIO_TARGET, met, trials.size());
    }

    /** {@code bench ui}: the console window's responsiveness with --procs sleepers running. */
    private int ui(PrintWriter out, PrintWriter err) throws Exception {
        if (!DrillCommand.hasDisplay()) {
            err.println("runaway bench: ui needs a display (run it under Xvfb: xvfb-run -a runaway bench ui)");
            return 2;
        }
        int runs = spec.commandLine().getParseResult().hasMatchedOption("--trials") ? trials : 1;
        var r = new dev.runaway.bench.UiBench(procs, pressing == null ? 0 : pressing, fireSession, runs, Duration.ofSeconds(seconds),
                Duration.ofSeconds(warmUp), err).run();
        if (json) {
            out.println(Json.PRETTY.writeValueAsString(r));
            return 0;
        }
        var u = r.ui();
        out.printf("console window with %,d sleepers%s (%,d processes in the table as the measuring ended, %,d rows made in the chains view), %.0f s measured%n",
                r.sleepers(), r.pressing() > 0 ? String.format(" and %,d pressing tasks at their cap (%s)", r.pressing(),
                        r.fireSession() == dev.runaway.bench.UiBench.FireSession.OWN ? "in a session of their own"
                                : "in the bench's session, with Xvfb") : "",
                r.processesSeen(), r.rowsMade(), r.seconds());
        out.printf("pulses: %.1f per second (10 Hz wanted); load average up to %.0f%n", r.pulsesPerSecond(), r.loadAverageMax());
        out.printf("scan: median %.1f ms, worst %.1f ms%n", r.scanMedianMs(), r.scanWorstMs());
        out.printf("JavaFX thread wait (a task posted every 20 ms, %d samples): median %.1f ms, p99 %.1f ms, worst %.1f ms;"
                + " %d stalls over 100 ms%n", u.fxSamples(), u.fxMedianMs(), u.fxP99Ms(), u.fxWorstMs(), u.stallsOver100Ms());
        out.printf("JavaFX thread freezes (gaps between the probe's tasks beyond their 20 ms period, collector pauses"
                + " included): worst %.1f ms; %d over 100 ms%s%n", u.freezeWorstMs(), u.freezesOver100Ms(),
                u.freezesAtUptimeSeconds().isEmpty() ? "" : " (ending at JVM uptime " + u.freezesAtUptimeSeconds().stream()
                        .map(t -> String.format(java.util.Locale.ROOT, "%.1f s", t)).collect(java.util.stream.Collectors.joining(", ")) + ")");
        if (!u.frozenIn().isEmpty()) {
            out.println("where the JavaFX thread was in its freezes (looked at " + dev.runaway.bench.UiProbe.FROZEN_LOOK_MS + " ms into each):");
            u.frozenIn().entrySet().stream().sorted(java.util.Map.Entry.<String, Integer>comparingByValue().reversed())
                    .forEach(e -> out.printf("  %d x %s%n", e.getValue(), e.getKey()));
        }
        out.printf("pulse to screen (sampler hands it over -> the header shows it, %d refreshes): median %.0f ms, p95 %.0f ms,"
                + " worst %.0f ms%n", u.renders(), u.sampleToScreenMedianMs(), u.sampleToScreenP95Ms(), u.sampleToScreenWorstMs());
        out.printf("console: %.2f cores, peak RSS %s%n", r.cpuCores(), Units.bytes(r.rssBytes()));
        if (r.windowStop() != null) {
            var w = r.windowStop();
            out.printf("the window's stop of the pressing drill: plan shown %,d ms after STOP; Enter to growth stopped %,d ms"
                    + " (its cgroup's pids.max 0 or frozen, read from outside); Enter to \"%s\" %,d ms%n", w.planMillis(),
                    w.enterToGrowthStoppedMillis(), w.state().lines().findFirst().orElse(""), w.enterToZeroMillis());
        }
        if (!r.trials().isEmpty()) {
            out.printf("%n%-6s %10s %16s %10s %14s %10s %7s  %s%n", "trial", "plan", "growth stopped", "zero", "worst freeze", "freezes",
                    "load", "(plan after STOP; growth stopped and zero after Enter; freezes of the JavaFX thread over 100 ms from the cap to zero)");
            for (var t : r.trials()) {
                out.printf("%-6d %7d ms %13d ms %7d ms %11.0f ms %10d %7.0f  %s%n", t.trial(), t.stop().planMillis(),
                        t.stop().enterToGrowthStoppedMillis(), t.stop().enterToZeroMillis(), t.ui().freezeWorstMs(), t.ui().freezesOver100Ms(),
                        t.loadAverageMax(), t.withinTargets() ? "within the targets" : "NOT within the targets");
            }
            out.printf("within the targets (the plan within %,d ms of STOP, growth stopped within %,d ms of Enter, zero reached, no JavaFX"
                    + " freeze over %.0f ms) in %d of %d trials%n", dev.runaway.bench.UiBench.PLAN_TARGET_MILLIS,
                    dev.runaway.bench.UiBench.GROWTH_TARGET_MILLIS, dev.runaway.bench.UiBench.FREEZE_TARGET_MILLIS,
                    r.trials().stream().filter(dev.runaway.bench.UiBench.Trial::withinTargets).count(), r.trials().size());
        }
        return 0;
    }

    /** {@code bench metrics}: what runaway metrics costs with --procs sleepers running. */
    private int metrics(PrintWriter out, PrintWriter err) throws Exception {
        var r = new dev.runaway.bench.MetricsBench(procs, 20, Duration.ofSeconds(seconds), err, guard).run();
        if (json) {
            out.println(Json.PRETTY.writeValueAsString(r));
            return 0;
        }
        out.printf("runaway %s with %,d sleepers (%,d processes seen, first scan served after %.1f s), --top %d%s%n",
                r.guard() ? "guard (metrics on the same sampler)" : "metrics", r.sleepers(), r.processesSeen(), r.firstScanSeconds(), r.top(),
                r.guard() ? "; groups held: " + r.held() : "");
        out.printf("CPU: %.2f cores left alone (%.0f s), %.2f cores scraped every second (%.0f s); scan median %.0f ms%n",
                r.cpuCoresAlone(), r.secondsAlone(), r.cpuCoresScraped(), r.secondsScraped(), r.scanMedianMs());
        out.printf("memory: RSS %s, peak %s%n", Units.bytes(r.rssBytes()), Units.bytes(r.peakRssBytes()));
        out.printf("scrape: %d scrapes, median %.1f ms, worst %.1f ms; %,d bytes (%d series) in Prometheus text, %,d bytes in OpenMetrics%n",
                r.scrapes(), r.scrapeMedianMs(), r.scrapeWorstMs(), r.scrapeBytes(), r.series(), r.openMetricsBytes());
        return 0;
    }

    /** {@code bench record}: the incident file's growth with --procs sleepers running. */
    private int record(PrintWriter out, PrintWriter err) throws Exception {
        var r = new dev.runaway.bench.RecordBench(procs, Duration.ofSeconds(seconds), err).run();
        if (json) {
            out.println(Json.TREES.writeValueAsString(r));
            return 0;
        }
        out.printf("recorded %.0f s with %,d sleepers: %s, %d pulses (%.0f B each), %d scans (%.0f B each), %d events;"
                + " %s per hour%n", r.seconds(), r.sleepers(), Units.bytes(r.bytes()), r.pulses(), r.pulseBytes(), r.scans(),
                r.scanBytes(), r.events(), Units.bytes((long) r.bytesPerHour()));
        return 0;
    }

    /** {@code bench live}: the sampler and analyzer alone, on this machine as it is now. */
    private int live(PrintWriter out) throws Exception {
        ScanBench.Live l = ScanBench.live(Duration.ofSeconds(seconds), Duration.ofSeconds(warmUp));
        if (json) out.println(Json.TREES.writeValueAsString(l));
        else printLive(out, l);
        return 0;
    }

    private static void printLive(PrintWriter out, ScanBench.Live l) {
        out.printf("live sampler + analyzer, %.0f s: %d snapshots, one every %.0f ms (worst %.0f ms); scan %.0f ms,"
                + " analysis %.0f ms; CPU %.2f cores; pulse every %.0f ms (worst %.0f ms)%n", l.seconds(), l.snapshots(),
                l.snapshotIntervalMedianMs(), l.snapshotIntervalWorstMs(), l.scanMedianMs(), l.analysisMedianMs(), l.cpuCores(),
                l.pulseIntervalMedianMs(), l.pulseIntervalWorstMs());
        out.printf("peak RSS of the live sampler's JVM (the console's options): %s%n", Units.bytes(l.peakRssBytes()));
    }

    private static String ms(long millis) {
        return millis == Long.MAX_VALUE ? "never" : String.format("%,d ms", millis);
    }
}
