// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.runaway.model.Json;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a recording back: every whole line, skipping a torn one (a recorder killed while
 * writing it). A file without this format's header is refused in words, and so is anything a
 * recorder cannot have written: a FIFO or device (which would hang or never end), a file past
 * {@link #MAX_FILE_BYTES}; a line past {@link #MAX_LINE_BYTES} or with a time beyond
 * {@link #MAX_SECONDS} is skipped like a torn one.
 */
public final class RecordingReader {
    /** A recording rotates at IncidentFiles.MAX_BYTES (64 MiB); four times that is no recording of ours. */
    public static final long MAX_FILE_BYTES = 4 * IncidentFiles.MAX_BYTES;
    /** A scan of 50,000 processes in a few thousand groups is well under a MiB per line. */
    public static final int MAX_LINE_BYTES = 16 << 20;
    /** Ten years either side of the start: the history before a recording (OOM kills) is days. */
    public static final double MAX_SECONDS = 10 * 365.25 * 86400;

    /** What was read: the records, and whether a torn last line was skipped. */
    public record Recording(JsonNode header, List<JsonNode> records, boolean tornLineSkipped) {
    }

    private RecordingReader() {
    }

    public static Recording read(Path file) throws IOException {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IOException(file + ": no such recording");
        }
        if (!attributes.isRegularFile()) {
            throw new IOException(file + " is not a regular file (a directory, FIFO or device): not a recording");
        }
        if (attributes.size() > MAX_FILE_BYTES) {
            throw new IOException(file + " is " + (attributes.size() >> 20) + " MiB, more than a recording can be ("
                    + (MAX_FILE_BYTES >> 20) + " MiB): not a recording");
        }
        List<JsonNode> records = new ArrayList<>();
        boolean torn = false;
        long total = 0;
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
            ByteArrayOutputStream line = new ByteArrayOutputStream(4096);
            boolean overlong = false;
            for (int b; ; ) {
                b = in.read();
                if (b >= 0 && ++total > MAX_FILE_BYTES) throw new IOException(file + " grew past " + (MAX_FILE_BYTES >> 20) + " MiB while read");
                if (b >= 0 && b != '\n') {
                    if (line.size() < MAX_LINE_BYTES) line.write(b);
                    else overlong = true;
                    continue;
                }
                if (overlong) torn = true;
                else if (line.size() > 0) torn |= !add(records, line.toString(StandardCharsets.UTF_8));
                line.reset();
                overlong = false;
                if (b < 0) break;
            }
        }
        if (records.isEmpty() || !RecordingWriter.FORMAT.equals(records.get(0).path("format").asText())) {
            throw new IOException(file + " is not a Runaway recording (no " + RecordingWriter.FORMAT + " header)");
        }
        int version = records.get(0).path("version").asInt();
        if (version > RecordingWriter.VERSION) {
            throw new IOException(file + " is a version " + version + " recording; this Runaway reads up to " + RecordingWriter.VERSION);
        }
        return new Recording(records.get(0), records.subList(1, records.size()), torn);
    }

    /** Adds the line's record; false when it is torn or holds a time no recording has. Decoded leniently. */
    private static boolean add(List<JsonNode> records, String line) {
        if (line.isBlank()) return true;
        JsonNode node;
        try {
            node = Json.TREES.readTree(line);
        } catch (JsonProcessingException e) {
            // Torn by a kill mid-write: at the end, or in the middle when another process
            // (a stop adding its steps) appended after the recorder died.
            return false;
        }
        JsonNode seconds = node.path("seconds");
        if (!seconds.isMissingNode() && !(seconds.isNumber() && Math.abs(seconds.asDouble()) <= MAX_SECONDS)) return false;
        records.add(node);
        return true;
    }
}
