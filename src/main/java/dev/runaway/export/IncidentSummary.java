// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.export;

import dev.runaway.stop.StepEvents;
import dev.runaway.stop.run.StopEngine;
import dev.runaway.timeline.EventKind;
import dev.runaway.timeline.GroupScan;
import dev.runaway.timeline.PulsePoint;
import dev.runaway.timeline.Timeline;
import dev.runaway.timeline.TimelineEvent;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.function.ToLongFunction;

/**
 * What an incident comes to, computed from its timeline alone: the figures the report leads
 * with and the JSON export carries. Missing data is an empty Optional, never a made-up zero.
 *
 * @param fromSeconds     the first second with data (negative with OOM history from before)
 * @param toSeconds       the last second with data
 * @param peakTasks       the machine's tasks at their highest (pulses)
 * @param worstGroup      the group with the most tasks at its peak
 * @param secondsToZero   from the start of the guided stop to zero (zero confirmed, less the
 *                        {@link StopEngine#STABLE_WINDOW} it was watched for)
 * @param restored        what the stop put back: its {@code restore} steps, in words
 * @param subjects        what the incident is about: the groups asked for ({@code --group}), else the
 *                        groups the guided stop stopped; empty when neither (then the largest lead)
 */
public record IncidentSummary(String source, Instant started, double fromSeconds, double toSeconds,
                              Optional<Peak> peakTasks, Optional<Peak> peakMemoryUsed, long memoryTotalBytes,
                              Optional<Peak> peakSwapUsed, long swapTotalBytes, OptionalDouble peakPressureSome10,
                              Optional<GroupHistory> worstGroup, List<GroupHistory> topGroups,
                              List<Finding> recursions, List<Finding> reparenting, List<Finding> caps, Oom oom,
                              List<Finding> stopSteps, OptionalDouble stopStartedSeconds, OptionalDouble secondsToZero,
                              boolean zeroConfirmed, List<String> restored, List<GroupHistory> subjects) {

    /** A highest value and when. */
    public record Peak(long value, double seconds, Instant time) {
    }

    /** An event worth a line in the report. */
    public record Finding(double seconds, Instant time, String title, String detail, long count, String command,
                          long millis) {
        static Finding of(TimelineEvent e) {
            return new Finding(e.seconds(), e.time(), e.title(), e.detail(), e.count(), e.command(), e.millis());
        }
    }

    /** The out-of-memory kills: how many events, how many processes went, and the episodes. */
    public record Oom(int events, int kernelKills, int oomdKills, long processesKilled, List<OomEpisode> episodes) {
    }

    public static final int TOP_GROUPS = 5;

    public static IncidentSummary of(Timeline timeline) {
        return of(timeline, List.of());
    }

    /** With {@code asked} (command keys) as the subject; the stopped groups when it is empty. */
    public static IncidentSummary of(Timeline timeline, List<String> asked) {
        List<PulsePoint> pulses = timeline.pulses();
        List<GroupScan> scans = timeline.scans();
        List<TimelineEvent> events = timeline.events();
        double from = Double.POSITIVE_INFINITY, to = Double.NEGATIVE_INFINITY;
        for (PulsePoint p : pulses) {
            from = Math.min(from, p.seconds());
            to = Math.max(to, p.seconds());
        }
        for (GroupScan s : scans) {
            from = Math.min(from, s.seconds());
            to = Math.max(to, s.seconds());
        }
        for (TimelineEvent e : events) {
            from = Math.min(from, e.seconds());
            to = Math.max(to, e.seconds());
        }
        if (from > to) from = to = 0;

        long memoryTotal = pulses.stream().mapToLong(PulsePoint::memoryTotalBytes).max().orElse(0);
        long swapTotal = pulses.stream().mapToLong(PulsePoint::swapTotalBytes).max().orElse(0);
        OptionalDouble pressure = pulses.stream().mapToDouble(PulsePoint::pressureSome10).filter(v -> !Double.isNaN(v)).max();
        List<GroupHistory> groups = GroupHistory.of(scans);

        List<TimelineEvent> steps = events.stream().filter(e -> e.kind() == EventKind.STOP_STEP).toList();
        List<Finding> stop = steps.stream().map(Finding::of).toList();
        OptionalDouble stopStarted = OptionalDouble.empty(), toZero = OptionalDouble.empty();
        boolean zero = false;
        if (!steps.isEmpty()) {
            TimelineEvent first = steps.get(0);
            double started = first.seconds() - Math.max(0, first.millis()) / 1000.0;
            stopStarted = OptionalDouble.of(started);
            for (TimelineEvent e : steps) {
                if (StepEvents.zeroConfirmed(e)) {
                    zero = true;
                    toZero = OptionalDouble.of(e.seconds() - StopEngine.STABLE_WINDOW.toMillis() / 1000.0 - started);
                    break;
                }
            }
        }
        List<String> restored = new ArrayList<>();
        for (TimelineEvent e : steps) {
            if (StepEvents.restores(e)) restored.add(e.detail() + (e.count() > 0 ? " (" + e.count() + ")" : ""));
        }

        List<GroupHistory> subjects = subjects(groups, asked.isEmpty() ? stopped(stop) : asked);
        List<GroupHistory> top = new ArrayList<>(subjects);
        for (GroupHistory g : groups) if (top.size() < TOP_GROUPS && !subjects.contains(g)) top.add(g);
        return new IncidentSummary(timeline.source(), timeline.started(), from, to,
                peak(pulses, PulsePoint::tasks), peak(pulses, PulsePoint::memoryUsedBytes), memoryTotal,
                peak(pulses, PulsePoint::swapUsedBytes), swapTotal, pressure,
                subjects.isEmpty() ? groups.stream().findFirst() : Optional.of(subjects.get(0)), List.copyOf(top),
                collapse(recursions(events, groups)), collapse(kind(events, EventKind.REPARENTING)),
                collapse(kind(events, EventKind.CAP_REACHED)), oom(events), stop, stopStarted, toZero, zero,
                List.copyOf(restored), subjects);
    }

    /** The command keys the guided stop acted on, in the order it first did. */
    static List<String> stopped(List<Finding> steps) {
        java.util.LinkedHashSet<String> keys = new java.util.LinkedHashSet<>();
        for (Finding f : steps) if (!f.command().isEmpty()) keys.add(f.command());
        return List.copyOf(keys);
    }

    private static List<GroupHistory> subjects(List<GroupHistory> groups, List<String> keys) {
        List<GroupHistory> out = new ArrayList<>();
        for (String k : keys) for (GroupHistory g : groups) if (g.command().equals(k)) out.add(g);
        return List.copyOf(out);
    }

    /**
     * Repeats of one finding (one cap reached again and again as a drill presses on it) as one
     * line: the first, titled with how many times and until when it recurred.
     */
    static List<Finding> collapse(List<Finding> findings) {
        java.util.Map<String, List<Finding>> byTitle = new java.util.LinkedHashMap<>();
        for (Finding f : findings) byTitle.computeIfAbsent(f.title() + "\u0000" + f.command(), k -> new ArrayList<>()).add(f);
        List<Finding> out = new ArrayList<>();
        for (List<Finding> same : byTitle.values()) {
            Finding first = same.get(0);
            if (same.size() == 1) {
                out.add(first);
                continue;
            }
            Finding last = same.get(same.size() - 1);
            out.add(new Finding(first.seconds(), first.time(), first.title() + " (\u00d7" + same.size() + ")",
                    first.detail() + "; " + same.size() + " times in " + Words.duration(last.seconds() - first.seconds()),
                    first.count(), first.command(), first.millis()));
        }
        return List.copyOf(out);
    }

    private static Optional<Peak> peak(List<PulsePoint> pulses, ToLongFunction<PulsePoint> value) {
        PulsePoint best = null;
        for (PulsePoint p : pulses) if (best == null || value.applyAsLong(p) > value.applyAsLong(best)) best = p;
        return best == null ? Optional.empty() : Optional.of(new Peak(value.applyAsLong(best), best.seconds(), best.time()));
    }

    private static List<Finding> kind(List<TimelineEvent> events, EventKind kind) {
        return events.stream().filter(e -> e.kind() == kind).map(Finding::of).toList();
    }

    /** Recursion events, and any recursive group the events do not name (a file from before events). */
    private static List<Finding> recursions(List<TimelineEvent> events, List<GroupHistory> groups) {
        List<Finding> out = new ArrayList<>(kind(events, EventKind.RECURSION));
        Set<String> named = new HashSet<>();
        out.forEach(f -> named.add(f.command()));
        for (GroupHistory g : groups) {
            if (g.recursive() && !named.contains(g.command())) {
                out.add(new Finding(g.peakTasksSeconds(), Instant.EPOCH, "recursion " + Words.shortName(g.command()),
                        String.join(" -> ", g.cycle()), g.peakTasks(), g.command(), -1));
            }
        }
        return List.copyOf(out);
    }

    private static Oom oom(List<TimelineEvent> events) {
        List<OomEpisode> episodes = OomEpisode.of(events);
        int kernel = 0, oomd = 0;
        long processes = 0;
        for (OomEpisode e : episodes) {
            if (e.kind() == EventKind.OOMD_KILL) oomd++;
            else kernel += e.kills();
            processes += Math.max(0, e.processes());
        }
        return new Oom(kernel + oomd, kernel, oomd, processes, episodes);
    }
}
