// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.stop.target.TargetRescan;
import dev.runaway.stop.act.Actuator;
import dev.runaway.stop.helper.HelperStarter;
import dev.runaway.stop.plan.Disposable;
import dev.runaway.stop.plan.Planner;
import dev.runaway.stop.plan.StopPlan;
import dev.runaway.stop.run.StopEngine;
import dev.runaway.procfs.PulseReader;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A console for {@link StopWithoutForkTest}: it warms up, says "ready", waits until its own
 * cgroup has been capped at its current task count, checks that it can no longer start a
 * process, then runs the whole guided stop.
 */
public final class NoForkProbe {
    /**
     * Says "ready", waits for "go" (the test has capped this JVM's cgroup meanwhile), then tries
     * to start a process and says whether the fork was allowed. False when no "go" came.
     */
    static boolean readyThenTryAFork() throws Exception {
        System.out.println("ready");
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        if (!"go".equals(in.readLine())) return false;
        try {
            new ProcessBuilder("true").start().waitFor();
            System.out.println("fork allowed");
        } catch (java.io.IOException refused) {
            System.out.println("fork refused");
        }
        return true;
    }

    public static void main(String[] args) throws Exception {
        Path proc = Path.of("/proc");
        String command = args[0];
        PulseReader pulse = PulseReader.live();
        TargetRescan rescan = TargetRescan.ofCommand(proc, command, pulse);
        Planner planner = new Planner(Disposable.forThisUser(), true);
        for (int i = 0; i < 5; i++) planner.plan(rescan.get()); // loads and compiles what the stop uses
        if (!readyThenTryAFork()) return;
        StopPlan plan = planner.plan(rescan.get());
        try (Actuator actuator = new Actuator(proc, HelperStarter.NONE)) {
            StopEngine.Outcome outcome = new StopEngine(actuator, rescan, s -> { }).run(plan, false);
            System.out.println("lever " + plan.chosen());
            System.out.println("zero " + outcome.zeroConfirmed());
        }
        System.out.flush();
    }
}
