package dev.runaway.metrics;

import dev.runaway.analysis.Snapshot;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The exporter's own figures: scans taken, and its CPU time and resident memory (read here and
 * named runaway_exporter_*, not process_*: node exporter has process_* metrics of its own,
 * and a textfile repeating them would make its scrape fail).
 */
public final class ExporterHealth {
    private final AtomicLong scans = new AtomicLong();
    private final Path statm;
    private final long pageSize;

    public ExporterHealth(Path procSelf, long pageSize) {
        this.statm = procSelf.resolve("statm");
        this.pageSize = pageSize;
    }

    /** Counts a scan; the sampler calls it from its scan thread. */
    public void scanned(Snapshot s) {
        scans.incrementAndGet();
    }

    public long scans() {
        return scans.get();
    }

    /** CPU time this JVM used (user and system), from the JVM's own account of it. */
    public OptionalDouble cpuSeconds() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            long nanos = os.getProcessCpuTime();
            if (nanos >= 0) return OptionalDouble.of(nanos / 1e9);
        }
        return OptionalDouble.empty();
    }

    /** Resident memory: statm's second field, in pages. */
    public OptionalLong rssBytes() {
        try {
            String[] fields = Files.readString(statm).trim().split(" ");
            return OptionalLong.of(Long.parseLong(fields[1]) * pageSize);
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
    }
}
