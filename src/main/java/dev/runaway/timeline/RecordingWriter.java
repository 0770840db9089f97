// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.runaway.model.Json;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/**
 * Appends a recording (docs/recording.md): one JSON object per line, each written whole with
 * one write, so a process killed at any moment leaves every line it finished on disk and at most
 * one torn line at the end, which readers skip. Past {@code maxBytes} the file is rotated to
 * FILE.1 and a new one starts with its own header.
 */
public final class RecordingWriter implements AutoCloseable {
    public static final String FORMAT = "runaway-recording";
    public static final int VERSION = 2;

    private final Path file;
    private final long maxBytes;
    private final ObjectNode header; // null when appending to another recorder's file
    private final long startNanos = System.nanoTime();
    private OutputStream out;
    private long written;
    private int rotations;

    public RecordingWriter(Path file, long maxBytes, ObjectNode headerFields) throws IOException {
        this.file = file;
        this.maxBytes = maxBytes;
        this.header = Json.TREES.createObjectNode().put("type", "header").put("format", FORMAT).put("version", VERSION)
                .put("started", Instant.now().toString());
        this.header.setAll(headerFields);
        open();
    }

    private RecordingWriter(Path file) throws IOException {
        this.file = file;
        this.maxBytes = Long.MAX_VALUE;
        this.header = null;
        this.out = PrivateFiles.append(file);
    }

    /**
     * Appends to a recording another process may be writing (a stop's steps into the incident
     * {@code runaway record} writes): each line is one write with O_APPEND, so lines from the
     * two never interleave. It never rotates; the recorder owns that.
     */
    public static RecordingWriter appendingTo(Path file) throws IOException {
        return new RecordingWriter(file);
    }

    public static ObjectNode fields() {
        return Json.TREES.createObjectNode();
    }

    private void open() throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        // 0700, and 0600 files never opened through a symlink: a recording holds every user's command lines.
        if (dir != null) PrivateFiles.directory(dir, dir.equals(IncidentFiles.directory().toAbsolutePath()));
        if (dir != null && dir.equals(IncidentFiles.directory().toAbsolutePath())) PrivateFiles.directory(dir.getParent(), true);
        // O_APPEND: another process may add lines (a stop's steps); without it our next write
        // would land at our own offset, over theirs.
        PrivateFiles.truncate(file);
        out = PrivateFiles.append(file);
        written = 0;
        line(header);
    }

    /** A record of TYPE with the given fields, stamped with the wall clock and seconds since start. */
    public void record(String type, ObjectNode fields) throws IOException {
        record(type, Instant.now(), Math.round((System.nanoTime() - startNanos) / 1e6) / 1000.0, fields);
    }

    /** A record stamped by the caller, whose clock (a timeline's) is the axis. */
    public synchronized void record(String type, Instant time, double seconds, ObjectNode fields) throws IOException {
        ObjectNode node = Json.TREES.createObjectNode().put("type", type).put("time", time.toString()).put("seconds", seconds);
        node.setAll(fields);
        line(node);
    }

    /** Bytes in the current file (after a rotation, of the new one). */
    public synchronized long bytesWritten() {
        return written;
    }

    public long maxBytes() {
        return maxBytes;
    }

    /** How many times the file rotated so far. */
    public synchronized int rotations() {
        return rotations;
    }

    public Path file() {
        return file;
    }

    private void line(ObjectNode node) throws IOException {
        byte[] bytes = (Json.TREES.writeValueAsString(node) + "\n").getBytes(StandardCharsets.UTF_8);
        if (written > 0 && written + bytes.length > maxBytes) rotate();
        out.write(bytes); // one write: the line is on disk whole, or (killed mid-write) torn at the end
        out.flush();
        written += bytes.length;
    }

    private void rotate() throws IOException {
        rotations++;
        out.close();
        Files.move(file, file.resolveSibling(file.getFileName() + ".1"), StandardCopyOption.REPLACE_EXISTING);
        open();
    }

    @Override
    public synchronized void close() throws IOException {
        out.close();
    }
}
