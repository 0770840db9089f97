// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.analysis.Group;
import dev.runaway.analysis.Snapshot;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Starts the privileged helper ahead of need and keeps it: when the machine is out of pids,
 * pkexec cannot start anything, but a helper already running still answers. It starts on the
 * first sign of a spike, or when the user opens a stop plan; as root it is never needed.
 * Starting goes off the caller's thread: pkexec may wait for a password.
 */
public final class HelperKeeper {
    /** A group that runs something out within this many seconds is a spike. */
    static final double SPIKE_HORIZON_SECONDS = 600;
    /** So is a machine forking this fast (a build forks in bursts of a few hundred a second). */
    static final double SPIKE_FORKS_PER_SECOND = 1_000;
    /** And a recursive group at least this large. */
    static final int SPIKE_RECURSIVE_TASKS = 50;

    public enum State { NOT_NEEDED, IDLE, STARTING, RUNNING, UNAVAILABLE }

    private final Actuator actuator;
    private final AtomicReference<State> state;
    private volatile String why = "";

    public HelperKeeper(Actuator actuator, boolean root) {
        this.actuator = actuator;
        this.state = new AtomicReference<>(root ? State.NOT_NEEDED : State.IDLE);
        if (root) why = "not needed (running as root)";
    }

    /** Feed every snapshot: the first spike starts the helper. */
    public void onSnapshot(Snapshot s) {
        if (state.get() == State.IDLE && spike(s)) start("a spike: " + spikeReason(s));
    }

    /** The user opened a stop plan: start now, before the confirmation. */
    public void planOpened() {
        if (state.get() == State.IDLE || state.get() == State.UNAVAILABLE) start("a stop plan was opened");
    }

    /** Starts on a background thread; returns at once. */
    private void start(String reason) {
        State before = state.get();
        if (!state.compareAndSet(before, State.STARTING)) return;
        why = "starting (" + reason + ")";
        Thread t = new Thread(() -> {
            boolean up = actuator.warmUp();
            why = up ? "running, started ahead of need on " + reason : "not available: no helper installed, or pkexec refused";
            state.set(up ? State.RUNNING : State.UNAVAILABLE);
        }, "helper-ahead-of-need");
        t.setDaemon(true);
        t.start();
    }

    public State state() {
        State s = state.get();
        if (s == State.RUNNING && !actuator.hasHelper()) {
            state.compareAndSet(State.RUNNING, State.UNAVAILABLE);
            why = "the helper exited";
            return State.UNAVAILABLE;
        }
        return s;
    }

    /** The state in words, for a status line. */
    public String describe() {
        State s = state();
        if (s != State.RUNNING && s != State.NOT_NEEDED && actuator.hasHelper()) return "helper running"; // a plan started it
        return s == State.IDLE ? "helper not started (starts on a spike or a stop plan)" : "helper " + why;
    }

    static boolean spike(Snapshot s) {
        return !spikeReason(s).isEmpty();
    }

    private static String spikeReason(Snapshot s) {
        if (s.forksPerSecond() >= SPIKE_FORKS_PER_SECOND) return String.format("%.0f forks/s", s.forksPerSecond());
        for (Group g : s.groups()) {
            if (g.secondsToExhaustion().isPresent() && g.secondsToExhaustion().getAsDouble() <= SPIKE_HORIZON_SECONDS) {
                return g.command() + " runs out " + g.exhaustedBy();
            }
            if (g.recursive() && g.tasks() >= SPIKE_RECURSIVE_TASKS) return g.command() + " recursive";
        }
        return "";
    }
}
