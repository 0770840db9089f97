// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.metrics;

import dev.runaway.analysis.LiveAnalysis;
import dev.runaway.sys.LibC;
import dev.runaway.timeline.oom.OomEvent;
import dev.runaway.timeline.oom.OomWatcher;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * {@code runaway metrics} without its command line: the live analysis, the OOM watcher and the
 * collector, served over HTTP, written to a textfile every interval, or both.
 */
public final class MetricsExporter implements AutoCloseable {
    /** Where the exporter listens when not told: loopback only, its own port. */
    public static final int DEFAULT_PORT = 9936;
    /** A scan a second while calm (the console's pace in an incident: more than 50 forks/s). */
    public static final Duration CALM_SCAN_PERIOD = Duration.ofSeconds(1);

    /**
     * @param listen   address and port to serve /metrics on (port 0: any free one); empty for no HTTP
     * @param textfile a node exporter textfile-collector directory; empty for none
     * @param interval between textfile writes
     * @param top      groups with series of their own, the rest summed into {@code other}
     */
    public record Options(Optional<InetSocketAddress> listen, Optional<Path> textfile, Duration interval, int top,
                          Optional<GuardOptions> guard) {
        public Options(Optional<InetSocketAddress> listen, Optional<Path> textfile, Duration interval, int top) {
            this(listen, textfile, interval, top, Optional.empty());
        }

        public Options {
            if (listen.isEmpty() && textfile.isEmpty() && guard.isEmpty()) {
                throw new IllegalArgumentException("nothing to do: no address and no textfile directory");
            }
            if (interval.toMillis() < 100) throw new IllegalArgumentException("the interval must be at least 100 ms: " + interval);
            if (top < 0) throw new IllegalArgumentException("--top must be 0 or more: " + top);
        }
    }

    /** The guard on the same sampler ({@code runaway guard}): its policy, and whether it only says what it would hold. */
    public record GuardOptions(dev.runaway.guard.GuardPolicy policy, boolean dryRun) {
    }

    private final LiveAnalysis live;
    private final OomWatcher oom;
    private dev.runaway.guard.Guard guard;
    private dev.runaway.guard.GuardControl control;
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final HTTPServer http;
    private final Textfile textfile;
    private final ScheduledExecutorService writer;
    private volatile String lastWriteProblem = "";

    private MetricsExporter(Options options, PrintWriter log) throws IOException {
        ExporterHealth health = new ExporterHealth(Path.of("/proc/self"), LibC.INSTANCE.getpagesize());
        OomCounts counts = new OomCounts();
        RefusalCounts refusals = new RefusalCounts();
        live = LiveAnalysis.live().calmScanPeriod(CALM_SCAN_PERIOD).sharingLineage(options.guard().isPresent()
                ? dev.runaway.procfs.LineageQuestion.Keeper.GUARD : dev.runaway.procfs.LineageQuestion.Keeper.EXPORTER);
        live.onSnapshot(health::scanned);
        live.onSnapshot(refusals::scanned);
        OomWatcher watcher = null;
        HTTPServer server = null;
        Textfile file = null;
        ScheduledExecutorService loop = null;
        try {
            watcher = OomWatcher.start(counts);
            Set<OomEvent.Source> watched = EnumSet.noneOf(OomEvent.Source.class);
            if (!watcher.kernelSource().equals("none")) watched.add(OomEvent.Source.KERNEL);
            if (!watcher.oomdSource().equals("none")) watched.add(OomEvent.Source.OOMD);
            log.println("runaway metrics: out-of-memory kills from " + watcher.source());
            registry.register(new RunawayCollector(live::latest, counts, watched, health, refusals, options.top()));
            live.start();
            if (options.guard().isPresent()) startGuard(options.guard().get(), log);
            if (options.listen().isPresent()) {
                InetSocketAddress at = options.listen().get();
                server = HTTPServer.builder().inetAddress(at.getAddress()).port(at.getPort()).registry(registry).buildAndStart();
                log.println("runaway metrics: serving http://" + hostPort(at.getAddress().getHostAddress(), server.getPort()) + "/metrics");
            }
            if (options.textfile().isPresent()) {
                file = new Textfile(registry, options.textfile().get());
                loop = Executors.newSingleThreadScheduledExecutor(r -> {
                    Thread t = new Thread(r, "runaway-metrics-textfile");
                    t.setDaemon(true);
                    return t;
                });
                Textfile target = file;
                loop.scheduleAtFixedRate(() -> writeQuietly(target, log), 0, options.interval().toMillis(), TimeUnit.MILLISECONDS);
                log.println("runaway metrics: writing " + file.path() + " every " + options.interval().toMillis() + " ms");
            }
            log.flush();
        } catch (IOException | RuntimeException e) {
            if (loop != null) loop.shutdownNow();
            if (server != null) server.close();
            if (watcher != null) watcher.close();
            live.close();
            throw e;
        }
        oom = watcher;
        http = server;
        textfile = file;
        writer = loop;
    }

