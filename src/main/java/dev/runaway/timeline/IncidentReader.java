// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runaway.analysis.Analyzer;
import dev.runaway.analysis.GroupOrder;
import dev.runaway.analysis.GrowthFit;
import dev.runaway.analysis.GrowthSeries;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Reads a recording (any version up to this one's) into an {@link Incident}. Rates are derived
 * again from the raw figures with the analyzer's own fitting, so a replay shows what the live
 * console showed. A rotated predecessor (FILE.1 from the same recorder) is read first.
 */
public final class IncidentReader {
    private IncidentReader() {
    }

    public static Incident read(Path file) throws IOException {
        List<Path> files = new ArrayList<>();
        List<JsonNode> records = new ArrayList<>();
        RecordingReader.Recording current = RecordingReader.read(file);
        Path rotated = file.resolveSibling(file.getFileName() + ".1");
        if (Files.isRegularFile(rotated)) {
            try {
                RecordingReader.Recording before = RecordingReader.read(rotated);
                if (before.header().path("started").equals(current.header().path("started"))) {
                    files.add(rotated);
                    records.addAll(before.records());
                }
            } catch (IOException unreadable) {
                // An older, unrelated or damaged FILE.1 is not part of this incident.
            }
        }
        files.add(file);
        records.addAll(current.records());
        JsonNode header = current.header();
        Instant started = Instant.parse(header.path("started").asText(Instant.EPOCH.toString()));
        Timeline timeline = new Timeline(started, 0, header.path("source").asText("recording") + ": " + file.getFileName());

        List<GroupScan> recorded = new ArrayList<>();
        Map<String, GrowthSeries> series = new HashMap<>();
        GroupOrder.Worst worst = new GroupOrder.Worst(); // the worst group held as live held it
        Map<String, GroupPoint> groups = new java.util.LinkedHashMap<>();
        Map<String, dev.runaway.analysis.CgroupLoad> cgroups = new java.util.LinkedHashMap<>();
        Map<String, GrowthSeries> cgroupSeries = new HashMap<>();
        PulsePoint previous = null;
        Optional<JsonNode> end = Optional.empty();
        for (JsonNode n : records) {
            switch (n.path("type").asText()) {
                case "pulse" -> {
                    previous = IncidentFormat.pulse(n, previous);
                    timeline.add(previous);
                }
                case "scan" -> {
                    GroupScan live = IncidentFormat.scan(n, groups, cgroups);
                    recorded.add(live);
                    timeline.add(derived(live, series, cgroupSeries, worst));
                }
                case "sample" -> timeline.add(runSample(n));
                case "event" -> timeline.add(IncidentFormat.event(n));
                case "end" -> end = Optional.of(n);
                default -> {
                    // A record type from a newer minor addition: ignored, as the format says.
                }
            }
        }
        return new Incident(List.copyOf(files), header, timeline, List.copyOf(recorded), end, current.tornLineSkipped());
    }

    /** The scan with each group's growth fitted again on the recorded counts, as the analyzer does. */
    private static GroupScan derived(GroupScan live, Map<String, GrowthSeries> series, Map<String, GrowthSeries> cgroupSeries,
                                     GroupOrder.Worst worst) {
        double now = live.monotonicNanos() / 1e9;
        List<GroupPoint> groups = new ArrayList<>(live.groups().size());
        for (GroupPoint g : live.groups()) {
            GrowthSeries s = series.computeIfAbsent(g.command(), k -> new GrowthSeries(Analyzer.WINDOW_SECONDS));
            s.add(now, g.tasks(), g.rssBytes());
            GrowthFit fit = s.fitTasks();
            groups.add(g.withGrowth(fit, s.bytesPerSecond()));
        }
        Set<String> present = live.groups().stream().map(GroupPoint::command).collect(Collectors.toSet());
        series.entrySet().removeIf(e -> !present.contains(e.getKey()) && e.getValue().staleAt(now));
        groups.sort(GroupOrder.severity());
        List<dev.runaway.analysis.CgroupLoad> cgroups = new ArrayList<>(live.cgroups().size());
        for (dev.runaway.analysis.CgroupLoad c : live.cgroups()) {
            GrowthSeries s = cgroupSeries.computeIfAbsent(c.path(), k -> new GrowthSeries(Analyzer.WINDOW_SECONDS));
            s.add(now, c.tasks(), 0);
            cgroups.add(c.withGrowth(s.fitTasks()));
        }
        Set<String> paths = live.cgroups().stream().map(dev.runaway.analysis.CgroupLoad::path).collect(Collectors.toSet());
        cgroupSeries.entrySet().removeIf(e -> !paths.contains(e.getKey()) && e.getValue().staleAt(now));
        cgroups.sort(GroupOrder.severity());
        return new GroupScan(live.seconds(), live.time(), live.monotonicNanos(), live.processes(),
                List.copyOf(worst.order(groups, live.seconds())), List.copyOf(cgroups));
    }

    /** Version 1's sandbox sample of {@code runaway run}: one group, the contained command. */
    private static GroupScan runSample(JsonNode n) {
        double seconds = n.path("seconds").asDouble();
        GroupPoint g = new GroupPoint("runaway run (sandbox)", n.path("tasks").asInt(), n.path("rssBytes").asLong(),
                GrowthFit.UNKNOWN, 0, java.util.OptionalDouble.empty(), "", 0, 0, false, false, List.of(), -1);
        Instant time;
        try {
            time = Instant.parse(n.path("time").asText());
        } catch (RuntimeException e) {
            time = Instant.EPOCH;
        }
        return new GroupScan(seconds, time, Math.round(seconds * 1e9), n.path("processes").asInt(), List.of(g));
    }
}
