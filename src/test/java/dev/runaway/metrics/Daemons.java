package dev.runaway.metrics;

import dev.runaway.cli.Main;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The long-running programs the metrics tests start, each in a sandbox of its own (closing
 * it tears down everything it started, by its cgroup): {@code runaway metrics} in a JVM of its
 * own, the distribution's Prometheus and node exporter.
 */
final class Daemons {
    /** A JVM's threads and a Go runtime's are tasks too; none of these forks more than a few. */
    static final int DAEMON_TASKS_MAX = 256;
    static final Path PROMETHEUS = Path.of("/usr/bin/prometheus");
    static final Path NODE_EXPORTER = Path.of("/usr/bin/prometheus-node-exporter");
    private static final Pattern SERVING = Pattern.compile("serving http://127\\.0\\.0\\.1:(\\d+)/metrics");

    private Daemons() {
    }

    /** A started program, its sandbox and where its output goes. */
    record Daemon(String name, Sandbox box, Process process, Path log) implements AutoCloseable {
        String output() {
            try {
                return Files.readString(log);
            } catch (IOException e) {
                return "(no output: " + e.getMessage() + ")";
            }
        }

        @Override
        public void close() {
            box.teardown();
        }
    }

    static Daemon start(String name, List<String> command, Path dir) throws IOException {
        Path log = dir.resolve(name + ".log");
        Sandbox box = Sandboxes.create(SandboxSpec.of("test-" + name, DAEMON_TASKS_MAX).withLifetime(Duration.ofMinutes(5)));
        try {
            Process p = box.start(new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()));
            return new Daemon(name, box, p, log);
        } catch (IOException | RuntimeException e) {
            box.teardown();
            throw e;
        }
    }

    /** {@code runaway metrics ARGS} in a JVM of its own, started from the test's classpath. */
    static Daemon runawayMetrics(Path dir, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:+UseSerialGC", "-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                "-Drunaway.native.dir=" + System.getProperty("runaway.native.dir"), Main.class.getName(), "metrics"));
        command.addAll(List.of(args));
        return start("runaway-metrics", command, dir);
    }

    /** The port the exporter says it serves on, once it says so. */
    static int servingPort(Daemon exporter) throws InterruptedException {
        await(() -> SERVING.matcher(exporter.output()).find() || !exporter.process().isAlive(), 180, "the exporter to listen");
        Matcher m = SERVING.matcher(exporter.output());
        if (!m.find()) throw new AssertionError("runaway metrics did not start: " + exporter.output());
        return Integer.parseInt(m.group(1));
    }

    /** Prometheus on 127.0.0.1:port with this configuration, its data in dir. */
    static Daemon prometheus(Path dir, int port, String config) throws IOException, InterruptedException {
        requireInstalled(PROMETHEUS);
        Path file = dir.resolve("prometheus.yml");
        Files.writeString(file, config);
        Daemon p = start("prometheus", List.of(PROMETHEUS.toString(), "--config.file=" + file, "--storage.tsdb.path=" + dir.resolve("data"),
                "--web.listen-address=127.0.0.1:" + port, "--log.level=warn"), dir);
        await(() -> Loopback.get(port, "/-/ready").isPresent() || !p.process().isAlive(), 180, "Prometheus to be ready");
        if (!p.process().isAlive()) throw new AssertionError("Prometheus exited: " + p.output());
        return p;
    }

    /** node exporter with only its textfile collector, reading dir. */
    static Daemon nodeExporter(Path dir, int port, Path textfiles) throws IOException, InterruptedException {
        requireInstalled(NODE_EXPORTER);
        Daemon n = start("node-exporter", List.of(NODE_EXPORTER.toString(), "--web.listen-address=127.0.0.1:" + port,
                "--collector.disable-defaults", "--collector.textfile", "--collector.textfile.directory=" + textfiles), dir);
        await(() -> Loopback.get(port, "/metrics").isPresent() || !n.process().isAlive(), 180, "node exporter to answer");
        if (!n.process().isAlive()) throw new AssertionError("node exporter exited: " + n.output());
        return n;
    }

    static void requireInstalled(Path program) {
        if (!Files.isExecutable(program)) {
            throw new AssertionError(program + " is missing: src/main/sh/install-deps --test installs Debian's prometheus and"
                    + " prometheus-node-exporter (src/test/sh/run-suite runs it)");
        }
    }

    /** As {@link #await}, the failure saying what {@code state} tells then. */
    static void awaitOrSay(BooleanSupplier condition, int seconds, String what, java.util.function.Supplier<String> state)
            throws InterruptedException {
        try {
            await(condition, seconds, what);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; " + state.get(), e);
        }
    }

    static void await(BooleanSupplier condition, int seconds, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) throw new AssertionError("timed out after " + seconds + " s waiting for " + what);
            Thread.sleep(50);
        }
    }
}
