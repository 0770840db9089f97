// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.bench;

import dev.runaway.sandbox.NativeBinaries;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The cost of {@code runaway metrics} with --procs sleepers running: the exporter in a JVM of
 * its own (the launcher's JVM options, a sandbox of its own), first left alone (what it costs
 * to keep the analysis live), then scraped every second (what a scrape costs): its CPU in
 * cores (from /proc/PID/stat), resident memory and peak, and each scrape's time and size.
 */
public final class MetricsBench {
    private static final Pattern SERVING = Pattern.compile("serving http://127\\.0\\.0\\.1:(\\d+)/metrics");
    private static final Pattern PROCESSES = Pattern.compile("(?m)^runaway_processes (\\S+)$");
    private static final Pattern SCAN = Pattern.compile("(?m)^runaway_exporter_scan_duration_seconds (\\S+)$");
    private static final String OPEN_METRICS = "application/openmetrics-text; version=1.0.0; charset=utf-8";
    private static final double TICKS_PER_SECOND = 100; // USER_HZ

    public record Result(int sleepers, int processesSeen, int top, double secondsAlone, double secondsScraped,
                         double cpuCoresAlone, double cpuCoresScraped, long rssBytes, long peakRssBytes, int scrapes,
                         double scrapeMedianMs, double scrapeWorstMs, long scrapeBytes, long openMetricsBytes, int series,
                         double scanMedianMs, double firstScanSeconds, boolean guard, int held) {
    }

    private final int sleepers;
    private final int top;
    private final Duration phase;
    private final PrintWriter progress;
    private final HttpClient http = HttpClient.newHttpClient();

    private final boolean guard;

    public MetricsBench(int sleepers, int top, Duration phase, PrintWriter progress) {
        this(sleepers, top, phase, progress, false);
    }

    /** With {@code guard}: {@code runaway guard --listen} (the guard on the exporter's own sampler) instead of {@code runaway metrics}. */
    public MetricsBench(int sleepers, int top, Duration phase, PrintWriter progress, boolean guard) {
        this.guard = guard;
        this.sleepers = sleepers;
        this.top = top;
        this.phase = phase;
        this.progress = progress;
    }

