// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import dev.runaway.view.ConsoleRow;
import dev.runaway.model.ProcessIdentity;
import dev.runaway.procfs.ProcStat;
import dev.runaway.stoporder.StopStep;
import dev.runaway.stop.Selector;
import dev.runaway.stop.StepEvents;
import dev.runaway.stop.StopCore;
import dev.runaway.stop.run.StopEngine;
import dev.runaway.stop.StopSession;
import dev.runaway.timeline.Timeline;
import dev.runaway.timeline.TimelineEvent;

import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * The stop button's view model, with no JavaFX in it: from a selected row to a selector, then
 * the one stop core ({@link StopCore}, as {@code runaway stop} and the terminal use it) through
 * a {@link StopSession}, with every step told live and put on the timeline. Call from a worker thread.
 */
public final class GuidedStop {
    private final Path proc;
    private final StopCore core;
    private final Timeline timeline;
    private final Consumer<TimelineEvent> events;
    private final java.util.function.Function<String, java.util.List<dev.runaway.model.ProcessSample>> known;

    /**
     * @param events where each step goes as a timeline event (the recorder, which writes it down)
     * @param known  a command group's processes as the live analysis holds them now (empty when it has none)
     */
    public GuidedStop(Path proc, StopCore core, Timeline timeline, Consumer<TimelineEvent> events,
                      java.util.function.Function<String, java.util.List<dev.runaway.model.ProcessSample>> known) {
        this.proc = proc;
        this.core = core;
        this.timeline = timeline;
        this.events = events;
        this.known = known;
    }

    public boolean helperRunning() {
        return core.helperRunning();
    }

    /** The row's selector: a group by its command key, a chain or process by identity. */
    static Selector selector(Path proc, ConsoleRow row) {
        return switch (row.kind()) {
            case GROUP -> new Selector.Command(row.command());
            case CHAIN -> new Selector.Chain(row.top());
            case PROCESS -> new Selector.Process(ProcStat.read(proc, row.pid()).map(ProcStat::identity)
                    .orElse(new ProcessIdentity(row.pid(), 0)));
            case MORE -> throw new IllegalArgumentException("not a target: " + row.name());
        };
    }

    /** A session for this row, planned (blocking: reads the targets, may start the helper). */
    public StopSession plan(ConsoleRow row) {
        String refusal = refusal(row);
        if (refusal != null) return StopSession.refused(new Selector.Command(row.command()), StopSession.Reason.NOT_A_TARGET, refusal);
        Selector selector = selector(proc, row);
        if (selector instanceof Selector.Command c) {
            // The group as the console shows it, from its newest scan: a new full scan of thousands of
            // processes pressing on a cap waits minutes on their memory maps (cmdline).
            var samples = known.apply(c.key());
            if (!samples.isEmpty()) return core.open(selector).prepareFromKnown(samples);
        }
        return core.open(selector).prepare();
    }

    /** Rows never taken, whatever is selected (the core refuses the rest: init, this console, its ancestors). */
    static String refusal(ConsoleRow row) {
        if (row.kind() == ConsoleRow.Kind.MORE) return "this row stands for chains not listed: select the group to stop them all";
        if (row.standing() == ConsoleRow.Standing.RECORDED) {
            return "this is a recording: its processes are not this machine's now";
        }
        return null;
    }

    /**
     * How a confirmed stop went, timed from the confirmation: the engine's outcome, and whether
     * growth was stopped through a cgroup before the plan's steps ({@link StopCore#confirmed}).
     */
    public record Ran(StopEngine.Outcome outcome, dev.runaway.stop.StopCore.Confirmed confirmed, long millisToGrowthStopped,
                      long millisToZero) {
    }

    /**
     * Runs the confirmed plan (or the one made after growth was stopped first, see {@link
     * StopCore#confirmed}): each step to {@code steps} and onto the timeline as it happens.
     */
    public Ran run(StopSession session, boolean keepRevoked, Consumer<StopStep> steps) {
        long confirmedAt = System.nanoTime();
        dev.runaway.stop.StopCore.Confirmed c = core.confirmed(session);
        String command = c.session().plan().command();
        long runAt = System.nanoTime();
        StopEngine.Outcome o = c.session().run(keepRevoked, step -> {
            events.accept(StepEvents.of(step, command, timeline));
            steps.accept(step);
        });
        long before = (runAt - confirmedAt) / 1_000_000;
        long growth = c.frozenFirst().isPresent() ? c.millisToGrowthStopped() : o.millisToGrowthStopped() < 0 ? -1 : before + o.millisToGrowthStopped();
        return new Ran(o, c, growth, o.millisToZero() < 0 ? -1 : before + o.millisToZero());
    }
}
