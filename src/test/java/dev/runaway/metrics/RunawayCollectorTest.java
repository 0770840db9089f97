// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.metrics;

import dev.runaway.analysis.Group;
import dev.runaway.analysis.GroupCap;
import dev.runaway.analysis.GrowthFit;
import dev.runaway.analysis.GrowthShape;
import dev.runaway.analysis.Snapshot;
import dev.runaway.model.Pressure;
import dev.runaway.model.PulseSample;
import dev.runaway.timeline.oom.OomEvent;
import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

import static org.assertj.core.api.Assertions.assertThat;

/** The collector on made-up snapshots, read back in both text formats. */
class RunawayCollectorTest {
    private static final PulseSample PULSE = new PulseSample(Instant.parse("2026-11-30T12:00:00Z"), System.nanoTime(), 30_100, 1_000_000,
            24L << 30, 20L << 30, 8L << 30, 7L << 30, Optional.of(new Pressure(12.5, 3.25, 0, 0)), 32_768, 190_000);

    private final OomCounts oom = new OomCounts();

    @Test
    void theTopGroupsGetSeriesAndTheRestOneOtherBucket() throws IOException {
        List<Group> groups = new ArrayList<>();
        groups.add(group("/tmp/deploy.sh", 60, "/runaway-sandbox.1/drill", 0, 60, true, GrowthShape.LINEAR, 12.5,
                OptionalDouble.of(4.0), "pids.max"));
        for (int i = 0; i < 5; i++) groups.add(group("/usr/bin/sleep" + i, 10, "/", -1, -1, false, GrowthShape.STEADY, 0,
                OptionalDouble.empty(), ""));
        String text = prometheusText(snapshot(groups), 3);

        assertThat(text).contains("runaway_group_tasks{cgroup=\"/runaway-sandbox.1/drill\",command=\"/tmp/deploy.sh\"} 60.0");
        assertThat(text).contains("runaway_group_recursive{cgroup=\"/runaway-sandbox.1/drill\",command=\"/tmp/deploy.sh\"} 1.0");
        assertThat(text).contains("runaway_group_at_cap{cgroup=\"/runaway-sandbox.1/drill\",command=\"/tmp/deploy.sh\"} 1.0");
        assertThat(text).contains("runaway_group_cap_tasks{cgroup=\"/runaway-sandbox.1/drill\",command=\"/tmp/deploy.sh\",limit=\"pids.max\"} 60.0");
        assertThat(text).contains("runaway_group_seconds_to_exhaustion{cgroup=\"/runaway-sandbox.1/drill\",command=\"/tmp/deploy.sh\",limit=\"pids.max\"} 4.0");
        assertThat(text).contains("runaway_group_growth_shape{cgroup=\"/runaway-sandbox.1/drill\",command=\"/tmp/deploy.sh\",runaway_group_growth_shape=\"linear\"} 1");
        assertThat(text).contains("runaway_group_growth_shape{cgroup=\"/runaway-sandbox.1/drill\",command=\"/tmp/deploy.sh\",runaway_group_growth_shape=\"steady\"} 0");
        assertThat(text).contains("runaway_group_severity_rank{cgroup=\"/runaway-sandbox.1/drill\",command=\"/tmp/deploy.sh\"} 1.0");
        // two of the five sleepers shown, three summed
        assertThat(text).contains("runaway_group_tasks{cgroup=\"other\",command=\"other\"} 30.0");
        assertThat(text).contains("runaway_groups_in_other 3.0");
        assertThat(lines(text, "runaway_group_tasks{")).hasSize(4);
        assertThat(lines(text, "runaway_group_recursive{")).hasSize(3).noneMatch(l -> l.contains("\"other\""));
        assertThat(text).doesNotContain("sleep4").doesNotContain("pid=");
        assertThat(text).contains("runaway_group_at_cap{cgroup=\"/\",command=\"/usr/bin/sleep0\"} 0.0");
        assertThat(lines(text, "runaway_group_cap_tasks{")).hasSize(1);
        assertThat(text).contains("runaway_group_cap{cgroup=\"/runaway-sandbox.1/drill\",command=\"/tmp/deploy.sh\",limit=\"pids.max\"} 60.0");
        // two scans of 3 refusals each, summed; none for groups whose limit keeps no count
        assertThat(text).contains("runaway_group_forks_refused_total{cgroup=\"/runaway-sandbox.1/drill\",command=\"/tmp/deploy.sh\"} 6.0");
        assertThat(lines(text, "runaway_group_forks_refused_total{")).hasSize(1);
        assertThat(lines(text, "runaway_group_cap{")).hasSize(1);
    }

