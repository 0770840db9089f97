// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline;

import dev.runaway.analysis.Group;
import dev.runaway.analysis.Snapshot;
import dev.runaway.model.PulseSample;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds the moments worth a mark in a stream of snapshots: a burst of reparenting, recursion
 * found, a cap reached. Each is reported once when it starts, not at every scan it lasts.
 */
final class EventDetector {
    /** Fewer newly adopted processes than this in one scan is ordinary daemon life. */
    static final int REPARENT_BURST = 10;
    /** pid_max counts as reached when this few pids remain. */
    static final int PID_MAX_MARGIN = 64;

    private final Set<String> recursive = new HashSet<>();
    private final Map<String, Boolean> atCap = new HashMap<>();
    private boolean atPidMax;

    /** What this snapshot starts, stamped at {@code seconds}. */
    List<TimelineEvent> events(Snapshot s, double seconds) {
        List<TimelineEvent> out = new ArrayList<>();
        if (s.newlyReparented() >= REPARENT_BURST) {
            out.add(new TimelineEvent(seconds, s.time(), EventKind.REPARENTING, s.newlyReparented() + " reparented",
                    s.newlyReparented() + " processes adopted by init or a subreaper: what started them has exited",
                    s.newlyReparented(), -1, "", -1));
        }
        for (Group g : s.groups()) {
            if (g.recursive() && recursive.add(g.command())) {
                out.add(new TimelineEvent(seconds, s.time(), EventKind.RECURSION, "recursion " + shortName(g.command()),
                        String.join(" -> ", g.cycle()) + " (" + g.repeats() + " times along one line)", g.tasks(), -1,
                        g.command(), -1));
            }
            if (!g.cgroup().isEmpty() && (g.cgroupRoom() >= 0 || g.atCap())) {
                // The analyzer's at-cap state, which holds between refused forks: a drill pressing on
                // its cap at 599 of 600 is one event, not one each time a task exits and another takes its place.
                boolean full = g.atCap() || g.cgroupRoom() == 0;
                Boolean before = atCap.put(g.cgroup(), full);
                if (full && !Boolean.TRUE.equals(before)) {
                    String limit = g.cap().map(dev.runaway.analysis.GroupCap::limit).orElse("pids.max");
                    out.add(new TimelineEvent(seconds, s.time(), EventKind.CAP_REACHED, limit + " " + shortName(g.command()),
                            "cgroup " + g.cgroup() + " at its " + limit + " with " + g.tasks() + " tasks of " + g.command(),
                            g.tasks(), -1, g.command(), -1));
                }
            }
        }
        PulseSample p = s.pulse();
        boolean full = p.pidMax() > 0 && p.tasks() >= p.pidMax() - PID_MAX_MARGIN;
        if (full && !atPidMax) {
            out.add(new TimelineEvent(seconds, s.time(), EventKind.CAP_REACHED, "pid_max",
                    p.tasks() + " tasks of pid_max " + p.pidMax(), p.tasks(), -1, "", -1));
        }
        atPidMax = full;
        return out;
    }

    /** The last path element: chart labels stay short. */
    static String shortName(String command) {
        String first = command.split(" ")[0];
        int slash = first.lastIndexOf('/');
        return slash >= 0 && slash < first.length() - 1 ? command.substring(slash + 1) : command;
    }
}
