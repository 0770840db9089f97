// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.stop.target.TargetRescan;
import dev.runaway.stop.act.Actuator;
import dev.runaway.stop.helper.HelperClient;
import dev.runaway.stop.helper.HelperKeeper;
import dev.runaway.stop.plan.Disposable;
import dev.runaway.stop.plan.Planner;
import dev.runaway.stop.plan.Privilege;
import dev.runaway.stop.plan.StopPlan;
import dev.runaway.stop.run.StopEngine;
import dev.runaway.procfs.PulseReader;
import dev.runaway.sys.LibC;

import java.nio.file.Path;

/**
 * A console for {@link HelperAheadOfNeedTest}: opening the plan starts the helper ahead of need
 * (as root, as pkexec would), then the console drops to {@code nobody} for good, says "ready",
 * waits until its own cgroup is capped at its current task count, checks it can no longer
 * start a process, and runs the guided stop of root's runaway, which now needs the helper.
 * Prints "key value" lines.
 */
public final class HelperAheadProbe {
    public static void main(String[] args) throws Exception {
        Path proc = Path.of("/proc");
        String command = args[0], helper = args[1], config = args[2];
        PulseReader pulse = PulseReader.live();
        TargetRescan rescan = TargetRescan.ofCommand(proc, command, pulse);
        // the console as it will be: nobody, with the helper it started ahead of need
        Planner planner = new Planner(Disposable.forThisUser(), new Privilege(false, 65534, Privilege.Helper.RUNNING));
        try (Actuator actuator = new Actuator(proc, () -> {
            try {
                return new HelperClient(new ProcessBuilder(helper, "--config", config)
                        .redirectError(ProcessBuilder.Redirect.DISCARD).start());
            } catch (java.io.IOException e) {
                return null;
            }
        })) {
            HelperKeeper keeper = new HelperKeeper(actuator, false);
            for (int i = 0; i < 5; i++) planner.plan(rescan.get()); // loads and compiles what the stop uses
            keeper.planOpened();
            for (int i = 0; i < 100 && keeper.state() != HelperKeeper.State.RUNNING; i++) Thread.sleep(100);
            System.out.println("keeper " + keeper.describe());

            LibC libc = LibC.INSTANCE;
            if (libc.setgroups(0, null) != 0 || libc.setresgid(65534, 65534, 65534) != 0
                    || libc.setresuid(65534, 65534, 65534) != 0) {
                System.out.println("uid could-not-drop");
                return;
            }
            System.out.println("uid " + libc.geteuid());
            if (!NoForkProbe.readyThenTryAFork()) return;
            StopPlan plan = planner.plan(rescan.get());
            System.out.println("others " + plan.others());
            StopEngine.Outcome outcome = new StopEngine(actuator, rescan, s -> { }).run(plan, false);
            System.out.println("lever " + plan.chosen());
            System.out.println("zero " + outcome.zeroConfirmed());
            System.out.println("helperRequests " + actuator.helperRequests());
        }
        System.out.flush();
    }
}
