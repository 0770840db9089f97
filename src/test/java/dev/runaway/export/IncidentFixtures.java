// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.export;

import dev.runaway.analysis.GroupCap;
import dev.runaway.analysis.GrowthFit;
import dev.runaway.analysis.GrowthShape;
import dev.runaway.stoporder.StopStep;
import dev.runaway.stop.StepEvents;
import dev.runaway.timeline.EventKind;
import dev.runaway.timeline.GroupPoint;
import dev.runaway.timeline.GroupScan;
import dev.runaway.timeline.PulsePoint;
import dev.runaway.timeline.Timeline;
import dev.runaway.timeline.TimelineEvent;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Timelines shaped like the source incidents, built point by point: the deploy loop growing in a
 * straight line (32 tasks and 250 MiB a second) to its cap, and the five OOM events of two days.
 */
final class IncidentFixtures {
    static final Instant STARTED = Instant.parse("2025-10-19T14:02:10Z");
    static final long MIB = 1024L * 1024;
    static final long GIB = 1024 * MIB;
    static final String DEPLOY = "/home/dev/railway-bridge/deploy.sh";
    static final String UNITTEST = "python3 -m unittest";
    static final int BASELINE_TASKS = 420;
    static final long BASELINE_USED = 6 * GIB;
    static final List<String> CYCLE = List.of(DEPLOY, UNITTEST, DEPLOY);

    private IncidentFixtures() {
    }

    /** The deploy loop's tasks at {@code t} seconds: one level, then 32 more a second. */
    static int deployTasks(double t) {
        return 1 + (int) Math.floor(32 * t);
    }

    static long deployRss(double t) {
        return Math.round(250 * MIB * t);
    }

    /**
     * The capped reproduction: a linear runaway in a unit of 1,500 MiB, killed by the kernel's OOM
     * killer at 6.0 s; pulses every 100 ms for 7 s, a scan every 500 ms.
     */
    static Timeline memoryCapped() {
        Timeline t = new Timeline(STARTED, 0, "fixture: the deploy loop, memory-capped");
        for (int i = 0; i <= 70; i++) {
            double s = i / 10.0;
            boolean alive = s < 6.0;
            t.add(pulse(t, s, BASELINE_TASKS + (alive ? deployTasks(s) : 0), alive ? deployRss(s) : 0, 0));
        }
        for (int i = 1; i <= 14; i++) {
            double s = i / 2.0;
            if (s < 6.0) t.add(scan(t, s, deployTasks(s), deployRss(s), "linear", 32, 250.0 * MIB, -1, s >= 1));
            else t.add(new GroupScan(s, t.timeAt(s), 0, BASELINE_TASKS, List.of(other(1))));
        }
        t.add(event(t, 1.0, EventKind.RECURSION, "recursion deploy.sh", String.join(" -> ", CYCLE) + " (3 times along one line)",
                33, -1, DEPLOY, -1));
        t.add(event(t, 6.0, EventKind.OOM_KILL, "oom-kill deploy.sh", "Memory cgroup out of memory: Killed process 48213 (deploy.sh)",
                1, 48213, "deploy.sh", -1));
        return t;
    }

