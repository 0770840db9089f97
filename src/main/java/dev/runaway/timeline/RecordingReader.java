// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a recording back: every whole line, skipping a torn one (a recorder killed while
 * writing it). A file without this format's header is refused in words.
 */
public final class RecordingReader {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What was read: the records, and whether a torn last line was skipped. */
    public record Recording(JsonNode header, List<JsonNode> records, boolean tornLineSkipped) {
    }

    private RecordingReader() {
    }

    public static Recording read(Path file) throws IOException {
        // Decoded leniently: a line torn inside a multi-byte character must not fail the whole file.
        List<String> lines = new String(Files.readAllBytes(file), StandardCharsets.UTF_8).lines().toList();
        List<JsonNode> records = new ArrayList<>();
        boolean torn = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank()) continue;
            try {
                records.add(JSON.readTree(line));
            } catch (JsonProcessingException e) {
                // Torn by a kill mid-write: at the end, or in the middle when another process
                // (a stop adding its steps) appended after the recorder died.
                torn = true;
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
}