    @Test
    void refusalsAreSummedOverScansAndForgottenWithTheGroup() {
        Snapshot capped = snapshot(List.of(group("/tmp/tool", 60, "/cg", 0, 60, false, GrowthShape.STEADY, 0, OptionalDouble.empty(), "")));
        Snapshot gone = snapshot(List.of());
        Group g = capped.groups().get(0);
        assertThat(refusals(capped, capped, capped).total(g)).hasValue(9);
        assertThat(refusals(capped, gone, capped).total(g)).as("counted again from 0").hasValue(3);
        Snapshot uncapped = snapshot(List.of(group("/tmp/tool", 60, "/", -1, -1, false, GrowthShape.STEADY, 0, OptionalDouble.empty(), "")));
        assertThat(refusals(uncapped).total(uncapped.groups().get(0))).isEmpty();
    }

    @Test
    void machineFiguresAndHeadroom() throws IOException {
        String text = prometheusText(snapshot(List.of()), 20);
        assertThat(text).contains("runaway_tasks 30100.0").contains("runaway_pid_max 32768.0").contains("runaway_pid_headroom 2668.0")
                .contains("runaway_memory_pressure_avg10_percent{kind=\"some\"} 12.5")
                .contains("runaway_memory_available_bytes 2.147483648E10").contains("runaway_swap_used_bytes 1.073741824E9")
                .contains("runaway_groups 0.0").contains("runaway_groups_in_other 0.0");
        assertThat(text).doesNotContain("runaway_group_tasks").doesNotContain("runaway_group_tasks{cgroup=\"other\"");
    }

    @Test
    void oomKillsCountedBySourceAndWhichSourcesAreWatched() throws IOException {
        oom.accept(kill(OomEvent.Source.KERNEL, 1));
        oom.accept(kill(OomEvent.Source.KERNEL, 1));
        oom.accept(kill(OomEvent.Source.OOMD, 18_705));
        oom.accept(kill(OomEvent.Source.OOMD, OomEvent.UNKNOWN));
        String text = prometheusText(snapshot(List.of()), 20);
        assertThat(text).contains("runaway_oom_kills_total{source=\"kernel\"} 2.0").contains("runaway_oom_kills_total{source=\"systemd-oomd\"} 2.0")
                .contains("runaway_oom_processes_killed_total{source=\"kernel\"} 2.0")
                .contains("runaway_oom_processes_killed_total{source=\"systemd-oomd\"} 18705.0")
                .contains("runaway_oom_kills_unknown_size_total{source=\"systemd-oomd\"} 1.0")
                .contains("runaway_oom_source_watched{source=\"kernel\"} 1.0").contains("runaway_oom_source_watched{source=\"systemd-oomd\"} 0.0");
    }

    @Test
    void beforeTheFirstScanOnlyTheExporterAndOomFamilies() throws IOException {
        String text = write(new RunawayCollector(() -> null, oom, EnumSet.noneOf(OomEvent.Source.class), health(), new RefusalCounts(), 20),
                false);
        assertThat(text).contains("runaway_exporter_scans_total 0.0").contains("runaway_oom_kills_total{source=\"kernel\"} 0.0")
                .doesNotContain("runaway_tasks ").doesNotContain("runaway_exporter_last_scan_age_seconds");
    }