    /**
     * The linear drill capped by pids.max 200 (32 tasks/s, 250 MiB/s), then stopped by the guided
     * stop at 9 s: freeze, cgroup.kill, zero confirmed over 2 s, thaw. 12 s of pulses.
     */
    static Timeline pidsCappedAndStopped() {
        Timeline t = new Timeline(STARTED, 0, "fixture: linear drill, pids.max 200");
        double capAt = 199 / 32.0;
        for (int i = 0; i <= 120; i++) {
            double s = i / 10.0;
            int tasks = s < 9.05 ? Math.min(200, deployTasks(s)) : 0;
            long rss = s < 9.05 ? deployRss(Math.min(s, capAt)) : 0;
            t.add(pulse(t, s, BASELINE_TASKS + tasks, rss, Math.min(40, s * 5)));
        }
        for (int i = 1; i <= 24; i++) {
            double s = i / 2.0;
            if (s < 9.05) {
                int tasks = Math.min(200, deployTasks(s));
                boolean capped = s >= capAt;
                t.add(scan(t, s, tasks, deployRss(Math.min(s, capAt)), capped ? "steady" : "linear", capped ? 0 : 32,
                        capped ? 0 : 250.0 * MIB, 200 - tasks, s >= 1));
            } else {
                t.add(new GroupScan(s, t.timeAt(s), 0, BASELINE_TASKS, List.of(other(1))));
            }
        }
        t.add(event(t, 1.0, EventKind.RECURSION, "recursion deploy.sh", String.join(" -> ", CYCLE) + " (3 times along one line)",
                33, -1, DEPLOY, -1));
        t.add(event(t, 6.5, EventKind.CAP_REACHED, "pids.max deploy.sh", "cgroup /runaway-sandbox.drill-linear at its pids.max with 200 tasks",
                200, -1, DEPLOY, -1));
        t.add(step(t, 9.012, StopStep.Phase.STOP_GROWTH, StopStep.Action.FREEZE, 200, "froze /runaway-sandbox.drill-linear", DEPLOY, 12));
        t.add(step(t, 9.052, StopStep.Phase.KILL, StopStep.Action.CGROUP_KILL, 200, "killed every member of /runaway-sandbox.drill-linear", DEPLOY, 40));
        t.add(step(t, 11.102, StopStep.Phase.CONFIRM_ZERO, StopStep.Action.RESCAN, 0, "nothing matched for 2 s, 21 checks", DEPLOY, 2050));
        t.add(step(t, 11.105, StopStep.Phase.RESTORE, StopStep.Action.THAW, 1, "thawed /runaway-sandbox.drill-linear", DEPLOY, 3));
        return t;
    }

    static final String SLEEPERS = "/usr/bin/sleep";

    /**
     * A busy machine: 10,000 sleepers all along, the drill (deploy.sh) from 2 s on, pressing on
     * its cap (reached 42 times as tasks exit and are replaced), stopped at 9 s; its summed RSS
     * counted above what the machine has in use.
     */
    static Timeline busyAndStopped() {
        Timeline t = new Timeline(STARTED, 0, "fixture: busy machine, drill stopped");
        for (int i = 0; i <= 120; i++) {
            double s = i / 10.0;
            t.add(pulse(t, s, BASELINE_TASKS + 10_000 + (s >= 2 && s < 9.05 ? 200 : 0), 0, 2));
        }
        for (int i = 1; i <= 24; i++) {
            double s = i / 2.0;
            GroupPoint sleepers = new GroupPoint(SLEEPERS, 10_000, 10_000 * MIB, new GrowthFit(GrowthShape.STEADY, 0, 0), 0, OptionalDouble.empty(), "", 10_000, 1,
                    true, false, List.of(), -1);
            List<GroupPoint> groups = new ArrayList<>(List.of(sleepers));
            if (s >= 2 && s < 9.05) {
                // recorded as the analyzer sees it: flat at its cap, every fork refused
                groups.add(0, new GroupPoint(DEPLOY, 200, 40 * GIB, new GrowthFit(GrowthShape.STEADY, 0, 0), 0, OptionalDouble.empty(), "", 1, 200, false, false,
                        List.of(), 0, 200, true, Optional.of(new GroupCap(GroupCap.PIDS_MAX, 200)), 12,
                        "/runaway-sandbox.drill", false));
            }
            t.add(new GroupScan(s, t.timeAt(s), Math.round(s * 1e9), BASELINE_TASKS + 10_200, List.copyOf(groups)));
        }
        for (int k = 0; k < 42; k++) {
            double s = 2.5 + k * 0.15;
            t.add(event(t, s, EventKind.CAP_REACHED, "pids.max deploy.sh", "cgroup /runaway-sandbox.drill at its pids.max with 200 tasks",
                    200, -1, DEPLOY, -1));
        }
        t.add(step(t, 9.012, StopStep.Phase.STOP_GROWTH, StopStep.Action.FREEZE, 200, "froze /runaway-sandbox.drill", DEPLOY, 12));
        t.add(step(t, 9.052, StopStep.Phase.KILL, StopStep.Action.CGROUP_KILL, 200, "killed every member", DEPLOY, 40));
        t.add(step(t, 11.102, StopStep.Phase.CONFIRM_ZERO, StopStep.Action.RESCAN, 0, "nothing matched for 2 s, 21 checks", DEPLOY, 2050));
        return t;
    }

