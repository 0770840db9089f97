// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.stop.act.Actuator;
import dev.runaway.stop.helper.HelperStarter;
import dev.runaway.stop.plan.Disposable;
import dev.runaway.stop.plan.Lever;
import dev.runaway.stop.plan.StopPlan;
import dev.runaway.stop.run.StopEngine;
import dev.runaway.procfs.PulseReader;
import dev.runaway.sandbox.NativeBinaries;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import dev.runaway.stoporder.StopStep;

import java.nio.file.Path;

/**
 * Runs as {@code nobody} (started by {@link UnprivilegedStopTest}) through the one stop core
 * with no helper: stops its own fanout; stops its own runaway alone in a cgroup root made (it
 * cannot write it); then plans a stop of root's sleepers and tries it. Prints "key value" lines.
 */
public final class UnprivilegedProbe {
    private static final Path PROC = Path.of("/proc");

    public static void main(String[] args) throws Exception {
        String rootsCommand = args[0];
        String aloneCommand = args[1];
        PulseReader pulse = PulseReader.live();
        String worker = NativeBinaries.find(NativeBinaries.DRILL_WORKER).toString();
        try (Actuator actuator = new Actuator(PROC, HelperStarter.NONE)) {
            StopCore core = new StopCore(PROC, pulse, actuator, Disposable.forThisUser());
            try (Sandbox own = Sandboxes.create(SandboxSpec.of("test-unprivileged", 12))) {
                own.start(new ProcessBuilder(worker, "fanout", "20").redirectError(ProcessBuilder.Redirect.DISCARD));
                // Growing: three generations (1 + 2 + 4) before the stop is asked for.
                org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).pollInterval(java.time.Duration.ofMillis(20))
                        .until(() -> own.memberPids().size() >= 7);
                report("own", core.open(new Selector.Command(worker)).prepare(), actuator);
            }
            report("alone", core.open(new Selector.Command(aloneCommand)).prepare(), actuator);
            report("root", core.open(new Selector.Command(rootsCommand)).prepare(), actuator);
        }
    }

    private static void report(String name, StopSession session, Actuator actuator) {
        StopPlan plan = session.plan();
        if (plan == null) {
            System.out.println(name + ".refused " + session.refusal().map(StopSession.Refusal::words).orElse(""));
            return;
        }
        System.out.println(name + ".others " + plan.others());
        System.out.println(name + ".lever " + plan.chosen());
        System.out.println(name + ".order " + plan.order());
        System.out.println(name + ".freeze " + plan.checks().get(Lever.FREEZE_CGROUP).feasible());
        int before = actuator.helperRequests();
        StopEngine.Outcome outcome = session.run(false, s -> { });
        System.out.println(name + ".zero " + outcome.zeroConfirmed());
        System.out.println(name + ".survivors " + outcome.order().survivors().size());
        System.out.println(name + ".helperRequests " + (actuator.helperRequests() - before));
        System.out.println(name + ".failed " + outcome.steps().stream().filter(s -> s.result() == StopStep.Result.FAILED)
                .map(StopStep::note).findFirst().orElse(""));
        System.out.flush();
    }
}
