// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.helper;

import dev.runaway.analysis.Group;
import dev.runaway.analysis.Snapshot;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Starts the privileged helper ahead of need and keeps it: when the machine is out of pids,
 * pkexec cannot start anything, but a helper already running still answers. The console never
 * raises a password dialog the user did not ask for: on the first sign of a spike it only
 * offers to prepare the helper, saying why ({@link #offer}); it starts when the user accepts
 * ({@link #prepare}) or opens a stop plan. As root it is never needed. Starting goes off the
 * caller's thread: pkexec may wait for a password.
 */
public final class HelperKeeper {
    /** A group that runs something out within this many seconds is a spike. */
    static final double SPIKE_HORIZON_SECONDS = 600;
    /** So is a machine forking this fast (a build forks in bursts of a few hundred a second). */
    static final double SPIKE_FORKS_PER_SECOND = 1_000;
    /** And a recursive group at least this large. */
    static final int SPIKE_RECURSIVE_TASKS = 50;

    public enum State { NOT_NEEDED, IDLE, OFFERED, STARTING, RUNNING, UNAVAILABLE }

    private final HelperControl actuator;
    private final AtomicReference<State> state;
    private volatile String why = "";

    public HelperKeeper(HelperControl actuator, boolean root) {
        this.actuator = actuator;
        this.state = new AtomicReference<>(root ? State.NOT_NEEDED : State.IDLE);
        if (root) why = "not needed (running as root)";
    }

    private volatile boolean declined;

    /** Feed every snapshot: the first spike makes the offer (no dialog yet). */
    public void onSnapshot(Snapshot s) {
        if (state.get() == State.IDLE && !declined && spike(s)) {
            why = "a spike: " + spikeReason(s);
            state.compareAndSet(State.IDLE, State.OFFERED);
        }
    }

    /**
     * The offer to show, in the console's own words, while there is one: why the helper should be
     * prepared now, and that pkexec will ask for a password.
     */
    public java.util.Optional<String> offer() {
        if (state.get() != State.OFFERED) return java.util.Optional.empty();
        return java.util.Optional.of("Prepare the privileged helper now? " + why + ". If processes run out, a stop can no longer"
                + " start it; pkexec will ask for an administrator's password.");
    }

    /** The user accepted the offer (or asked again after a failure): start now. */
    public void prepare() {
        State s = state.get();
        if (s == State.OFFERED || s == State.IDLE || s == State.UNAVAILABLE) {
            actuator.retryHelper();
            start(s == State.OFFERED ? why : "the user asked");
        }
    }

    /** The user said not now: no further offer this session (a stop plan still starts it). */
    public void decline() {
        declined = true;
        state.compareAndSet(State.OFFERED, State.IDLE);
    }

    /** The user opened a stop plan: start now, before the confirmation. */
    public void planOpened() {
        State s = state.get();
        if (s == State.IDLE || s == State.OFFERED || s == State.UNAVAILABLE) {
            actuator.retryHelper();
            start("a stop plan was opened");
        }
    }

    /** Starts on a background thread; returns at once. */
    private void start(String reason) {
        State before = state.get();
        if (!state.compareAndSet(before, State.STARTING)) return;
        why = "starting (" + reason + ")";
        Thread t = new Thread(() -> {
            boolean up = actuator.warmUp();
            why = up ? "running, started ahead of need on " + reason
                    : "not available: " + actuator.helperUnavailable().orElse("it did not start") + "; your own privileges only";
            state.set(up ? State.RUNNING : State.UNAVAILABLE);
        }, "helper-ahead-of-need");
        t.setDaemon(true);
        t.start();
    }

    public State state() {
        State s = state.get();
        if (s == State.RUNNING && !actuator.hasHelper()) {
            state.compareAndSet(State.RUNNING, State.UNAVAILABLE);
            why = "not available: " + actuator.helperUnavailable().orElse("the helper exited") + "; your own privileges only";
            return State.UNAVAILABLE;
        }
        return s;
    }

    /** The state in words, for a status line. */
    public String describe() {
        State s = state();
        if (s != State.RUNNING && s != State.NOT_NEEDED && actuator.hasHelper()) return "helper running"; // a plan started it
        if (s == State.OFFERED) return "helper not started: offered on " + why;
        return s == State.IDLE ? "helper not started (offered on a spike, started for a stop plan)" : "helper " + why;
    }

    public static boolean spike(Snapshot s) {
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
