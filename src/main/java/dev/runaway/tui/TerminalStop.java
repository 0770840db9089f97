package dev.runaway.tui;

import dev.runaway.analysis.TargetSet;
import dev.runaway.model.ProcessSample;
import dev.runaway.stop.Actuator;
import dev.runaway.stop.Disposable;
import dev.runaway.stop.Planner;
import dev.runaway.stop.StopEngine;
import dev.runaway.stop.StopPlan;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The guided stop of one group as the terminal shows it, with no terminal in it: the plan read
 * from the targets the view already holds, then, once confirmed, the same engine as
 * {@code runaway stop} and the window, every step told as it happens, to the outcome. Planning
 * and the run happen on a worker thread; the screen reads {@link #lines()} at each redraw.
 */
final class TerminalStop {
    enum Phase { PLANNING, READY, REFUSED, RUNNING, DONE }

    private final String label;
    private final Supplier<TargetSet> planTargets;
    private final Supplier<TargetSet> rescan;
    private final Actuator actuator;
    private final boolean root;
    private final java.util.concurrent.Executor worker;
    private final List<String> planLines = new ArrayList<>();
    private final List<String> stepLines = new ArrayList<>();
    private volatile Phase phase = Phase.PLANNING;
    private volatile StopPlan plan;
    private volatile String refusal = "";
    private volatile StopEngine.Outcome outcome;

    /**
     * @param planTargets the targets to plan with, from the view's newest analysis (no new scan)
     * @param rescan      a fresh read of the same targets, for the engine's rounds and its confirmation
     * @param worker      runs the planning and the stop: a thread started before the fire (see {@link #worker()}),
     *                    since at a task cap no new thread can start either
     */
    TerminalStop(String label, Supplier<TargetSet> planTargets, Supplier<TargetSet> rescan, Actuator actuator, boolean root,
                 java.util.concurrent.Executor worker) {
        this.worker = worker;
        this.label = label;
        this.planTargets = planTargets;
        this.rescan = rescan;
        this.actuator = actuator;
        this.root = root;
    }

    /** Plans on a worker thread; the plan shows when ready. */
    TerminalStop open() {
        worker.execute(this::plan);
        return this;
    }

    private void plan() {
        try {
            TargetSet set = planTargets.get();
            if (set.samples().isEmpty()) {
                refuse("nothing matches " + label + " any more");
                return;
            }
            StopPlan p = new Planner(Disposable.forThisUser(), root).plan(set);
            List<String> lines = new ArrayList<>(p.describe());
            if (!root && p.privilege().startsWith("the helper is needed")) {
                // Now, while the plan is read: once pids run out, pkexec cannot start anything.
                lines.add(actuator.warmUp() ? "The helper is running (started through pkexec)."
                        : "The helper could not start: processes of other users will be refused.");
            }
            synchronized (this) {
                planLines.addAll(lines);
            }
            plan = p;
            phase = Phase.READY;
        } catch (RuntimeException e) {
            refuse("the plan failed: " + e.getMessage());
        }
    }

    private void refuse(String why) {
        refusal = why;
        phase = Phase.REFUSED;
    }

    /** Enter on a ready plan: runs it. Anything else is ignored. */
    synchronized boolean confirm() {
        if (phase != Phase.READY) return false;
        phase = Phase.RUNNING;
        worker.execute(this::run);
        return true;
    }

    private void run() {
        StopEngine engine = new StopEngine(actuator, rescan, step -> {
            synchronized (this) {
                stepLines.add(step.toString());
            }
        });
        try {
            outcome = engine.run(plan, false);
        } catch (RuntimeException | Error e) {
            // An Error too: at a task cap "unable to create native thread" must end in an outcome, not a hang.
            synchronized (this) {
                stepLines.add("the stop failed: " + e);
                for (StackTraceElement f : e.getStackTrace()) stepLines.add("    at " + f);
            }
            outcome = new StopEngine.Outcome(false, List.of(), List.of(), -1, java.util.Map.of());
        }
        phase = Phase.DONE;
    }

    /** Esc: closes the panel unless the stop is running (a stop is never left half done). */
    boolean closable() {
        return phase != Phase.RUNNING;
    }

    Phase phase() {
        return phase;
    }

    String label() {
        return label;
    }

    StopEngine.Outcome outcome() {
        return outcome;
    }

    /** What the panel shows now, and the keys that apply. */
    synchronized List<String> lines() {
        List<String> out = new ArrayList<>();
        out.add("GUIDED STOP  " + label);
        switch (phase) {
            case PLANNING -> out.add("Reading the targets and planning...");
            case REFUSED -> {
                out.add("Nothing to stop: " + refusal + ".");
                out.add("");
                out.add("Esc: back to the table");
            }
            case READY -> {
                out.addAll(planLines);
                out.add("");
                out.add("Enter: stop these " + plan.targets().size() + " processes    Esc: cancel (nothing is done)");
            }
            case RUNNING, DONE -> {
                out.addAll(planLines.isEmpty() ? List.of() : planLines.subList(0, 1));
                out.add("");
                out.add("Steps:");
                for (String s : stepLines) out.add("  " + s);
                if (phase == Phase.RUNNING) {
                    out.add("  ... (running; Esc is ignored until the stop ends)");
                } else {
                    out.add("");
                    out.add(outcomeLine());
                    out.add("Esc or Enter: back to the table");
                }
            }
        }
        return out;
    }

    private String outcomeLine() {
        StopEngine.Outcome o = outcome;
        if (o.zeroConfirmed()) {
            return String.format("ZERO CONFIRMED: %d ms from Enter to zero (then %d s of rescans found nothing: the stable window).",
                    o.millisToZero(), StopEngine.STABLE_WINDOW.toSeconds());
        }
        StringBuilder b = new StringBuilder("ZERO NOT REACHED. Survivors:");
        int shown = 0;
        for (ProcessSample p : o.survivors()) {
            if (shown++ == 10) {
                b.append(" ... and ").append(o.survivors().size() - 10).append(" more");
                break;
            }
            b.append(" ").append(p.pid());
        }
        if (o.survivors().isEmpty()) b.append(" (none listed: see the steps)");
        return b.toString();
    }

    /**
     * One daemon thread, started now: a view opened before the fire plans and stops on it when
     * the task cap refuses every new thread. Shut it down when the view closes.
     */
    static java.util.concurrent.ExecutorService worker() {
        java.util.concurrent.ThreadPoolExecutor pool = new java.util.concurrent.ThreadPoolExecutor(1, 1, 0,
                java.util.concurrent.TimeUnit.SECONDS, new java.util.concurrent.LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(() -> {
                        dev.runaway.sys.Sched.aheadOfOrdinaryTasks(); // the stop must not wait behind the runaway
                        r.run();
                    }, "runaway-terminal-stop");
                    t.setDaemon(true);
                    return t;
                });
        pool.prestartAllCoreThreads();
        return pool;
    }
}
