// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.analysis.TargetSet;
import dev.runaway.procfs.PulseReader;
import dev.runaway.sandbox.NativeBinaries;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;

import java.nio.file.Path;

/**
 * Runs as {@code nobody} (started by {@link UnprivilegedStopTest}): stops its own fanout without
 * any helper, then plans a stop of root's sleepers and tries it. Prints "key value" lines.
 */
public final class UnprivilegedProbe {
    private static final Path PROC = Path.of("/proc");

    public static void main(String[] args) throws Exception {
        String rootsCommand = args[0];
        PulseReader pulse = PulseReader.live();
        String worker = NativeBinaries.find(NativeBinaries.DRILL_WORKER).toString();
        try (Sandbox own = Sandboxes.create(SandboxSpec.of("test-unprivileged", 12))) {
            own.start(new ProcessBuilder(worker, "fanout", "20").redirectError(ProcessBuilder.Redirect.DISCARD));
            Thread.sleep(1500);
            StopPlan plan = plan(worker, pulse);
            System.out.println("own.privilege " + plan.privilege());
            System.out.println("own.lever " + plan.chosen());
            try (Actuator actuator = new Actuator(PROC, () -> null)) {
                StopEngine.Outcome outcome = new StopEngine(actuator, new CommandRescan(PROC, worker, pulse), s -> { }).run(plan, false);
                System.out.println("own.zero " + outcome.zeroConfirmed());
                System.out.println("own.helperRequests " + actuator.helperRequests());
            }
        }
        StopPlan roots = plan(rootsCommand, pulse);
        System.out.println("root.privilege " + roots.privilege());
        try (Actuator actuator = new Actuator(PROC, () -> null)) {
            StopEngine.Outcome outcome = new StopEngine(actuator, new CommandRescan(PROC, rootsCommand, pulse), s -> { }).run(roots, false);
            System.out.println("root.zero " + outcome.zeroConfirmed());
            System.out.println("root.error " + outcome.steps().stream().filter(s -> s.step().equals("error"))
                    .map(StopEngine.Step::note).findFirst().orElse(""));
        }
    }

    private static StopPlan plan(String command, PulseReader pulse) {
        TargetSet targets = new CommandRescan(PROC, command, pulse).get();
        return new Planner(Disposable.forThisUser(), false).plan(targets);
    }
}
