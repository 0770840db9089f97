package dev.runaway.metrics;

import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The metrics as a file for node exporter's textfile collector: written whole to a temporary
 * file in the same directory (a name node exporter ignores: it reads only *.prom), then renamed
 * over {@code runaway.prom}, so a scrape never reads half a file. Prometheus's text format (the
 * only one the collector reads), mode 0644 (node exporter runs as its own user).
 */
public final class Textfile {
    public static final String NAME = "runaway.prom";
    private final PrometheusRegistry registry;
    private final Path target;
    private final Path temporary;
    private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();

    public Textfile(PrometheusRegistry registry, Path directory) throws IOException {
        if (!Files.isDirectory(directory)) throw new IOException("not a directory: " + directory);
        if (!Files.isWritable(directory)) throw new IOException("cannot write in " + directory);
        this.registry = registry;
        this.target = directory.resolve(NAME);
        this.temporary = directory.resolve("." + NAME + "." + ProcessHandle.current().pid() + ".tmp");
    }

    public Path path() {
        return target;
    }

    /** Writes the current metrics and renames them into place; returns the bytes written. */
    public long write() throws IOException {
        try (OutputStream out = Files.newOutputStream(temporary, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE)) {
            writer.write(out, registry.scrape());
        }
        Files.setPosixFilePermissions(temporary, PosixFilePermissions.fromString("rw-r--r--"));
        long size = Files.size(temporary);
        try {
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.deleteIfExists(temporary);
            throw e;
        }
        return size;
    }

    /** Removes the file: metrics a stopped exporter left would look current forever. */
    public void remove() throws IOException {
        Files.deleteIfExists(temporary);
        Files.deleteIfExists(target);
    }
}