    public Result run() throws Exception {
        try (PidMax pidMax = PidMax.atLeast(sleepers + 16_384, progress);
             Sandbox sandbox = Sandboxes.create(SandboxSpec.of("bench-metrics", sleepers + 64).withLifetime(Duration.ofMinutes(20)));
             Sandbox jvmBox = Sandboxes.create(SandboxSpec.of("bench-metrics-jvm", 256).withLifetime(Duration.ofMinutes(20)))) {
            say("starting %,d sleepers in %s", sleepers, sandbox.containment());
            ScanBench.startSleepers(sandbox, sleepers);
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.addAll(ScanBench.CONSOLE_JVM_OPTIONS);
            command.addAll(List.of("-cp", System.getProperty("java.class.path"),
                    "-Drunaway.native.dir=" + NativeBinaries.find(NativeBinaries.SANDBOX).getParent(),
                    "-Drunaway.guard.dir=" + Files.createTempDirectory("bench-guard"), "-Drunaway.lineage.dir=" + Files.createTempDirectory("bench-lineage"),
                    "dev.runaway.cli.Main"));
            command.addAll(guard ? List.of("guard", "--listen", "127.0.0.1:0") : List.of("metrics", "--listen", "127.0.0.1:0", "--top", Integer.toString(top)));
            long started = System.nanoTime();
            Process jvm = jvmBox.start(new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD));
            int port = port(jvm);
            say("runaway metrics (pid %d) serves on 127.0.0.1:%d; waiting for a scan that sees the sleepers", jvm.pid(), port);
            int seen = 0;
            while (seen < sleepers) {
                Thread.sleep(250);
                seen = number(PROCESSES, scrape(port, null).body()).orElse(0.0).intValue();
            }
            double firstScan = (System.nanoTime() - started) / 1e9;
            Thread.sleep(10_000); // warm-up: the JIT, the first complete rescans
            say("%,d processes seen after %.1f s; measuring %d s alone, then %d s scraped every second", seen, firstScan,
                    phase.toSeconds(), phase.toSeconds());
            double alone = cpuCores(jvm.pid(), () -> Thread.sleep(phase.toMillis()));
            List<Double> times = new ArrayList<>();
            List<Double> scans = new ArrayList<>();
            long[] size = new long[2];
            double scraped = cpuCores(jvm.pid(), () -> {
                long end = System.nanoTime() + phase.toNanos();
                while (System.nanoTime() < end) {
                    long t0 = System.nanoTime();
                    HttpResponse<String> r = scrape(port, null);
                    times.add((System.nanoTime() - t0) / 1e6);
                    size[0] = r.body().getBytes(StandardCharsets.UTF_8).length;
                    size[1] = r.body().lines().filter(l -> !l.startsWith("#") && !l.isBlank()).count();
                    number(SCAN, r.body()).ifPresent(s -> scans.add(s * 1000));
                    Thread.sleep(Math.max(0, 1000 - (System.nanoTime() - t0) / 1_000_000));
                }
            });
            long openMetrics = scrape(port, OPEN_METRICS).body().getBytes(StandardCharsets.UTF_8).length;
            int held = (int) scrape(port, null).body().lines().filter(l -> l.startsWith("runaway_guard_held{")).count();
            long rss = status(jvm.pid(), "VmRSS:");
            long peak = status(jvm.pid(), "VmHWM:");
            jvm.destroy();
            jvm.waitFor();
            return new Result(sleepers, seen, top, phase.toSeconds(), phase.toSeconds(), alone, scraped, rss, peak, times.size(),
                    median(times), times.stream().mapToDouble(Double::doubleValue).max().orElse(0), size[0], openMetrics, (int) size[1],
                    median(scans), firstScan, guard, held);
        }
    }

    private interface Interval {
        void run() throws Exception;
    }

    /** CPU the process used over the interval, in cores. */
    private static double cpuCores(long pid, Interval interval) throws Exception {
        long t0 = System.nanoTime();
        long ticks0 = cpuTicks(pid);
        interval.run();
        long ticks1 = cpuTicks(pid);
        return (ticks1 - ticks0) / TICKS_PER_SECOND / ((System.nanoTime() - t0) / 1e9);
    }

    /** utime + stime from /proc/PID/stat: fields 14 and 15, counted after the command's closing parenthesis. */
    private static long cpuTicks(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    private static long status(long pid, String field) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith(field)) return Long.parseLong(line.substring(field.length()).trim().split("\\s+")[0]) * 1024;
        }
        return -1;
    }

    private int port(Process jvm) throws IOException {
        BufferedReader err = new BufferedReader(new InputStreamReader(jvm.getErrorStream(), StandardCharsets.UTF_8));
        StringBuilder said = new StringBuilder();
        for (String line = err.readLine(); line != null; line = err.readLine()) {
            said.append(line).append('\n');
            Matcher m = SERVING.matcher(line);
            if (m.find()) {
                Thread drain = new Thread(() -> {
                    try {
                        // The guard's lines (a hold, a notice) are the bench's finding too: shown as they come.
                        for (String l = err.readLine(); l != null; l = err.readLine()) if (l.startsWith("runaway guard:")) say("%s", l);
                    } catch (IOException e) {
                        // the exporter ended
                    }
                }, "bench-metrics-stderr");
                drain.setDaemon(true);
                drain.start();
                return Integer.parseInt(m.group(1));
            }
        }
        throw new IOException("runaway metrics did not start: " + said);
    }

    private HttpResponse<String> scrape(int port, String accept) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).timeout(Duration.ofSeconds(30));
        if (accept != null) b.header("Accept", accept);
        HttpResponse<String> r = http.send(b.GET().build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) throw new IOException("scrape answered " + r.statusCode());
        return r;
    }

    private static Optional<Double> number(Pattern p, String text) {
        Matcher m = p.matcher(text);
        return m.find() ? Optional.of(Double.parseDouble(m.group(1))) : Optional.empty();
    }

    private static double median(List<Double> values) {
        if (values.isEmpty()) return 0;
        List<Double> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }

    private void say(String format, Object... args) {
        progress.printf(format + "%n", args);
        progress.flush();
    }
}
