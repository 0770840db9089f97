// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.export;

import com.fasterxml.jackson.databind.SequenceWriter;
import com.fasterxml.jackson.dataformat.csv.CsvGenerator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import dev.runaway.timeline.GroupPoint;
import dev.runaway.timeline.GroupScan;
import dev.runaway.timeline.PulsePoint;
import dev.runaway.timeline.Timeline;
import dev.runaway.timeline.TimelineEvent;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every series of a timeline as CSV (RFC 4180, one header row, UTF-8): {@code pulses.csv},
 * {@code groups.csv} (long format: one row per group per scan) and {@code events.csv}. Each row
 * starts with the ISO-8601 time (UTC) and the seconds since the timeline started; figures are in
 * plain units (bytes, tasks, per second, percent); a figure that was not measured is an empty
 * cell. docs/export.md lists the columns.
 */
public final class SeriesCsv {
    public static final List<String> PULSE_COLUMNS = List.of("time", "seconds", "tasks", "forks_since_boot",
            "forks_per_second", "memory_total_bytes", "memory_available_bytes", "memory_used_bytes", "swap_total_bytes",
            "swap_free_bytes", "swap_used_bytes", "pressure_some_avg10_percent", "pressure_full_avg10_percent", "pid_max");
    public static final List<String> GROUP_COLUMNS = List.of("time", "seconds", "processes", "rank", "command", "tasks",
            "rss_bytes", "memory_bytes", "memory_source", "growth", "tasks_per_second", "rss_bytes_per_second", "seconds_to_exhaustion", "exhausted_by",
            "chains", "deepest_chain", "parented_to_init", "recursive", "cycle", "cgroup_room");
    public static final List<String> EVENT_COLUMNS = List.of("time", "seconds", "kind", "title", "detail", "count", "pid",
            "command", "millis");

    /** Quotes only where RFC 4180 needs it (Jackson otherwise quotes every text past 24 characters). */
    private static final CsvMapper CSV = CsvMapper.builder().enable(CsvGenerator.Feature.STRICT_CHECK_FOR_QUOTING).build();

    private SeriesCsv() {
    }

    /** Writes the three files into {@code dir}; returns them in that order. */
    public static List<Path> write(Timeline timeline, Path dir) throws IOException {
        Path pulses = dir.resolve("pulses.csv"), groups = dir.resolve("groups.csv"), events = dir.resolve("events.csv");
        try (SequenceWriter w = writer(pulses, PULSE_COLUMNS)) {
            for (PulsePoint p : timeline.pulses()) w.write(pulse(p));
        }
        try (SequenceWriter w = writer(groups, GROUP_COLUMNS)) {
            for (GroupScan s : timeline.scans()) {
                for (int i = 0; i < s.groups().size(); i++) w.write(group(s, i + 1, s.groups().get(i)));
            }
        }
        try (SequenceWriter w = writer(events, EVENT_COLUMNS)) {
            for (TimelineEvent e : timeline.events()) w.write(event(e));
        }
        return List.of(pulses, groups, events);
    }

    private static SequenceWriter writer(Path file, List<String> columns) throws IOException {
        CsvSchema.Builder schema = CsvSchema.builder();
        columns.forEach(schema::addColumn);
        Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        return CSV.writer(schema.build().withHeader()).writeValues(out);
    }

    private static Map<String, Object> pulse(PulsePoint p) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("time", p.time().toString());
        row.put("seconds", seconds(p.seconds()));
        row.put("tasks", p.tasks());
        row.put("forks_since_boot", p.forksSinceBoot() >= 0 ? p.forksSinceBoot() : null);
        row.put("forks_per_second", number(p.forksPerSecond()));
        row.put("memory_total_bytes", p.memoryTotalBytes());
        row.put("memory_available_bytes", p.memoryAvailableBytes());
        row.put("memory_used_bytes", p.memoryUsedBytes());
        row.put("swap_total_bytes", p.swapTotalBytes());
        row.put("swap_free_bytes", p.swapFreeBytes());
        row.put("swap_used_bytes", p.swapUsedBytes());
        row.put("pressure_some_avg10_percent", number(p.pressureSome10()));
        row.put("pressure_full_avg10_percent", number(p.pressureFull10()));
        row.put("pid_max", p.pidMax());
        return row;
    }

    private static Map<String, Object> group(GroupScan s, int rank, GroupPoint g) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("time", s.time().toString());
        row.put("seconds", seconds(s.seconds()));
        row.put("processes", s.processes());
        row.put("rank", rank);
        row.put("command", g.command());
        row.put("tasks", g.tasks());
        row.put("rss_bytes", g.rssBytes());
        row.put("memory_bytes", g.memoryBytes());
        row.put("memory_source", g.memorySource().json());
        row.put("growth", g.growthShape());
        row.put("tasks_per_second", number(g.rate()));
        row.put("rss_bytes_per_second", Double.isNaN(g.bytesPerSecond()) ? null : Math.round(g.bytesPerSecond()));
        row.put("seconds_to_exhaustion", number(g.secondsLeft()));
        row.put("exhausted_by", g.exhaustedBy());
        row.put("chains", g.chainCount());
        row.put("deepest_chain", g.deepestChain());
        row.put("parented_to_init", g.parentedToInit());
        row.put("recursive", g.recursive());
        row.put("cycle", String.join(" -> ", g.cycle()));
        row.put("cgroup_room", g.cgroupRoom() >= 0 ? g.cgroupRoom() : null);
        return row;
    }

    private static Map<String, Object> event(TimelineEvent e) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("time", e.time().toString());
        row.put("seconds", seconds(e.seconds()));
        row.put("kind", e.kind().json());
        row.put("title", e.title());
        row.put("detail", e.detail());
        row.put("count", e.count() >= 0 ? e.count() : null);
        row.put("pid", e.pid() > 0 ? e.pid() : null);
        row.put("command", e.command());
        row.put("millis", e.millis() >= 0 ? e.millis() : null);
        return row;
    }

    /** Seconds to the microsecond, written without an exponent. */
    private static String seconds(double s) {
        return new java.math.BigDecimal(s).setScale(6, java.math.RoundingMode.HALF_EVEN).stripTrailingZeros().toPlainString();
    }

    /** A measured figure, plain (no exponent, up to 6 decimals); null (an empty cell) when not measured. */
    private static String number(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) return null;
        return new java.math.BigDecimal(v).setScale(6, java.math.RoundingMode.HALF_EVEN).stripTrailingZeros().toPlainString();
    }
}
