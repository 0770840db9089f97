package dev.runaway.ui;

import dev.runaway.analysis.TargetSet;
import dev.runaway.model.ProcessIdentity;
import dev.runaway.procfs.ProcStat;
import dev.runaway.procfs.PulseReader;
import dev.runaway.stop.Actuator;
import dev.runaway.stop.CommandRescan;
import dev.runaway.stop.Disposable;
import dev.runaway.stop.Planner;
import dev.runaway.stop.StepEvents;
import dev.runaway.stop.StopEngine;
import dev.runaway.stop.StopPlan;
import dev.runaway.timeline.Timeline;
import dev.runaway.timeline.TimelineEvent;

import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The stop button's view model, with no JavaFX in it: from a selected row to a plan (the same
 * Planner as {@code runaway stop}), the helper started as soon as the plan needs it, then the
 * engine run with every step told live and put on the timeline. Call from a worker thread.
 */
public final class GuidedStop {
    /** What a row asks to stop, and how to read its members afresh between rounds. */
    public record Target(String label, Supplier<TargetSet> rescan) {
    }

    /** A plan ready to confirm, or a refusal in words (then plan is null). */
    public record Planned(StopPlan plan, Target target, String helperNote, String refusal) {
        public boolean refused() {
            return plan == null;
        }
    }

    private final Path proc;
    private final PulseReader pulse;
    private final Actuator actuator;
    private final boolean root;
    private final Disposable disposable;
    private final Timeline timeline;
    private final Consumer<TimelineEvent> events;

    /**
     * @param actuator kept for the console's life, so a helper started once stays running
     * @param events   where each step goes as a timeline event (the recorder, which writes it down)
     */
    public GuidedStop(Path proc, PulseReader pulse, Actuator actuator, boolean root, Disposable disposable,
                      Timeline timeline, Consumer<TimelineEvent> events) {
        this.proc = proc;
        this.pulse = pulse;
        this.actuator = actuator;
        this.root = root;
        this.disposable = disposable;
        this.timeline = timeline;
        this.events = events;
    }

    public boolean helperRunning() {
        return actuator.hasHelper();
    }

    /** The rows a stop can take: a group by its command key, a chain or process by identity. */
    public Target target(ConsoleRow row) {
        return switch (row.kind()) {
            case GROUP -> new Target(row.stopLabel(), new CommandRescan(proc, row.command(), pulse));
            case CHAIN -> byIdentity(row.stopLabel(), row.top());
            case MORE -> throw new IllegalArgumentException("not a target: " + row.name());
            case PROCESS -> {
                long start = ProcStat.read(proc, row.pid()).map(ProcStat::startTicks).orElse(-1L);
                yield byIdentity(row.stopLabel(), start < 0 ? null : new ProcessIdentity(row.pid(), start));
            }
        };
    }

    private Target byIdentity(String label, ProcessIdentity id) {
        int pid = id == null ? -1 : id.pid();
        long start = id == null ? -1 : id.startTicks();
        return new Target(label, new CommandRescan(proc, "pid " + pid, (p, key) -> p.pid() == pid
                && p.identity().startTicks() == start, pulse));
    }

    /** Reads the targets, plans, and starts the helper when the plan needs it. */
    public Planned plan(ConsoleRow row) {
        String refusal = refusal(row);
        if (refusal != null) return new Planned(null, null, "", refusal);
        Target target = target(row);
        TargetSet set = target.rescan().get();
        if (set.samples().isEmpty()) return new Planned(null, target, "", "nothing matches " + target.label() + " any more");
        StopPlan plan = new Planner(disposable, root).plan(set);
        String note = "";
        if (!root && plan.privilege().startsWith("the helper is needed")) {
            // Now, while the plan is read: once pids run out, pkexec cannot start anything.
            actuator.retryHelper(); // opening a plan is the user asking
            note = actuator.warmUp() ? "the helper is running (started through pkexec)"
                    : "the helper is not available (" + actuator.helperUnavailable().orElse("it did not start")
                    + "): only your own processes can be stopped";
        }
        return new Planned(plan, target, note, null);
    }

    /** Targets never taken, whatever is selected. */
    static String refusal(ConsoleRow row) {
        if (row.kind() == ConsoleRow.Kind.MORE) return "this row stands for chains not listed: select the group to stop them all";
        if (row.kind() == ConsoleRow.Kind.GROUP && row.stopLabel().startsWith("recorded")) {
            return "this is a recording: its processes are not this machine's now";
        }
        int pid = row.kind() == ConsoleRow.Kind.GROUP ? -1 : row.pid();
        if (row.kind() != ConsoleRow.Kind.GROUP && pid <= 1) return "pid " + pid + " is init or the kernel";
        if (pid == ProcessHandle.current().pid()) return "pid " + pid + " is this console";
        return null;
    }

    /** Runs the confirmed plan: each step to {@code steps} and onto the timeline as it happens. */
    public StopEngine.Outcome run(Planned planned, boolean keepRevoked, Consumer<StopEngine.Step> steps) {
        StopEngine engine = new StopEngine(actuator, planned.target().rescan(), step -> {
            events.accept(StepEvents.of(step, planned.plan().command(), timeline));
            steps.accept(step);
        });
        return engine.run(planned.plan(), keepRevoked);
    }
}
