// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.bench;

import dev.runaway.stop.target.TargetRescan;
import dev.runaway.drill.Drill;
import dev.runaway.drill.Drills;
import dev.runaway.drill.Scenario;
import dev.runaway.procfs.ProcReader;
import dev.runaway.procfs.PulseReader;
import dev.runaway.sandbox.NativeBinaries;
import dev.runaway.stop.act.Actuator;
import dev.runaway.stop.plan.Disposable;
import dev.runaway.stop.plan.Planner;
import dev.runaway.stop.run.StopEngine;
import dev.runaway.stop.plan.StopPlan;
import dev.runaway.sys.LibC;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The stop bench: for each drill shape, trials of the guided stop and of a naive kill loop side
 * by side, each on a fresh drill that has grown for a second (still growing for most shapes).
 * Time is from the start of the stop to confirmed zero, the stable window not counted.
 */
public final class StopBench {
    /** One shape's figures. */
    public record Row(String shape, int cap, int trials, double guidedMedianMs, double guidedWorstMs, int guidedSurvivors,
                      int guidedFailures, double naiveMedianMs, int naiveSurvivors, int naiveFailures) {
    }

    private static final Path PROC = Path.of("/proc");
    private static final Duration LIFETIME = Duration.ofMinutes(5);
    private static final Duration GROWTH = Duration.ofSeconds(1);
    private static final Duration NAIVE_LIMIT = Duration.ofSeconds(5);

    private final int trials;
    private final PrintWriter progress;
    private final PulseReader pulse = PulseReader.live();

    public StopBench(int trials, PrintWriter progress) {
        this.trials = trials;
        this.progress = progress;
    }

    public List<Row> run() throws Exception {
        List<Row> rows = new ArrayList<>();
        rows.add(shape(Scenario.LINEAR, 200));
        rows.add(shape(Scenario.ORPHANS, 300));
        rows.add(shape(Scenario.FANOUT, 1000));
        rows.add(shape(Scenario.RECURSIVE, 100));
        return rows;
    }

    private Row shape(Scenario scenario, int cap) throws Exception {
        List<Double> guided = new ArrayList<>();
        List<Double> naive = new ArrayList<>();
        int guidedSurvivors = 0;
        int guidedFailures = 0;
        int naiveSurvivors = 0;
        int naiveFailures = 0;
        for (int t = 0; t < trials; t++) {
            progress.printf("%s (cap %d): trial %d of %d%n", scenario.key(), cap, t + 1, trials);
            progress.flush();
            try (Drill drill = Drills.start(scenario, cap, LIFETIME, false)) {
                Thread.sleep(GROWTH.toMillis());
                StopEngine.Outcome o = guided(drill);
                if (o.zeroConfirmed()) guided.add((double) o.millisToZero());
                else guidedFailures++;
                guidedSurvivors += drill.sandbox().memberPids().size();
            }
            try (Drill drill = Drills.start(scenario, cap, LIFETIME, false)) {
                Thread.sleep(GROWTH.toMillis());
                long started = System.nanoTime();
                new NaiveKillLoop(new ProcReader(PROC), () -> drill.sandbox().memberPids()).run(NAIVE_LIMIT);
                Thread.sleep(300);
                int left = drill.sandbox().memberPids().size();
                naiveSurvivors += left;
                if (left == 0) naive.add((System.nanoTime() - started) / 1e6);
                else naiveFailures++;
            }
        }
        return new Row(scenario.key(), cap, trials, round(ScanBench.median(guided)), round(max(guided)), guidedSurvivors,
                guidedFailures, round(ScanBench.median(naive)), naiveSurvivors, naiveFailures);
    }

    /** The guided stop of everything in the drill: its worker, or its deploy.sh for the scripts. */
    private StopEngine.Outcome guided(Drill drill) throws Exception {
        String command = switch (drill.info().scenario()) {
            case RECURSIVE -> drill.folder().resolve("deploy.sh").toString();
            case ORPHANS, PRESSING -> drill.folder().resolve("cache/tool").toString();
            case LINEAR, FANOUT -> NativeBinaries.find(NativeBinaries.DRILL_WORKER).toString();
        };
        TargetRescan rescan = TargetRescan.ofCommand(PROC, command, pulse);
        dev.runaway.stop.target.Targets targets = rescan.get();
        StopPlan plan = new Planner(Disposable.forThisUser(), LibC.INSTANCE.geteuid() == 0).plan(targets);
        try (Actuator actuator = new Actuator(PROC, dev.runaway.stop.helper.HelperStarter.NONE)) {
            return new StopEngine(actuator, rescan, s -> { }).run(plan, false);
        }
    }

    private static double max(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }

    private static double round(double v) {
        return Math.round(v * 10) / 10.0;
    }
}
