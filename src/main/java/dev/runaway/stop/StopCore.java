// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.stop.run.GrowthFirst;
import dev.runaway.stop.act.Actions;
import dev.runaway.stop.act.Actuator;
import dev.runaway.stop.plan.Disposable;
import dev.runaway.stop.plan.Planner;
import dev.runaway.stop.plan.Privilege;
import dev.runaway.stop.plan.StopPlan;
import dev.runaway.stop.target.Exclusions;
import dev.runaway.stop.target.TargetRescan;
import dev.runaway.procfs.ProcStat;
import dev.runaway.procfs.PulseReader;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The one guided stop every front end uses ({@code runaway stop}, the window, the terminal):
 * what is never taken, how a selector's definition is read, how levers are checked and pulled.
 * Open a {@link StopSession} per stop.
 */
public final class StopCore {
    private final Path proc;
    private final PulseReader pulse;
    private final Actuator actuator;
    private final Disposable disposable;
    private final Exclusions exclusions;
    private volatile boolean confirmedUpFront;
    private volatile java.util.function.Supplier<dev.runaway.procfs.Sampler.Rest> scansRest = () -> () -> { };

    public StopCore(Path proc, PulseReader pulse, Actuator actuator, Disposable disposable) {
        this.proc = proc;
        this.pulse = pulse;
        this.actuator = actuator;
        this.disposable = disposable;
        this.exclusions = Exclusions.ofThisProcess(proc);
    }

    /**
     * The sampler of the face this core serves (the window's, top's) rests while a confirmed
     * stop runs ({@link dev.runaway.procfs.Sampler#rest}): the kill's exits need the CPU, and the
     * stop reads its own targets.
     */
    public StopCore restingScans(java.util.function.Supplier<dev.runaway.procfs.Sampler.Rest> rest) {
        this.scansRest = rest;
        return this;
    }

    dev.runaway.procfs.Sampler.Rest restScans() {
        return scansRest.get();
    }

    public StopSession open(Selector selector) {
        return new StopSession(this, selector);
    }

    public boolean helperRunning() {
        return actuator.hasHelper();
    }

    Actions actions() {
        return actuator;
    }

    Planner planner() {
        return new Planner(disposable, Privilege.ofThisUser(actuator));
    }

    TargetRescan rescan(Selector selector) {
        return new TargetRescan(proc, selector, exclusions, pulse);
    }

    public Exclusions exclusions() {
        return exclusions;
    }

    /**
     * What runs once a plan shown to the user is confirmed: the session itself, or, when its plan
     * would not stop growth through a cgroup and the selector is a binary's key, a session planned
     * after growth was stopped first ({@link GrowthFirst}: the key's processes by their exe links,
     * their cgroup capped and frozen when it holds (nearly) only them, every process in it checked
     * while frozen, thawed at once on a stranger). Why: during a fire a live table holds only part
     * of a group, and its plan's check of the cgroup's other processes cannot read them all in
     * time (their stats wait while they exec), so the plan falls back to levers by pid, and the
     * processes it does not list go on forking (bench ui at 20,000 pressing tasks: a plan of 2,689
     * processes, growth went on for 295 s). The key names the group the user confirmed; a stopped
     * cgroup holds only its processes and their children. When the attempt does not freeze, or
     * the new plan would not use that cgroup, everything is put back and the confirmed session
     * runs as shown.
     */
    public Confirmed confirmed(StopSession session) {
        long at = System.nanoTime();
        if (!mayStopGrowthFirst(session)) return new Confirmed(session, Optional.empty(), "", -1);
        GrowthFirst.Attempt attempt;
        try (var raised = dev.runaway.sys.Sched.raisedWhile()) {
            attempt = GrowthFirst.attempt(proc, session.selector(), actuator, exclusions);
        }
        if (attempt.frozen().isEmpty()) return new Confirmed(session, Optional.empty(), attempt.why(), -1);
        long growthStopped = (attempt.frozen().get().atNanos() - at) / 1_000_000;
        GrowthFirst.Planned planned = GrowthFirst.plan(this, proc, session.selector(), attempt, actuator);
        if (planned.frozen().isEmpty()) {
            planned.session().cancel();
            return new Confirmed(session, Optional.empty(), "froze " + planned.thawed().orElse("") + " but its plan chose otherwise; thawed", -1);
        }
        session.cancel();
        return new Confirmed(planned.session(), Optional.of(planned.frozen().get().cgroup()), attempt.why(), growthStopped);
    }