    @Test
    void hostileCommandKeysAreEscapedAndCut() throws IOException {
        String evil = "/tmp/x\"} 1\nrunaway_group_at_cap{command=\"forged\"} 1\\\t\u0007\ud800";
        String longA = "/tmp/" + "a".repeat(400) + "/one";
        String longB = "/tmp/" + "a".repeat(400) + "/two";
        String text = prometheusText(snapshot(List.of(
                group(evil, 5, "/", -1, -1, false, GrowthShape.STEADY, 0, OptionalDouble.empty(), ""),
                group(longA, 5, "/", -1, -1, false, GrowthShape.STEADY, 0, OptionalDouble.empty(), ""),
                group(longB, 5, "/", -1, -1, false, GrowthShape.STEADY, 0, OptionalDouble.empty(), ""))), 20);
        List<String> tasks = lines(text, "runaway_group_tasks{");
        assertThat(tasks).hasSize(3);
        // the quote is escaped, control characters (the newline too) replaced: no forged series line
        assertThat(text.lines().filter(l -> l.startsWith("runaway_group_at_cap{command=\"forged\"")).count()).isZero();
        assertThat(tasks).anySatisfy(l -> assertThat(l).contains("/tmp/x\\\"} 1\uFFFDrunaway_group_at_cap").contains("\\\\\uFFFD\uFFFD\uFFFD"));
        assertThat(tasks).allSatisfy(l -> assertThat(l.length()).isLessThan(LabelValues.MAX_CHARS + 80));
        assertThat(tasks.stream().filter(l -> l.contains("aaaa~")).distinct().count()).isEqualTo(2);
        // and the OpenMetrics writer takes the same values
        String open = write(collector(snapshot(List.of(group(evil, 5, "/", -1, -1, false, GrowthShape.STEADY, 0,
                OptionalDouble.empty(), ""))), 20), true);
        assertThat(open).endsWith("# EOF\n");
    }

    @Test
    void labelValuesKeepShortCleanTextAsItIs() {
        assertThat(LabelValues.safe("python3 -m unittest")).isEqualTo("python3 -m unittest");
        assertThat(LabelValues.safe("/usr/bin/\u00e9t\u00e9 \ud83d\ude80")).isEqualTo("/usr/bin/\u00e9t\u00e9 \ud83d\ude80");
        assertThat(LabelValues.safe("a\u0000b")).isEqualTo("a\uFFFDb");
        String cut = LabelValues.safe("x".repeat(1000));
        assertThat(cut).hasSize(LabelValues.MAX_CHARS).matches("x+~[0-9a-f]{12}");
    }

    private String prometheusText(Snapshot s, int top) throws IOException {
        return write(collector(s, top), false);
    }

    private RunawayCollector collector(Snapshot s, int top) {
        return new RunawayCollector(() -> s, oom, EnumSet.of(OomEvent.Source.KERNEL), health(), refusals(s, s), top);
    }

    /** Refusal counts after these scans. */
    static RefusalCounts refusals(Snapshot... scans) {
        RefusalCounts counts = new RefusalCounts();
        for (Snapshot s : scans) counts.scanned(s);
        return counts;
    }

    static ExporterHealth health() {
        return new ExporterHealth(Path.of("/proc/self"), 4096);
    }

    static String write(io.prometheus.metrics.model.registry.MultiCollector c, boolean openMetrics) throws IOException {
        PrometheusRegistry registry = new PrometheusRegistry();
        registry.register(c);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (openMetrics) OpenMetricsTextFormatWriter.create().write(out, registry.scrape());
        else PrometheusTextFormatWriter.create().write(out, registry.scrape());
        return out.toString(StandardCharsets.UTF_8);
    }

    private static List<String> lines(String text, String prefix) {
        return text.lines().filter(l -> l.startsWith(prefix)).toList();
    }

    static Snapshot snapshot(List<Group> groups) {
        return new Snapshot(PULSE.time(), PULSE, 42, new GrowthFit(GrowthShape.STEADY, 0, 0), groups, 30_000, 5_000_000, 1_000_000,
                System.nanoTime(), 0);
    }

    static Group group(String command, int tasks, String cgroup, long room, long max, boolean recursive, GrowthShape shape,
                               double perSecond, OptionalDouble exhaustion, String by) {
        Group g = new Group(command, tasks, List.of(), false, recursive, recursive ? List.of(command, "python3 -m unittest", command) : List.of(),
                recursive ? 4 : 1, tasks * 4096L, new GrowthFit(shape, perSecond, 0), 0, exhaustion, by, List.of(1, 2, 3), cgroup, room, max);
        // a capped group with no room has had 3 forks refused since the last scan; an uncapped one has no count
        if (room == 0) return g.withCap(true, Optional.of(new GroupCap(GroupCap.PIDS_MAX, max)), 3);
        return max < 0 ? g.withCap(false, Optional.empty(), -1) : g;
    }

    private static OomEvent kill(OomEvent.Source source, long processes) {
        return new OomEvent(Instant.now(), source, source == OomEvent.Source.KERNEL ? 123 : -1, "x", processes, "/a", "", "", -1,
                -1, -1, -1, -1, "");
    }
}
