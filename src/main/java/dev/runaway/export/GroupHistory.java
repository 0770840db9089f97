// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.export;

import dev.runaway.analysis.GroupCap;
import dev.runaway.analysis.GrowthShape;
import dev.runaway.analysis.MemorySource;
import dev.runaway.timeline.GroupPoint;
import dev.runaway.timeline.GroupScan;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One command group over a whole timeline: its peaks, and how it grew while it grew. The shape
 * is the one the analyzer saw most often over the scans where the group was growing (linear or
 * exponential), the rates the median over those scans: a group that grew linearly, then sat at
 * its cap ("steady") and was stopped is told as linear at its growing rate.
 *
 * @param capTasks the group's cgroup pids.max at the last scan that knew it (older recordings: tasks + room), -1 unknown
 * @param atCap    a scan recorded it at a cap (its forks refused at a limit)
 * @param cap      the limit it pressed on at the last such scan, when recorded
 * @param peakMemoryBytes the highest memory figure recorded (a cgroup's charge, PSS or capped RSS)
 * @param memorySources   where the recorded memory figures came from, best first
 */
public record GroupHistory(String command, int peakTasks, double peakTasksSeconds, long peakMemoryBytes,
                           double peakMemorySeconds, GrowthShape growth, double tasksPerSecond, double bytesPerSecond, int chains,
                           int deepestChain, boolean parentedToInit, boolean recursive, List<String> cycle, long capTasks,
                           boolean atCap, Optional<GroupCap> cap, Set<MemorySource> memorySources) {

    /** "cgroup memory.current", "PSS, RSS, capped": the sources in words, for a legend. */
    public String memoryWords() {
        return String.join(" / ", memorySources.stream().map(MemorySource::words).toList());
    }

    /** Every group seen, the highest peak of tasks first. */
    public static List<GroupHistory> of(List<GroupScan> scans) {
        Map<String, List<Double>> seen = new LinkedHashMap<>();
        Map<String, List<GroupPoint>> points = new HashMap<>();
        for (GroupScan s : scans) {
            for (GroupPoint g : s.groups()) {
                seen.computeIfAbsent(g.command(), k -> new ArrayList<>()).add(s.seconds());
                points.computeIfAbsent(g.command(), k -> new ArrayList<>()).add(g);
            }
        }
        List<GroupHistory> out = new ArrayList<>();
        for (String command : seen.keySet()) out.add(history(command, seen.get(command), points.get(command)));
        out.sort(Comparator.comparingInt(GroupHistory::peakTasks).reversed());
        return List.copyOf(out);
    }

    private static GroupHistory history(String command, List<Double> at, List<GroupPoint> points) {
        int peakTasks = -1;
        double peakTasksAt = 0, peakRssAt = 0;
        long peakRss = -1, cap = -1;
        int chains = 0, deepest = 0;
        boolean init = false, recursive = false, atCap = false;
        Optional<GroupCap> pressed = Optional.empty();
        List<String> cycle = List.of();
        Set<MemorySource> sources = EnumSet.noneOf(MemorySource.class);
        Map<GrowthShape, Integer> shapes = new java.util.EnumMap<>(GrowthShape.class);
        List<Double> rates = new ArrayList<>(), bytesRates = new ArrayList<>();
        for (int i = 0; i < points.size(); i++) {
            GroupPoint g = points.get(i);
            double seconds = at.get(i);
            if (g.tasks() > peakTasks) {
                peakTasks = g.tasks();
                peakTasksAt = seconds;
            }
            if (g.memoryBytes() > peakRss) {
                peakRss = g.memoryBytes();
                peakRssAt = seconds;
            }
            sources.add(g.memorySource());
            // pids.max 0 is the guided stop's growth lever (nothing can have grown under it), not the cap
            // the group pressed on: the scans during a stop must not rewrite the cap as 0
            if (g.cgroupMax() > 0) cap = g.cgroupMax();
            else if (g.cgroupMax() < 0 && g.cgroupRoom() >= 0) cap = g.tasks() + g.cgroupRoom(); // recordings before the cap was written
            if (g.atCap() && g.cap().map(c -> c.value() > 0).orElse(true)) {
                atCap = true;
                if (g.cap().isPresent()) pressed = g.cap();
            }
            chains = Math.max(chains, g.chainCount());
            deepest = Math.max(deepest, g.deepestChain());
            init |= g.parentedToInit();
            if (g.recursive()) {
                recursive = true;
                if (!g.cycle().isEmpty()) cycle = g.cycle();
            }
            if (growing(g.tasksGrowth().shape())) {
                shapes.merge(g.tasksGrowth().shape(), 1, Integer::sum);
                rates.add(g.rate());
                bytesRates.add(g.bytesPerSecond());
            }
        }
        GroupPoint last = points.get(points.size() - 1);
        GrowthShape growth = last.tasksGrowth().shape();
        double rate = last.rate(), bytesRate = last.bytesPerSecond();
        if (!shapes.isEmpty()) {
            growth = shapes.getOrDefault(GrowthShape.EXPONENTIAL, 0) > shapes.getOrDefault(GrowthShape.LINEAR, 0)
                    ? GrowthShape.EXPONENTIAL : GrowthShape.LINEAR;
            rate = median(rates);
            bytesRate = median(bytesRates);
        }
        return new GroupHistory(command, peakTasks, peakTasksAt, peakRss, peakRssAt, growth, rate, bytesRate, chains,
                deepest, init, recursive, cycle, cap, atCap, pressed, java.util.Collections.unmodifiableSet(sources));
    }

    private static boolean growing(GrowthShape shape) {
        return shape == GrowthShape.LINEAR || shape == GrowthShape.EXPONENTIAL;
    }

    static double median(List<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        if (v.length == 0) return Double.NaN;
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    /** "linear, +32.0 tasks/s", or the shape alone when it is not growing. */
    public String growthWords() {
        if (growing(growth)) return growth.json() + ", " + Words.rate(tasksPerSecond, "tasks");
        return growth.json();
    }

    /**
     * Growth words, and the cap when a scan recorded the group at one: "at cap, pids.max 600", or
     * "linear, +32.0 tasks/s, then at cap, pids.max 600". A group pressing on its cap reads flat,
     * but it is the most severe state, never "steady".
     */
    public String stateWords() {
        if (!atCap) return growthWords();
        String limit = cap.map(GroupCap::text).orElse(capTasks >= 0 ? "pids.max " + Words.count(capTasks) : "");
        String atCapWords = "at cap" + (limit.isEmpty() ? "" : ", " + limit);
        if (growing(growth)) return growthWords() + ", then " + atCapWords;
        return atCapWords;
    }
}
