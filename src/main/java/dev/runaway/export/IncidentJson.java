// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.runaway.analysis.CgroupLoad;
import dev.runaway.analysis.GroupCap;
import dev.runaway.analysis.MemorySource;
import dev.runaway.model.Json;
import dev.runaway.timeline.GroupPoint;
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
                           JsonNode header, IncidentSummary summary, List<PulsePoint> pulses, List<Scan> scans,
                           List<TimelineEvent> events) {
    }

    /** A scan as the document writes it (the fields of {@link GroupScan}). */
    public record Scan(double seconds, Instant time, long monotonicNanos, int processes, List<Group> groups,
                       List<CgroupLoad> cgroups) {
        static Scan of(GroupScan s) {
            return new Scan(s.seconds(), s.time(), s.monotonicNanos(), s.processes(), lazily(s.groups(), Group::of), s.cgroups());
        }
    }

    /**
     * A group as the document writes it: a recorded point's figures under the names this format
     * has always had ({@code growth}, {@code tasksPerSecond}, {@code secondsToExhaustion} null
     * when not heading to a limit, {@code chains} a count).
     */
    public record Group(String command, int tasks, long rssBytes, String growth, double tasksPerSecond, double bytesPerSecond,
                        double secondsToExhaustion, String exhaustedBy, int chains, int deepestChain, boolean parentedToInit,
                        boolean recursive, List<String> cycle, long cgroupRoom, long cgroupMax, boolean atCap,
                        Optional<GroupCap> cap, long forksRefused, String cgroup, boolean self, long memoryBytes,
                        MemorySource memorySource) {
        static Group of(GroupPoint g) {
            return new Group(g.command(), g.tasks(), g.rssBytes(), g.growthShape(), g.rate(), g.bytesPerSecond(), g.secondsLeft(),
                    g.exhaustedBy(), g.chainCount(), g.deepestChain(), g.parentedToInit(), g.recursive(), g.cycle(),
                    g.cgroupRoom(), g.cgroupMax(), g.atCap(), g.cap(), g.forksRefused(), g.cgroup(), g.self(), g.memoryBytes(),
                    g.memorySource());
        }
    }

    /** Converted as the writer reaches each element: an hour holds twelve thousand scans. */
    private static <A, B> List<B> lazily(List<A> from, java.util.function.Function<A, B> to) {
        return new java.util.AbstractList<>() {
            @Override
            public B get(int i) {
                return to.apply(from.get(i));
            }

            @Override
            public int size() {
                return from.size();
            }
        };
    }

    private IncidentJson() {
    }

    public static Document document(Timeline timeline, JsonNode header, IncidentSummary summary, Optional<TimeRange> range) {
        return new Document(FORMAT, VERSION, timeline.source(), timeline.started(), range, header, summary,
                timeline.pulses(), lazily(timeline.scans(), Scan::of), timeline.events());
    }

    public static void write(Document document, Path file) throws IOException {
        Json.DOCUMENT.writeValue(file.toFile(), document);
    }

    public static ObjectMapper mapper() {
        return Json.DOCUMENT;
    }
}
