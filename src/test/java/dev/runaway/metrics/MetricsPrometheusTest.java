// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runaway.drill.Drill;
import dev.runaway.drill.Drills;
import dev.runaway.drill.Scenario;
import dev.runaway.sandbox.CgroupLayout;
import dev.runaway.sandbox.CgroupSandbox;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code runaway metrics} as a fleet operator runs it: the distribution's Prometheus on loopback
 * scrapes it every second with the shipped rules loaded (evaluated every 250 ms, so an alert
 * follows its scrape, not a second clock of its own) while the
 * recursive drill (deploy.sh and python3 re-entering each other) grows to its cap. Through
 * Prometheus's HTTP API: the drill's groups arrive, their tasks climb to the cap, deploy.sh is
 * recursive and at cap, and RunawayGroupAtCap fires. The textfile mode goes through the real
 * node exporter the same way. Every program runs in a sandbox of its own, torn down at the end.
 */
@Tag("process")
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class MetricsPrometheusTest {
    /** The drill's cap: small, so it is reached in a few seconds. */
    private static final int DRILL_TASKS_MAX = 60;
    private static final Duration DRILL_LIFETIME = Duration.ofMinutes(3);
    private static final String DEPLOY = ".+/deploy\\\\.sh";

    @Test
    void prometheusSeesTheDrillClimbToItsCapRecursiveAndFiresTheAtCapAlert(@TempDir Path dir) throws Exception {
        try (Daemons.Daemon exporter = Daemons.runawayMetrics(dir, "--listen", "127.0.0.1:0", "--top", "10")) {
            int metricsPort = Daemons.servingPort(exporter);
            int port = Loopback.freePort();
            try (Daemons.Daemon prometheus = Daemons.prometheus(dir, port, config(metricsPort))) {
                awaitQuery(port, "up{job=\"runaway\"} == 1", 120, prometheus);
                                try (Drill drill = Drills.start(Scenario.RECURSIVE, DRILL_TASKS_MAX, DRILL_LIFETIME, false);
                     CapClock cap = CapClock.watch(drill)) {
                    String group = "{cgroup=\"" + cgroupOf(drill) + "\",command=~\"" + DEPLOY + "\"}";
                    awaitQuery(port, "runaway_group_tasks" + group, 120, prometheus);
                    awaitQuery(port, "runaway_group_recursive" + group + " == 1", 60, prometheus);
                    awaitQuery(port, "runaway_group_at_cap" + group + " == 1", 60, prometheus);
                    JsonNode alert = awaitFiring(port, "RunawayGroupAtCap", cgroupOf(drill), 60, prometheus);
                    Instant firingSeen = Instant.now();
                    Instant capReached = cap.reached().orElseThrow(() -> new AssertionError("the drill never reached its cap"));
                    Instant activeAt = Instant.parse(alert.get("activeAt").asText());
                    assertThat(alert.get("labels").get("command").asText()).endsWith("/deploy.sh");
                    assertThat(alert.get("labels").get("severity").asText()).isEqualTo("critical");

                    // The drill's tasks climbed to the cap, as scraped: every scrape before the cap was reached below
                    // it, the last at it. (A machine too loaded to scrape during the climb, a few seconds, shows only the end.)
                    List<Sample> climb = samples(port, "runaway_group_tasks{cgroup=\"" + cgroupOf(drill) + "\",command=~\"" + DEPLOY + "\"}");
                    List<Sample> total = samples(port, "runaway_tasks");
                    assertThat(climb).as("deploy.sh's tasks per scrape").isNotEmpty();
                    Instant capSeen = cap.reached().orElseThrow();
                    List<Sample> before = climb.stream().filter(x -> x.time().isBefore(capSeen)).toList();
                    assertThat(before).as("scraped before the cap: %s", climb).allSatisfy(x -> assertThat(x.value()).isLessThan(DRILL_TASKS_MAX));
                    if (before.isEmpty()) System.out.println("metrics test: no scrape during the climb (load " + loadAverage() + ")");
                    else assertThat(climb.stream().map(Sample::value).distinct().count()).as("climbing: %s", climb).isGreaterThan(1);
                    assertThat(total).as("the machine's tasks arrive too").isNotEmpty();

                    Instant firstScrapedAtCap = firstSampleAtOne(port, "runaway_group_at_cap" + group);
                    System.out.printf("metrics test: cap reached %s; first scrape with at_cap 1 %+d ms; alert active %+d ms;"
                                    + " firing seen through the API %+d ms; tasks per scrape %s%n", capReached,
                            Duration.between(capReached, firstScrapedAtCap).toMillis(), Duration.between(capReached, activeAt).toMillis(),
                            Duration.between(capReached, firingSeen).toMillis(), climb.stream().map(Sample::value).toList());
                }
            }
        }
    }

    @Test
    void nodeExportersTextfileCollectorServesTheSameMetrics(@TempDir Path dir) throws Exception {
        Path textfiles = Files.createDirectory(dir.resolve("textfile"));
        try (Daemons.Daemon exporter = Daemons.runawayMetrics(dir, "--textfile", textfiles.toString(), "--interval", "1s", "--top", "10")) {
            Daemons.await(() -> Files.exists(textfiles.resolve(Textfile.NAME)) || !exporter.process().isAlive(), 180, "runaway.prom");
            assertThat(exporter.output()).as("no HTTP when only --textfile is given").doesNotContain("serving http");
            int port = Loopback.freePort();
            try (Daemons.Daemon node = Daemons.nodeExporter(dir, port, textfiles);
                 Drill drill = Drills.start(Scenario.RECURSIVE, DRILL_TASKS_MAX, DRILL_LIFETIME, false)) {
                String labels = "{cgroup=\"" + cgroupOf(drill) + "\",command=\"";
                AtomicReference<String> last = new AtomicReference<>("");
                Daemons.awaitOrSay(() -> {
                    String text = Loopback.get(port, "/metrics").orElse("");
                    last.set(text);
                    return text.lines().anyMatch(l -> l.startsWith("runaway_group_at_cap" + labels) && l.contains("/deploy.sh\"") && l.endsWith(" 1"))
                            && text.lines().anyMatch(l -> l.startsWith("runaway_group_recursive" + labels) && l.contains("/deploy.sh\"")
                            && l.endsWith(" 1"));
                }, 120, "node exporter to serve the drill at cap and recursive", () -> "drill tasks " + drill.sandbox().taskCount()
                        + "; node exporter served: " + last.get().lines().filter(l -> l.startsWith("node_textfile") || l.startsWith("runaway_exporter")
                        || l.startsWith("runaway_processes") || l.contains(cgroupOf(drill)) && (l.startsWith("runaway_group_tasks")
                        || l.startsWith("runaway_group_recursi") || l.startsWith("runaway_group_at_cap")))
                        .toList() + "; runaway metrics said: " + exporter.output());
                String text = last.get();
                assertThat(text).contains("node_textfile_scrape_error 0");
                assertThat(text).contains("runaway_tasks ").contains("runaway_oom_kills_total{source=\"kernel\"}")
                        .contains("runaway_exporter_scans_total");
                assertThat(text).doesNotContain("process_cpu_seconds_total{"); // the exporter's own figures are runaway_exporter_*
                assertThat(Files.getPosixFilePermissions(textfiles.resolve(Textfile.NAME)))
                        .containsExactlyInAnyOrderElementsOf(java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
                try (var files = Files.list(textfiles)) {
                    assertThat(files.map(p -> p.getFileName().toString()).filter(n -> !n.startsWith("."))).containsExactly(Textfile.NAME);
                }
            }
            exporter.process().destroy(); // SIGTERM: it removes its file, so node exporter serves nothing stale
            assertThat(exporter.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(textfiles.resolve(Textfile.NAME)).doesNotExist();
        }
    }

    private static String config(int metricsPort) {
        Path rules = MetricsExamplesTest.RULES.toAbsolutePath();
        return """
                global:
                  scrape_interval: 1s
                  scrape_timeout: 1s
                  evaluation_interval: 250ms
                rule_files:
                  - %s
                scrape_configs:
                  - job_name: runaway
                    static_configs:
                      - targets: ['127.0.0.1:%d']
                """.formatted(rules, metricsPort);
    }

    /** The drill's cgroup as the exporter labels it: its v2 path. */
    private static String cgroupOf(Drill drill) {
        Path unified = CgroupLayout.detect().unified().orElseThrow();
        return "/" + unified.relativize(((CgroupSandbox) drill.sandbox()).dirs().unified());
    }

    private static JsonNode awaitQuery(int port, String query, int seconds, Daemons.Daemon prometheus) throws InterruptedException {
        AtomicReference<JsonNode> result = new AtomicReference<>();
        try {
            Daemons.await(() -> {
                Optional<JsonNode> r = Loopback.json(port, "/api/v1/query?query=" + Loopback.encode(query));
                r.ifPresent(result::set);
                return r.isPresent() && r.get().get("data").get("result").size() > 0;
            }, seconds, query);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; last answer " + result.get() + "; Prometheus said: " + prometheus.output(), e);
        }
        return result.get().get("data").get("result");
    }

    /** The alert for the drill's deploy.sh group (its python3 group is at the same cap and fires too). */
    private static JsonNode awaitFiring(int port, String alertName, String cgroup, int seconds, Daemons.Daemon prometheus)
            throws InterruptedException {
        AtomicReference<JsonNode> found = new AtomicReference<>();
        AtomicReference<JsonNode> last = new AtomicReference<>();
        try {
            Daemons.await(() -> {
                Optional<JsonNode> r = Loopback.json(port, "/api/v1/alerts");
                r.ifPresent(last::set);
                if (r.isEmpty()) return false;
                for (JsonNode a : r.get().get("data").get("alerts")) {
                    JsonNode l = a.get("labels");
                    if (l.get("alertname").asText().equals(alertName) && l.get("cgroup").asText().equals(cgroup)
                            && l.get("command").asText().endsWith("/deploy.sh") && a.get("state").asText().equals("firing")) {
                        found.set(a);
                        return true;
                    }
                }
                return false;
            }, seconds, alertName + " firing");
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; alerts " + last.get() + "; Prometheus said: " + prometheus.output(), e);
        }
        return found.get();
    }

    /** The time of the first raw sample of the last minute whose value is 1 (Prometheus keeps each scrape's time). */
    private static Instant firstSampleAtOne(int port, String selector) {
        JsonNode r = Loopback.json(port, "/api/v1/query?query=" + Loopback.encode(selector + "[1m]")).orElseThrow();
        Instant first = null;
        for (JsonNode series : r.get("data").get("result")) {
            for (JsonNode v : series.get("values")) {
                if (v.get(1).asText().equals("1")) {
                    Instant t = Instant.ofEpochMilli(Math.round(v.get(0).asDouble() * 1000));
                    if (first == null || t.isBefore(first)) first = t;
                }
            }
        }
        if (first == null) throw new AssertionError("no sample of " + selector + " at 1: " + r);
        return first;
    }

    private record Sample(Instant time, double value) {
    }

    /** Every scraped sample of the selector over the last two minutes, oldest first (one series). */
    private static List<Sample> samples(int port, String selector) {
        JsonNode r = Loopback.json(port, "/api/v1/query?query=" + Loopback.encode(selector + "[2m]")).orElseThrow();
        List<Sample> values = new ArrayList<>();
        for (JsonNode series : r.get("data").get("result")) {
            for (JsonNode v : series.get("values")) {
                values.add(new Sample(Instant.ofEpochMilli(Math.round(v.get(0).asDouble() * 1000)), Double.parseDouble(v.get(1).asText())));
            }
        }
        return values;
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (java.io.IOException e) {
            return "unknown";
        }
    }

    /** When the drill's sandbox first held its cap of tasks, watched every 20 ms. */
    private static final class CapClock implements AutoCloseable {
        private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        private final AtomicReference<Instant> reached = new AtomicReference<>();

        static CapClock watch(Drill drill) {
            CapClock clock = new CapClock();
            clock.timer.scheduleAtFixedRate(() -> {
                if (clock.reached.get() == null && drill.sandbox().taskCount() >= DRILL_TASKS_MAX) clock.reached.set(Instant.now());
            }, 0, 20, TimeUnit.MILLISECONDS);
            return clock;
        }

        Optional<Instant> reached() {
            return Optional.ofNullable(reached.get());
        }

        @Override
        public void close() {
            timer.shutdownNow();
        }
    }
}
