// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.runaway.analysis.GrowthShape;
import dev.runaway.timeline.oom.OomEvent;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shipped Grafana dashboard has what Grafana needs to import it (the dashboard model's
 * required fields, panels that fit the 24-column grid without overlapping, a query and a refId
 * per target), and every runaway_* name the dashboard and the alerting rules use is one the
 * exporter writes. (promtool checks the rules themselves: MetricsPackagingTest.)
 */
class MetricsExamplesTest {
    static final Path DASHBOARD = Path.of("packaging/grafana/runaway-dashboard.json");
    static final Path RULES = Path.of("packaging/prometheus/runaway-rules.yml");
    private static final Pattern NAME = Pattern.compile("\\brunaway_[a-z0-9_]+\\b");
    private static final Set<String> PANEL_TYPES = Set.of("row", "timeseries", "table", "stat", "bargauge", "state-timeline");

    private final JsonNode dashboard = read();

    @Test
    void dashboardHasTheFieldsGrafanaRequires() {
        for (String field : List.of("uid", "title", "schemaVersion", "panels", "time", "templating", "annotations")) {
            assertThat(dashboard.has(field)).as("dashboard field " + field).isTrue();
        }
        assertThat(dashboard.get("uid").asText()).matches("[A-Za-z0-9_-]{1,40}");
        assertThat(dashboard.get("schemaVersion").isInt()).isTrue();
        assertThat(dashboard.get("time").get("from").asText()).startsWith("now-");
        assertThat(dashboard.get("templating").get("list").isArray()).isTrue();
        assertThat(dashboard.get("annotations").get("list").isArray()).isTrue();
        Set<String> variables = new HashSet<>();
        dashboard.get("templating").get("list").forEach(v -> {
            assertThat(v.has("name") && v.has("type")).as("variable " + v).isTrue();
            variables.add(v.get("name").asText());
        });
        assertThat(variables).contains("datasource", "instance");
    }

    @Test
    void panelsHaveIdsTypesTargetsAndFitTheGridWithoutOverlap() {
        Set<Integer> ids = new HashSet<>();
        List<int[]> boxes = new ArrayList<>();
        int queries = 0;
        for (JsonNode p : dashboard.get("panels")) {
            assertThat(ids.add(p.get("id").asInt())).as("unique panel id " + p.get("id")).isTrue();
            assertThat(p.get("type").asText()).isIn(PANEL_TYPES);
            assertThat(p.get("title").asText()).isNotBlank();
            JsonNode g = p.get("gridPos");
            int x = g.get("x").asInt(), y = g.get("y").asInt(), w = g.get("w").asInt(), h = g.get("h").asInt();
            assertThat(w).isBetween(1, 24);
            assertThat(h).isPositive();
            assertThat(x + w).as(p.get("title") + " fits 24 columns").isLessThanOrEqualTo(24);
            for (int[] b : boxes) {
                boolean overlap = x < b[0] + b[2] && b[0] < x + w && y < b[1] + b[3] && b[1] < y + h;
                assertThat(overlap).as(p.get("title") + " overlaps another panel").isFalse();
            }
            boxes.add(new int[] {x, y, w, h});
            if (p.get("type").asText().equals("row")) continue;
            assertThat(p.get("datasource").get("uid").asText()).isEqualTo("${datasource}");
            Set<String> refIds = new HashSet<>();
            assertThat(p.get("targets").size()).as(p.get("title") + " targets").isPositive();
            for (JsonNode t : p.get("targets")) {
                assertThat(refIds.add(t.get("refId").asText())).isTrue();
                assertThat(t.get("expr").asText()).contains("instance=~\"$instance\"");
                queries++;
            }
        }
        assertThat(queries).isGreaterThanOrEqualTo(15);
    }

    @Test
    void theDashboardDrawsTheConsolesCharts() {
        String text = dashboard.toString();
        for (String name : List.of("runaway_tasks", "runaway_pid_max", "runaway_memory_available_bytes", "runaway_swap_used_bytes",
                "runaway_memory_pressure_avg10_percent", "runaway_oom_kills_total", "runaway_group_tasks", "runaway_group_at_cap",
                "runaway_group_recursive", "runaway_group_seconds_to_exhaustion")) {
            assertThat(text).as("the dashboard uses " + name).contains(name);
        }
        assertThat(dashboard.get("annotations").toString()).contains("runaway_oom_kills_total"); // kills marked on the charts
    }

    @Test
    void everyNameTheDashboardAndRulesUseIsOneTheExporterWrites() throws IOException {
        Set<String> written = writtenNames();
        Set<String> used = new TreeSet<>();
        used.addAll(names(Files.readString(DASHBOARD)));
        used.addAll(names(Files.readString(RULES)));
        assertThat(used).hasSizeGreaterThan(15);
        assertThat(written).containsAll(used);
    }

    /** Every family the collector writes for a snapshot that has everything: a capped recursive group, PSI, OOM kills. */
    static Set<String> writtenNames() throws IOException {
        var groups = List.of(RunawayCollectorTest.group("/tmp/deploy.sh", 60, "/sandbox", 0, 60, true, GrowthShape.LINEAR, 12,
                        OptionalDouble.of(5), "pids.max"),
                RunawayCollectorTest.group("/usr/bin/sleep", 3, "/", -1, -1, false, GrowthShape.STEADY, 0, OptionalDouble.empty(), ""));
        OomCounts oom = new OomCounts();
        var snapshot = RunawayCollectorTest.snapshot(groups);
        String text = RunawayCollectorTest.write(new RunawayCollector(() -> snapshot, oom, Set.of(OomEvent.Source.KERNEL),
                RunawayCollectorTest.health(), RunawayCollectorTest.refusals(snapshot), 1), false);
        // The guard's holds (runaway guard), one held group, and one stopped by kill-after.
        text += RunawayCollectorTest.write(new HeldCollector(() -> List.of(new dev.runaway.guard.HeldGroup("/tmp/deploy.sh", "/sandbox",
                dev.runaway.guard.GuardRule.GROWING_RECURSION, "recurs 8 times", java.time.Instant.EPOCH, "FREEZE_CGROUP", 16, 1000, false)),
                () -> java.util.Map.of(dev.runaway.guard.HoldEnd.KILL_AFTER, 1L)), false);
        Set<String> names = new TreeSet<>();
        for (String line : text.lines().toList()) {
            if (line.startsWith("# TYPE ")) names.add(line.split(" ")[2]);
        }
        return names;
    }

    private static Set<String> names(String text) {
        Set<String> names = new TreeSet<>();
        Matcher m = NAME.matcher(text);
        while (m.find()) names.add(m.group());
        return names;
    }

    private static JsonNode read() {
        try {
            return new ObjectMapper().readTree(DASHBOARD.toFile());
        } catch (IOException e) {
            throw new AssertionError("cannot read " + DASHBOARD, e);
        }
    }
}