    /** The guard follows the same live analysis: one sampler for the metrics, the lineage and the holds. */
    private void startGuard(GuardOptions g, PrintWriter log) throws IOException {
        boolean root = LibC.INSTANCE.geteuid() == 0;
        dev.runaway.stop.act.Actuator actuator = new dev.runaway.stop.act.Actuator(Path.of("/proc"),
                root ? dev.runaway.stop.helper.HelperStarter.NONE : dev.runaway.stop.helper.InstalledHelper::start);
        dev.runaway.stop.StopCore core = new dev.runaway.stop.StopCore(Path.of("/proc"), dev.runaway.procfs.PulseReader.live(), actuator,
                dev.runaway.stop.plan.Disposable.forThisUser());
        guard = new dev.runaway.guard.Guard(live, core, g.policy(), g.dryRun(), dev.runaway.guard.DesktopNotices.start(g.policy(), log), log);
        registry.register(new HeldCollector(guard::status, guard::ends));
        guard.start();
        for (String rule : g.policy().describe()) log.println("runaway guard: policy: " + rule);
        if (root) {
            control = dev.runaway.guard.GuardControl.open(guard);
        } else {
            log.println("runaway guard: not root: it holds only this user's groups, and a release is asked here (no control socket)");
        }
        log.println("runaway guard: " + (g.dryRun() ? "dry run: it says what it would hold and holds nothing" : "watching"));
        log.flush();
    }

    /** The guard, when this exporter runs one. */
    public Optional<dev.runaway.guard.Guard> guard() {
        return Optional.ofNullable(guard);
    }

    public static MetricsExporter start(Options options, PrintWriter log) throws IOException {
        return new MetricsExporter(options, log);
    }

    /** The port /metrics is served on, once bound. */
    public OptionalInt port() {
        return http == null ? OptionalInt.empty() : OptionalInt.of(http.getPort());
    }

    public PrometheusRegistry registry() {
        return registry;
    }

    public LiveAnalysis live() {
        return live;
    }

    private void writeQuietly(Textfile file, PrintWriter log) {
        try {
            file.write();
            if (!lastWriteProblem.isEmpty()) log.println("runaway metrics: writing " + file.path() + " works again");
            lastWriteProblem = "";
        } catch (IOException | RuntimeException e) {
            String problem = String.valueOf(e.getMessage());
            if (!problem.equals(lastWriteProblem)) log.println("runaway metrics: cannot write " + file.path() + ": " + problem);
            lastWriteProblem = problem;
        }
        log.flush();
    }

    static String hostPort(String host, int port) {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    @Override
    public void close() {
        if (control != null) control.close();
        if (guard != null) guard.close(); // its holds released, said in the log
        if (writer != null) {
            writer.shutdownNow();
            try {
                writer.awaitTermination(5, TimeUnit.SECONDS);
                textfile.remove();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IOException e) {
                System.err.println("runaway metrics: could not remove " + textfile.path() + ": " + e.getMessage());
            }
        }
        if (http != null) http.close();
        oom.close();
        live.close();
    }
}
