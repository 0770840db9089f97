// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

/**
 * Adds events to an incident file from another process: a {@code runaway stop} writing its
 * steps into the incident {@code runaway record} is recording. Seconds are placed on the
 * recording's axis by wall clock from its header's start. A file that does not exist yet
 * becomes a new incident holding just these events.
 */
public final class IncidentAppender implements AutoCloseable {
    private final RecordingWriter writer;
    private final Timeline timeline;

    private IncidentAppender(RecordingWriter writer, Timeline timeline) {
        this.writer = writer;
        this.timeline = timeline;
    }

    public static IncidentAppender open(Path file, String source) throws IOException {
        if (!Files.exists(file)) {
            RecordingWriter fresh = new RecordingWriter(file, IncidentFiles.MAX_BYTES, RecordingWriter.fields().put("source", source));
            return new IncidentAppender(fresh, Timeline.startingNow(source));
        }
        RecordingReader.Recording existing = RecordingReader.read(file); // refuses what is not a recording
        Instant started = Instant.parse(existing.header().path("started").asText());
        return new IncidentAppender(RecordingWriter.appendingTo(file), new Timeline(started, 0, source));
    }

    /** The recording's axis: {@link Timeline#secondsOf(Instant)} places an event on it. */
    public Timeline timeline() {
        return timeline;
    }

    public void event(TimelineEvent e) throws IOException {
        writer.record("event", e.time(), e.seconds(), IncidentFormat.event(e));
    }

    @Override
    public void close() throws IOException {
        writer.close();
    }
}