    /** The four oomd kills' processes, and the kernel's SSH-session episode. */
    static final long[] OOMD_COUNTS = {18_705, 22_416, 29_082, 24_930};
    static final int KERNEL_KILLS = 1_392;
    static final int TAILSCALED_KILLS = 410;

    /**
     * Two days of OOM kills as the journal told them, read by a recorder started on the evening
     * of the second day (so they are history, at negative seconds): four systemd-oomd kills of
     * whole terminal windows, and the kernel's 1,392 kills of one morning over SSH.
     */
    static Timeline oomHistory() {
        Timeline t = new Timeline(Instant.parse("2025-10-20T19:00:00Z"), 0, "fixture: two days of OOM kills");
        Instant[] oomd = {Instant.parse("2025-10-19T10:14:22Z"), Instant.parse("2025-10-19T16:48:05Z"),
                Instant.parse("2025-10-20T14:31:40Z"), Instant.parse("2025-10-20T17:05:12Z")};
        for (int i = 0; i < oomd.length; i++) {
            String unit = "app-terminal-window-" + (4101 + i) + ".scope";
            t.add(new TimelineEvent(t.secondsOf(oomd[i]), oomd[i], EventKind.OOMD_KILL, "oomd kill " + unit,
                    "systemd-oomd killed " + OOMD_COUNTS[i] + " process(es) in " + unit, OOMD_COUNTS[i], -1, unit, -1));
        }
        Instant first = Instant.parse("2025-10-20T06:12:03Z");
        List<String> victims = new ArrayList<>();
        for (int i = 0; i < KERNEL_KILLS; i++) victims.add(i < TAILSCALED_KILLS ? "tailscaled" : i % 3 == 0 ? "python3" : "deploy.sh");
        java.util.Collections.shuffle(victims, new java.util.Random(7));
        for (int i = 0; i < KERNEL_KILLS; i++) {
            Instant at = first.plusMillis(i * 9_950L + (i * 7919L % 3000));
            int pid = 20_000 + i;
            t.add(new TimelineEvent(t.secondsOf(at), at, EventKind.OOM_KILL, "oom-kill " + victims.get(i),
                    "Out of memory: Killed process " + pid + " (" + victims.get(i) + ")", 1, pid, victims.get(i), -1));
        }
        return t;
    }

    static PulsePoint pulse(Timeline t, double s, int tasks, long extraUsed, double psi) {
        long total = 24 * GIB;
        long used = BASELINE_USED + extraUsed;
        return new PulsePoint(s, t.timeAt(s), tasks, 90_000 + (long) (32 * s), s == 0 ? 0 : 32, total, total - used,
                8 * GIB, 8 * GIB - 300 * MIB, psi, psi / 4, 32768);
    }

    private static GroupScan scan(Timeline t, double s, int tasks, long rss, String growth, double rate, double bytesRate,
                                  long room, boolean recursive) {
        GroupPoint deploy = new GroupPoint(DEPLOY, tasks, rss, new GrowthFit(GrowthShape.ofJson(growth), rate, 0), bytesRate, OptionalDouble.empty(), "", 1, tasks, false,
                recursive, recursive ? CYCLE : List.of(), room);
        return new GroupScan(s, t.timeAt(s), Math.round(s * 1e9), BASELINE_TASKS + tasks, List.of(deploy, other(1)));
    }

    private static GroupPoint other(int tasks) {
        return new GroupPoint("/usr/lib/systemd/systemd-journald", tasks, 40 * MIB, new GrowthFit(GrowthShape.STEADY, 0, 0), 0, OptionalDouble.empty(), "", 1, 1,
                false, false, List.of(), -1);
    }

    /** A step as the guided stop puts it on the timeline (StepEvents). */
    private static TimelineEvent step(Timeline t, double s, StopStep.Phase phase, StopStep.Action action, int count, String note,
                                      String command, long millis) {
        TimelineEvent e = StepEvents.of(new StopStep(t.timeAt(s), phase, action, count, StopStep.Result.DONE, note, millis), command, t);
        return new TimelineEvent(s, e.time(), e.kind(), e.title(), e.detail(), e.count(), e.pid(), e.command(), e.millis(), e.step());
    }

    private static TimelineEvent event(Timeline t, double s, EventKind kind, String title, String detail, long count, int pid,
                                       String command, long millis) {
        return new TimelineEvent(s, t.timeAt(s), kind, title, detail, count, pid, command, millis);
    }
}
