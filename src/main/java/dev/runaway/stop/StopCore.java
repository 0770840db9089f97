// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.procfs.ProcStat;
import dev.runaway.procfs.PulseReader;

import java.nio.file.Path;

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

    public StopCore(Path proc, PulseReader pulse, Actuator actuator, Disposable disposable) {
        this.proc = proc;
        this.pulse = pulse;
        this.actuator = actuator;
        this.disposable = disposable;
        this.exclusions = Exclusions.ofThisProcess(proc);
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
        boolean up = confirmedUpFront ? actuator.warmUp(HelperBinding.of(plan)) : actuator.warmUp();
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
