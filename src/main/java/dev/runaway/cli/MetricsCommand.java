// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import dev.runaway.metrics.MetricsExporter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/** {@code runaway metrics}: the live analysis for Prometheus, over HTTP or as a node exporter textfile. */
@Command(name = "metrics", mixinStandardHelpOptions = true,
        description = {"Serves the live analysis as Prometheus metrics over HTTP, or as a node exporter textfile.",
                "OpenMetrics or Prometheus text, as the scraper asks, on http://ADDR:PORT/metrics, and/or written to",
                "DIR/runaway.prom every --interval for node exporter's textfile collector. The --top most severe groups get series of their own (labels: command, cgroup); the",
                "rest are summed into command=\"other\". Runs until stopped (SIGTERM, Ctrl-C). Metrics: " + Guide.DIR + "metrics.html."})
public final class MetricsCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--listen", paramLabel = "ADDR:PORT", converter = Listen.class,
            description = "where to serve /metrics (default: 127.0.0.1:" + MetricsExporter.DEFAULT_PORT
                    + ", or nowhere when only --textfile is given); port 0 picks a free one")
    InetSocketAddress listen;

    @Option(names = "--textfile", paramLabel = "DIR", description = "node exporter's --collector.textfile.directory: write DIR/runaway.prom")
    Path textfile;

    @Option(names = "--interval", paramLabel = "DURATION", defaultValue = "15s", converter = Durations.class,
            description = "between textfile writes (default: ${DEFAULT-VALUE})")
    Duration interval;

    @Option(names = "--top", paramLabel = "N", defaultValue = "20", description = "groups with series of their own (default: ${DEFAULT-VALUE})")
    int top;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        Optional<InetSocketAddress> at = Optional.ofNullable(listen);
        if (at.isEmpty() && textfile == null) at = Optional.of(new InetSocketAddress(InetAddress.getLoopbackAddress(), MetricsExporter.DEFAULT_PORT));
        MetricsExporter.Options options;
        try {
            options = new MetricsExporter.Options(at, Optional.ofNullable(textfile), interval, top);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        dev.runaway.stop.act.OomShield.protectSelf(Path.of("/proc"), null); // the exporter should outlive the runaway it reports
        MetricsExporter exporter = MetricsExporter.start(options, err);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            exporter.close();
            stopped.countDown();
        }, "runaway-metrics-stop"));
        stopped.await();
        return 0;
    }

    /** ADDR:PORT, [IPv6]:PORT, or :PORT for every address. */
    static final class Listen implements CommandLine.ITypeConverter<InetSocketAddress> {
        @Override
        public InetSocketAddress convert(String text) {
            int colon = text.lastIndexOf(':');
            if (colon < 0) throw new CommandLine.TypeConversionException("not ADDR:PORT (try 127.0.0.1:" + MetricsExporter.DEFAULT_PORT + "): " + text);
            String host = text.substring(0, colon);
            if (host.startsWith("[") && host.endsWith("]")) host = host.substring(1, host.length() - 1);
            int port;
            try {
                port = Integer.parseInt(text.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new CommandLine.TypeConversionException("not a port number: " + text.substring(colon + 1));
            }
            if (port < 0 || port > 65535) throw new CommandLine.TypeConversionException("port out of range: " + port);
            try {
                InetAddress address = host.isEmpty() ? InetAddress.getByName("::") : InetAddress.getByName(host);
                return new InetSocketAddress(address, port);
            } catch (UnknownHostException e) {
                throw new CommandLine.TypeConversionException("unknown address: " + host);
            }
        }
    }
}
