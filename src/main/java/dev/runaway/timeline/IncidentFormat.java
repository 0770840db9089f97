// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.runaway.analysis.GroupCap;
import dev.runaway.analysis.GroupOrder;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Optional;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.List;

/**
 * The fields of the timeline's record types (docs/recording.md, version 2): {@code pulse},
 * {@code scan} and {@code event}. Raw figures only where a rate can be derived again; fields at
 * their default are left out to keep files small.
 */
final class IncidentFormat {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private IncidentFormat() {
    }

    static ObjectNode pulse(PulsePoint p) {
        ObjectNode n = NODES.objectNode().put("tasks", p.tasks()).put("forks", p.forksSinceBoot())
                .put("memTotal", p.memoryTotalBytes()).put("memAvailable", p.memoryAvailableBytes())
                .put("swapTotal", p.swapTotalBytes()).put("swapFree", p.swapFreeBytes()).put("pidMax", p.pidMax());
        if (!Double.isNaN(p.pressureSome10())) n.put("psiSome10", p.pressureSome10()).put("psiFull10", p.pressureFull10());
        return n;
    }

    /** A pulse read back; forks per second comes from the previous one, as live. */
    static PulsePoint pulse(JsonNode n, PulsePoint previous) {
        double seconds = n.path("seconds").asDouble();
        long forks = n.path("forks").asLong(-1);
        double rate = previous == null ? 0
                : PulsePoint.forksPerSecond(previous.seconds(), previous.forksSinceBoot(), seconds, forks);
        return new PulsePoint(seconds, time(n), n.path("tasks").asInt(), forks, rate,
                n.path("memTotal").asLong(), n.path("memAvailable").asLong(), n.path("swapTotal").asLong(),
                n.path("swapFree").asLong(), n.path("psiSome10").asDouble(Double.NaN),
                n.path("psiFull10").asDouble(Double.NaN), n.path("pidMax").asInt());
    }

    /**
     * A scan line: with {@code full}, every group; otherwise only the groups that changed since
     * {@code written} (updated here) and, under {@code gone}, those no longer among the scan's.
     */
    static ObjectNode scan(GroupScan s, Map<String, GroupPoint> written, boolean full) {
        ObjectNode n = NODES.objectNode().put("mono", s.monotonicNanos()).put("processes", s.processes());
        if (full) n.put("full", true);
        ArrayNode groups = n.putArray("groups");
        Set<String> present = new HashSet<>();
        for (GroupPoint g : s.groups()) {
            present.add(g.command());
            if (g.equals(written.put(g.command(), g))) continue;
            ObjectNode o = groups.addObject().put("command", g.command()).put("tasks", g.tasks()).put("rss", g.rssBytes())
                    .put("growth", g.growth()).put("rate", g.tasksPerSecond()).put("bytesRate", g.bytesPerSecond())
                    .put("chains", g.chains()).put("deepest", g.deepestChain());
            if (!Double.isNaN(g.secondsToExhaustion())) o.put("exhaustion", g.secondsToExhaustion()).put("by", g.exhaustedBy());
            if (g.parentedToInit()) o.put("init", true);
            if (g.recursive()) o.put("recursive", true);
            if (!g.cycle().isEmpty()) { // a key seen twice along a line has a cycle before it counts as recursion
                ArrayNode cycle = o.putArray("cycle");
                g.cycle().forEach(cycle::add);
            }
            if (g.cgroupRoom() >= 0) o.put("room", g.cgroupRoom());
            if (g.cgroupMax() >= 0) o.put("cap", g.cgroupMax());
            if (g.atCap()) o.put("atCap", true).put("refused", g.forksRefused());
            g.cap().ifPresent(c -> o.put("capLimit", c.limit()).put("capValue", c.value()));
            if (!g.cgroup().isEmpty()) o.put("cgroup", g.cgroup());
            if (g.self()) o.put("self", true);
        }
        ArrayNode gone = null;
        for (var it = written.keySet().iterator(); it.hasNext(); ) {
            String command = it.next();
            if (present.contains(command)) continue;
            it.remove();
            if (gone == null) gone = n.putArray("gone");
            gone.add(command);
        }
        return n;
    }

    /**
     * A scan read back with the figures as recorded live ({@link IncidentReader} derives them
     * again): the groups of {@code current} (updated here) with this line's changes applied.
     */
    static GroupScan scan(JsonNode n, Map<String, GroupPoint> current) {
        if (n.path("full").asBoolean()) current.clear();
        n.path("gone").forEach(c -> current.remove(c.asText()));
        for (JsonNode o : n.path("groups")) {
            List<String> cycle = new ArrayList<>();
            o.path("cycle").forEach(c -> cycle.add(c.asText()));
            current.put(o.path("command").asText(), new GroupPoint(o.path("command").asText(), o.path("tasks").asInt(), o.path("rss").asLong(),
                    o.path("growth").asText("unknown"), o.path("rate").asDouble(), o.path("bytesRate").asDouble(),
                    o.path("exhaustion").asDouble(Double.NaN), o.path("by").asText(""), o.path("chains").asInt(),
                    o.path("deepest").asInt(), o.path("init").asBoolean(), o.path("recursive").asBoolean(),
                    List.copyOf(cycle), o.path("room").asLong(-1), o.path("cap").asLong(-1), o.path("atCap").asBoolean(),
                    o.has("capLimit") ? Optional.of(new GroupCap(o.path("capLimit").asText(), o.path("capValue").asLong()))
                            : Optional.empty(),
                    o.path("refused").asLong(0), o.path("cgroup").asText(""), o.path("self").asBoolean()));
        }
        List<GroupPoint> groups = new ArrayList<>(current.values());
        groups.sort(GroupOrder.severity());
        return new GroupScan(n.path("seconds").asDouble(), time(n), n.path("mono").asLong(), n.path("processes").asInt(),
                List.copyOf(groups));
    }

    static ObjectNode event(TimelineEvent e) {
        ObjectNode n = NODES.objectNode().put("kind", e.kind().json()).put("title", e.title());
        if (!e.detail().isEmpty()) n.put("detail", e.detail());
        if (e.count() >= 0) n.put("count", e.count());
        if (e.pid() > 0) n.put("pid", e.pid());
        if (!e.command().isEmpty()) n.put("command", e.command());
        if (e.millis() >= 0) n.put("millis", e.millis());
        return n;
    }

    /** An event read back; version 1's {@code event} records (kind and note) become notes. */
    static TimelineEvent event(JsonNode n) {
        String kindText = n.path("kind").asText("note");
        EventKind kind = EventKind.ofJson(kindText);
        String title = n.has("title") ? n.path("title").asText() : kindText;
        String detail = n.has("detail") ? n.path("detail").asText() : n.path("note").asText("");
        return new TimelineEvent(n.path("seconds").asDouble(), time(n), kind, title, detail, n.path("count").asLong(-1),
                n.path("pid").asInt(-1), n.path("command").asText(""), n.path("millis").asLong(-1));
    }

    private static Instant time(JsonNode n) {
        try {
            return Instant.parse(n.path("time").asText());
        } catch (RuntimeException e) {
            return Instant.EPOCH;
        }
    }
}