    /** Whether {@link #confirmed} may stop growth through a cgroup before this ready session's plan. */
    public static boolean mayStopGrowthFirst(StopSession session) {
        return GrowthFirst.mayGoFirst(session.selector(), session.plan());
    }

    /** What the plan shown says of {@link #confirmed} when it may apply. */
    public static final String FIRST_ON_ENTER = "On confirming, first: if the key's processes fill a cgroup of their own, its pids.max"
            + " goes to 0 and it is frozen, every process in it checked while frozen (thawed at once on any other); then the plan"
            + " runs from that cgroup. Otherwise these steps as shown.";

    /**
     * The session to run after a confirmation, and whether growth was stopped before it through a
     * cgroup (then {@code millisToGrowthStopped} counts from the confirmation).
     */
    public record Confirmed(StopSession session, Optional<String> frozenFirst, String why, long millisToGrowthStopped) {
    }

    /**
     * The user confirmed before any plan was shown ({@code runaway stop --yes}): every plan this
     * core makes is a confirmed stop, so a helper started for one is started for that stop and
     * its polkit prompt names it.
     */
    public void confirmedUpFront() {
        confirmedUpFront = true;
    }

    /** Starts the helper while the plan is read when the plan needs it; says how that went ("" when not needed). */
    String warmHelperIfNeeded(StopPlan plan) {
        if (!plan.needsHelper()) return "";
        actuator.retryHelper(); // opening a plan is the user asking
        boolean up = confirmedUpFront ? actuator.warmUp(plan.binding()) : actuator.warmUp();
        return up ? "the helper is running (started through pkexec)"
                : "the helper is not available (" + actuator.helperUnavailable().orElse("it did not start")
                + "): what needs it will fall back or be refused";
    }

    /** Selectors refused before anything is read, in words. */
    StopSession.Refusal refusal(Selector selector) {
        if (selector instanceof Selector.Cgroup c) {
            String path = c.path();
            if (!path.startsWith("/") || path.equals("/") || path.contains("..")) {
                return new StopSession.Refusal(StopSession.Reason.NOT_A_CGROUP,
                        "'" + path + "' is not a cgroup below the root (write it as /proc/PID/cgroup prints it)");
            }
            return null;
        }
        if (selector instanceof Selector.Command c && c.key().endsWith(dev.runaway.analysis.CommandKeys.CMDLINE_UNREAD)) {
            return new StopSession.Refusal(StopSession.Reason.NOT_A_TARGET, "'" + c.key() + "' groups processes whose command"
                    + " lines are not read yet: they cannot be told apart (wait for the scan to read them, or stop by --cgroup)");
        }
        var root = selector.rootProcess();
        if (root == null) return null;
        int pid = root.pid();
        if (pid <= 1) return new StopSession.Refusal(StopSession.Reason.INIT_OR_KERNEL, "pid " + pid + " is init or the kernel");
        if (pid == exclusions.self()) return new StopSession.Refusal(StopSession.Reason.THIS_PROCESS, "pid " + pid + " is this console");
        var now = ProcStat.read(proc, pid);
        if (now.isEmpty() || now.get().startTicks() != root.startTicks() || now.get().isZombie()) {
            return new StopSession.Refusal(StopSession.Reason.NO_SUCH_PROCESS, "no process " + pid + " (it has exited)");
        }
        var excluded = exclusions.of(root, now.get().ppid(), now.get().comm(), new dev.runaway.procfs.ProcReader(proc).cgroup(pid),
                now.get().session());
        if (excluded.isPresent()) {
            return new StopSession.Refusal(StopSession.Reason.EXCLUDED, "pid " + pid + " (" + excluded.get().name() + ") is "
                    + excluded.get().why().words());
        }
        return null;
    }
}
