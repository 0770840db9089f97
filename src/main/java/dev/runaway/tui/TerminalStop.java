// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.tui;

import dev.runaway.model.ProcessSample;
import dev.runaway.stoporder.StopOutcome;
import dev.runaway.stoporder.StopStep;
import dev.runaway.stop.run.StopEngine;
import dev.runaway.stop.StopCore;
import dev.runaway.stop.StopSession;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * The guided stop of one selection as the terminal shows it, with no terminal in it: a
 * {@link StopSession} of the one stop core (as {@code runaway stop} and the window use it)
 * prepared and, once confirmed, run on a worker thread; the screen reads {@link #lines()} at
 * each redraw, from the plan through every step to the outcome.
 */
final class TerminalStop {
    enum Phase { PLANNING, READY, REFUSED, RUNNING, DONE }

    private final String label;
    private final Supplier<StopSession> opener;
    private final Executor worker;
    private volatile Phase phase = Phase.PLANNING;
    private volatile StopSession session;
    private volatile String failure = "";
    private volatile long enterNanos;

    /**
     * @param opener the session, prepared or not (prepare reads the targets: it runs on the worker)
     * @param worker runs the planning and the stop: a thread started before the fire (see {@link #worker()}),
     *               since at a task cap no new thread can start either
     */
    TerminalStop(String label, Supplier<StopSession> opener, Executor worker) {
        this(label, opener, worker, s -> new StopCore.Confirmed(s, java.util.Optional.empty(), "", -1));
    }

    /** @param onEnter what runs once Enter confirms the plan shown ({@link StopCore#confirmed}: growth stopped first when it can be) */
    TerminalStop(String label, Supplier<StopSession> opener, Executor worker, java.util.function.Function<StopSession, StopCore.Confirmed> onEnter) {
        this.label = label;
        this.opener = opener;
        this.worker = worker;
        this.onEnter = onEnter;
    }

    private final java.util.function.Function<StopSession, StopCore.Confirmed> onEnter;
    private volatile StopCore.Confirmed confirmed;

    /** Plans on the worker; the plan shows when ready. */
    TerminalStop open() {
        worker.execute(this::plan);
        return this;
    }

    private void plan() {
        try {
            StopSession s = opener.get().prepare();
            session = s;
            phase = s.state() == StopSession.State.READY ? Phase.READY : Phase.REFUSED;
        } catch (RuntimeException | Error e) {
            failure = "the plan failed: " + e;
            phase = Phase.REFUSED;
        }
    }

    /** Enter on a ready plan: runs it. Anything else is ignored. */
    synchronized boolean confirm() {
        if (phase != Phase.READY) return false;
        phase = Phase.RUNNING;
        enterNanos = System.nanoTime();
        worker.execute(this::run);
        return true;
    }

    private void run() {
        try {
            StopCore.Confirmed c = onEnter.apply(session);
            confirmed = c;
            session = c.session();
            c.session().run(false, step -> { });
        } catch (RuntimeException | Error e) {
            // An Error too: at a task cap "unable to create native thread" must end in an outcome, not a hang.
            failure = "the stop failed: " + e;
        }
        phase = Phase.DONE;
    }

    /** Esc: closes the panel unless the stop is running (a stop is never left half done). */
    boolean closable() {
        return phase != Phase.RUNNING;
    }

    /** Closing before Enter: nothing is done. */
    void cancel() {
        StopSession s = session;
        if (s != null && phase != Phase.RUNNING) s.cancel();
    }

    Phase phase() {
        return phase;
    }

    String label() {
        return label;
    }

    /** What the panel shows now, and the keys that apply. */
    List<String> lines() {
        List<String> out = new ArrayList<>();
        out.add("GUIDED STOP  " + label);
        // The phase before the session: plan() writes the session first, then the phase, so a READY
        // read here sees its session (read the other way round, a plan finishing in between
        // showed READY with no session: a suite run's top died on it).
        Phase now = phase;
        StopSession s = session;
        switch (now) {
            case PLANNING -> out.add("Reading the targets and planning...");
            case REFUSED -> {
                String why = !failure.isEmpty() ? failure : s.refusal().map(StopSession.Refusal::words).orElse("refused");
                out.add("Nothing to stop: " + why + ".");
                out.add("");
                out.add("Esc: back to the table");
            }
            case READY -> {
                out.addAll(s.plan().describe());
                if (!s.helperNote().isEmpty()) out.add(s.helperNote());
                if (StopCore.mayStopGrowthFirst(s)) out.add(StopCore.FIRST_ON_ENTER);
                out.add("");
                out.add("Enter: stop these " + s.plan().members().size() + " processes    Esc: cancel (nothing is done)");
            }
            case RUNNING, DONE -> {
                out.add(s.plan().describe().get(0));
                out.add("");
                out.add("Steps:");
                StopCore.Confirmed c = confirmed;
                if (c != null && c.frozenFirst().isPresent()) {
                    out.add("  growth stopped first, " + c.millisToGrowthStopped() + " ms after Enter: " + c.why()
                            + " (the plan shown could not check that cgroup in time)");
                }
                for (StopStep step : s.steps()) out.add("  " + step);
                if (!failure.isEmpty()) out.add("  " + failure);
                if (phase == Phase.RUNNING) {
                    out.add("  ... (running; Esc is ignored until the stop ends)");
                } else {
                    out.add("");
                    s.outcome().ifPresentOrElse(o -> out.add(outcomeLine(o)), () -> out.add("NO OUTCOME: " + failure));
                    out.add("Esc or Enter: back to the table");
                }
            }
        }
        return out;
    }

    private static String outcomeLine(StopEngine.Outcome o) {
        StopOutcome order = o.order();
        return switch (o.status()) {
            case ZERO_CONFIRMED -> String.format("ZERO CONFIRMED: growth stopped %d ms after Enter, zero %d ms after Enter"
                    + " (then %d s of rescans found nothing: the stable window).", order.millisToGrowthStopped(),
                    order.millisToZero(), StopEngine.STABLE_WINDOW.toSeconds());
            case SURVIVORS -> "ZERO NOT REACHED. Survivors:" + pids(o.survivors());
            case UNCONFIRMED -> "ZERO NOT CONFIRMED: no target is alive, but these processes it may have started could not be"
                    + " followed:" + pids(o.unfollowed());
        };
    }

    private static String pids(List<ProcessSample> processes) {
        StringBuilder b = new StringBuilder();
        int shown = 0;
        for (ProcessSample p : processes) {
            if (shown++ == 10) {
                b.append(" ... and ").append(processes.size() - 10).append(" more");
                break;
            }
            b.append(" ").append(p.pid());
        }
        return processes.isEmpty() ? " (none listed: see the steps)" : b.toString();
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
