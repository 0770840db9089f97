// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.runaway.model.Json;
import dev.runaway.timeline.GroupScan;
import dev.runaway.timeline.PulsePoint;
import dev.runaway.timeline.Timeline;
import dev.runaway.timeline.TimelineEvent;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The incident as one JSON document (docs/export.md): the recording's header, the summary, and
 * every pulse, scan and event as recorded (rates derived as the reader derives them). Times are
 * ISO-8601 (UTC), seconds are on the timeline's axis; a figure not measured is null, and a field
 * with nothing in it (empty text or list, no value) is left out: an hour of scans is large.
 */
public final class IncidentJson {
    public static final String FORMAT = "runaway-incident-export";
    public static final int VERSION = 1;

    /** The document's shape, in field order. */
    public record Document(String format, int version, String source, Instant started, Optional<TimeRange> range,
                           JsonNode header, IncidentSummary summary, List<PulsePoint> pulses, List<GroupScan> scans,
                           List<TimelineEvent> events) {
    }

    private IncidentJson() {
    }

    public static Document document(Timeline timeline, JsonNode header, IncidentSummary summary, Optional<TimeRange> range) {
        return new Document(FORMAT, VERSION, timeline.source(), timeline.started(), range, header, summary,
                timeline.pulses(), timeline.scans(), timeline.events());
    }

    public static void write(Document document, Path file) throws IOException {
        Json.DOCUMENT.writeValue(file.toFile(), document);
    }

    public static ObjectMapper mapper() {
        return Json.DOCUMENT;
    }
}
