// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.stop.plan.StopPlan;
import dev.runaway.stop.run.StopEngine;
import dev.runaway.stop.target.Exclusions;
import dev.runaway.stop.target.TargetRescan;
import dev.runaway.stop.target.Targets;
import dev.runaway.model.ProcessIdentity;
import dev.runaway.procfs.ProcStat;
import dev.runaway.procfs.PulseReader;
import dev.runaway.stoporder.StopStep;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * One guided stop from selection to outcome, with no toolkit in it: the command line, the
 * window and the terminal each drive one. {@link #prepare} reads the definition and plans (and
 * starts the helper when the plan needs it: once pids run out, pkexec cannot); the front end
 * shows {@link #plan}, then {@link #run} on confirmation or {@link #cancel}. Steps arrive live
 * through the consumer given to run and can be polled with {@link #steps}. prepare and run
 * block: call them off the UI thread.
 */
public final class StopSession implements AutoCloseable {
    public enum State { NEW, REFUSED, READY, HELD, RUNNING, DONE, CANCELLED }

    /** Why nothing will be done. */
    public enum Reason { INIT_OR_KERNEL, THIS_PROCESS, EXCLUDED, NO_SUCH_PROCESS, NOT_A_CGROUP, NOTHING_MATCHES, NOT_A_TARGET }

    public record Refusal(Reason reason, String words) {
    }

    private final StopCore core;
    private final Selector selector;
    private final List<StopStep> steps = new ArrayList<>();
    private volatile State state = State.NEW;
    private Refusal refusal;
    private StopPlan plan;
    private String helperNote = "";
    private TargetRescan rescan;
    private StopEngine.Outcome outcome;

    StopSession(StopCore core, Selector selector) {
        this.core = core;
        this.selector = selector;
    }

    /** A session refused before anything is read (a row that names nothing to stop). */
    public static StopSession refused(Selector selector, Reason reason, String words) {
        StopSession s = new StopSession(null, selector);
        s.refusal = new Refusal(reason, words);
        s.state = State.REFUSED;
        return s;
    }

    public Selector selector() {
        return selector;
    }

    public State state() {
        return state;
    }

    public synchronized Optional<Refusal> refusal() {
        return Optional.ofNullable(refusal);
    }

    public synchronized StopPlan plan() {
        return plan;
    }

    /** What became of the helper while planning ("" when it was not needed). */
    public synchronized String helperNote() {
        return helperNote;
    }

    public synchronized List<StopStep> steps() {
        return List.copyOf(steps);
    }

    public synchronized Optional<StopEngine.Outcome> outcome() {
        return Optional.ofNullable(outcome);
    }

    /** Reads the targets by their definition and plans; READY or REFUSED afterwards. */
    public StopSession prepare() {
        return prepare(null);
    }

    /**
     * Plans from targets already read (a frozen cgroup's kernel list, say) instead of a full
     * scan; the definition is still read afresh by every later round and by confirm-zero.
     */
    public StopSession prepare(Targets known) {
        return prepareWith(r -> {
            if (known == null) return r.get();
            r.seed(known);
            return known;
        });
    }

    /**
     * Plans a command group from the processes a live analysis already holds for it (the
     * console's newest scan), not a new full scan; see {@link TargetRescan#fromKnown}.
     */
    public StopSession prepareFromKnown(List<dev.runaway.model.ProcessSample> known) {
        return prepareWith(r -> r.fromKnown(known));
    }

    private StopSession prepareWith(java.util.function.Function<TargetRescan, Targets> read) {
        synchronized (this) {
            if (state != State.NEW) return this;
        }
        // Ahead of a runaway's ordinary tasks (as root; nice -20 or nothing otherwise), whichever face calls.
        try (var raised = dev.runaway.sys.Sched.raisedWhile()) {
            return prepareRaised(read);
        }
    }

    private StopSession prepareRaised(java.util.function.Function<TargetRescan, Targets> read) {
        Refusal early = core.refusal(selector);
        if (early != null) return refuse(early);
        TargetRescan r = core.rescan(selector);
        Targets targets = read.apply(r);
        if (targets.members().isEmpty()) {
            r.close();
            StringBuilder words = new StringBuilder("nothing matches " + selector.label());
            if (!targets.excluded().isEmpty()) words.append(" but what is never a target:");
            for (Exclusions.Excluded e : targets.excluded()) {
                words.append(" pid ").append(e.process().pid()).append(" (").append(e.name()).append("): ").append(e.why().words()).append(';');
            }
            return refuse(new Refusal(Reason.NOTHING_MATCHES, words.toString()));
        }
        StopPlan p = core.planner().plan(targets);
        String note = core.warmHelperIfNeeded(p);
        synchronized (this) {
            rescan = r;
            plan = p;
            helperNote = note;
            state = State.READY;
        }
        return this;
    }

    private synchronized StopSession refuse(Refusal r) {
        refusal = r;
        state = State.REFUSED;
        return this;
    }

    /** Runs the confirmed plan to its outcome; each step to {@code live} as it happens. */
    public StopEngine.Outcome run(boolean keepRevoked, Consumer<StopStep> live) {
        StopPlan p;
        synchronized (this) {
            if (state != State.READY) throw new IllegalStateException("not ready to run: " + state);
            state = State.RUNNING;
            p = plan;
        }
        StopEngine.Outcome o;
        try (var raised = dev.runaway.sys.Sched.raisedWhile(); var rest = core.restScans()) {
            o = new StopEngine(core.actions(), rescan, step -> {
                synchronized (this) {
                    steps.add(step);
                }
                live.accept(step);
            }).run(p, keepRevoked);
        } finally {
            rescan.close();
        }
        synchronized (this) {
            outcome = o;
            state = State.DONE;
        }
        return o;
    }

    /**
     * Holds the planned set with the first step's reversible lever only (a guard's hold, nobody
     * having confirmed anything): {@link StopEngine#hold}. The definition stays live for the hold's
     * sweeps until {@link #close}.
     */
    public StopEngine.Held hold() throws StopException {
        StopPlan p;
        synchronized (this) {
            if (state != State.READY) throw new IllegalStateException("not ready to hold: " + state);
            p = plan;
        }
        try (var raised = dev.runaway.sys.Sched.raisedWhile()) {
            StopEngine.Held held = new StopEngine(core.actions(), rescan, step -> { }).hold(p);
            synchronized (this) {
                state = State.HELD;
            }
            return held;
        }
    }

    /** Not confirmed: nothing is done. */
    public synchronized void cancel() {
        if (state == State.RUNNING || state == State.DONE || state == State.HELD) return;
        state = State.CANCELLED;
        if (rescan != null) rescan.close();
    }

    @Override
    public synchronized void close() {
        if (state == State.HELD && rescan != null) {
            rescan.close();
            state = State.DONE;
            return;
        }
        cancel();
    }

    /** Reads a process's identity now, or null when it is gone. */
    public static ProcessIdentity identityOf(Path proc, int pid) {
        return ProcStat.read(proc, pid).map(ProcStat::identity).orElse(null);
    }
}
