// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The recording format v1: round trip, a torn last line, a foreign file, rotation. */
class RecordingTest {

    @Test
    void recordsReadBackInOrderWithTheirHeader(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("r.jsonl");
        try (RecordingWriter w = new RecordingWriter(file, 1 << 20, RecordingWriter.fields().put("source", "test"))) {
            for (int i = 0; i < 5; i++) w.record("sample", RecordingWriter.fields().put("tasks", i));
        }
        RecordingReader.Recording r = RecordingReader.read(file);
        assertThat(r.header().get("version").asInt()).isEqualTo(RecordingWriter.VERSION);
        assertThat(r.header().get("source").asText()).isEqualTo("test");
        assertThat(r.records()).extracting(n -> n.get("tasks").asInt()).containsExactly(0, 1, 2, 3, 4);
        assertThat(r.records()).extracting(n -> n.get("seconds").asDouble()).isSorted();
        assertThat(r.tornLineSkipped()).isFalse();
    }

    @Test
    void aTornLastLineIsSkippedNotAFailedOpen(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("r.jsonl");
        try (RecordingWriter w = new RecordingWriter(file, 1 << 20, RecordingWriter.fields())) {
            w.record("sample", RecordingWriter.fields().put("tasks", 7));
        }
        Files.write(file, "{\"type\":\"sample\",\"tas".getBytes(), StandardOpenOption.APPEND); // killed mid-write
        RecordingReader.Recording r = RecordingReader.read(file);
        assertThat(r.records()).hasSize(1);
        assertThat(r.tornLineSkipped()).isTrue();
    }

    @Test
    void aFileThatIsNotARecordingIsRefusedInWords(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("x.jsonl"), "{\"hello\":1}\n");
        assertThatThrownBy(() -> RecordingReader.read(file)).isInstanceOf(IOException.class).hasMessageContaining("not a Runaway recording");
    }

    @Test
    void pastItsSizeItRotatesAndTheNewFileHasAHeader(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("r.jsonl");
        try (RecordingWriter w = new RecordingWriter(file, 600, RecordingWriter.fields())) {
            for (int i = 0; i < 20; i++) w.record("sample", RecordingWriter.fields().put("tasks", i));
        }
        assertThat(dir.resolve("r.jsonl.1")).exists();
        assertThat(Files.size(file)).isLessThanOrEqualTo(600);
        RecordingReader.Recording r = RecordingReader.read(file);
        JsonNode last = r.records().get(r.records().size() - 1);
        assertThat(last.get("tasks").asInt()).isEqualTo(19);
        assertThat(RecordingReader.read(dir.resolve("r.jsonl.1")).records()).isNotEmpty();
    }
}
