// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.runaway.analysis.CgroupLoad;
import dev.runaway.analysis.GroupCap;
import dev.runaway.analysis.GrowthFit;
import dev.runaway.analysis.GrowthShape;
import dev.runaway.analysis.GroupOrder;
import dev.runaway.analysis.MemorySource;
import dev.runaway.stoporder.StopStep;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Optional;
import java.util.OptionalDouble;
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
    static ObjectNode scan(GroupScan s, Map<String, GroupPoint> written, Map<String, CgroupLoad> writtenCgroups, boolean full) {
        ObjectNode n = NODES.objectNode().put("mono", s.monotonicNanos()).put("processes", s.processes());
        if (full) n.put("full", true);
        ArrayNode groups = n.putArray("groups");
        Set<String> present = new HashSet<>();
        for (GroupPoint g : s.groups()) {
            present.add(g.command());
            if (g.equals(written.put(g.command(), g))) continue;
            ObjectNode o = groups.addObject().put("command", g.command()).put("tasks", g.tasks()).put("rss", g.rssBytes())
                    .put("growth", g.growthShape()).put("rate", g.rate()).put("bytesRate", g.bytesPerSecond())
                    .put("chains", g.chainCount()).put("deepest", g.deepestChain());
            g.secondsToExhaustion().ifPresent(left -> o.put("exhaustion", left).put("by", g.exhaustedBy()));
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
            // The figure charts draw: written when it is not plain RSS (older readers ignore it).
            if (g.memorySource() != MemorySource.RSS || g.memoryBytes() != g.rssBytes()) {
                o.put("memory", g.memoryBytes()).put("memoryFrom", g.memorySource().json());
            }
        }
        gone(n, "gone", written.keySet(), present);
        cgroups(n, s.cgroups(), writtenCgroups);
        return n;
    }

    /**
     * The cgroup lens: raw figures only (the reader fits growth again, as for groups), and only
     * the cgroups whose figures changed since {@code written}; {@code cgroupsGone} for those that left.
     */
    private static void cgroups(ObjectNode n, List<CgroupLoad> cgroups, Map<String, CgroupLoad> written) {
        Set<String> present = new HashSet<>();
        ArrayNode out = null;
        for (CgroupLoad c : cgroups) {
            present.add(c.path());
            CgroupLoad raw = c.raw();
            if (raw.equals(written.put(c.path(), raw))) continue;
            if (out == null) out = n.putArray("cgroups");
            ObjectNode o = out.addObject().put("path", c.path()).put("tasks", c.tasks()).put("processes", c.processes())
                    .put("groups", c.groups());
            if (c.pidsMax() >= 0) o.put("cap", c.pidsMax()).put("room", c.room());
            if (c.atCap()) o.put("atCap", true).put("refused", c.forksRefused());
            if (c.self()) o.put("self", true);
        }
        gone(n, "cgroupsGone", written.keySet(), present);
    }

    /** Removes from {@code written} what is not {@code present}, listing it under {@code field}. */
    private static void gone(ObjectNode n, String field, Set<String> written, Set<String> present) {
        ArrayNode gone = null;
        for (var it = written.iterator(); it.hasNext(); ) {
            String key = it.next();
            if (present.contains(key)) continue;
            it.remove();
            if (gone == null) gone = n.putArray(field);
            gone.add(key);
        }
    }

    /**
     * A scan read back with the figures as recorded live ({@link IncidentReader} derives them
     * again): the groups of {@code current} (updated here) with this line's changes applied.
     */
    static GroupScan scan(JsonNode n, Map<String, GroupPoint> current, Map<String, CgroupLoad> currentCgroups) {
        if (n.path("full").asBoolean()) {
            current.clear();
            currentCgroups.clear();
        }
        n.path("cgroupsGone").forEach(c -> currentCgroups.remove(c.asText()));
        for (JsonNode o : n.path("cgroups")) {
            String path = o.path("path").asText();
            currentCgroups.put(path, new CgroupLoad(path, o.path("tasks").asInt(), o.path("processes").asInt(),
                    o.path("groups").asInt(), GrowthFit.UNKNOWN, o.path("cap").asLong(-1), o.path("room").asLong(-1),
                    o.path("atCap").asBoolean(), o.path("refused").asLong(0), Double.NaN, o.path("self").asBoolean()));
        }
        n.path("gone").forEach(c -> current.remove(c.asText()));
        for (JsonNode o : n.path("groups")) {
            List<String> cycle = new ArrayList<>();
            o.path("cycle").forEach(c -> cycle.add(c.asText()));
            current.put(o.path("command").asText(), new GroupPoint(o.path("command").asText(), o.path("tasks").asInt(), o.path("rss").asLong(),
                    new GrowthFit(GrowthShape.ofJson(o.path("growth").asText("unknown")), o.path("rate").asDouble(), 0),
                    o.path("bytesRate").asDouble(),
                    o.has("exhaustion") ? OptionalDouble.of(o.path("exhaustion").asDouble()) : OptionalDouble.empty(),
                    o.path("by").asText(""), o.path("chains").asInt(),
                    o.path("deepest").asInt(), o.path("init").asBoolean(), o.path("recursive").asBoolean(),
                    List.copyOf(cycle), o.path("room").asLong(-1), o.path("cap").asLong(-1), o.path("atCap").asBoolean(),
                    o.has("capLimit") ? Optional.of(new GroupCap(o.path("capLimit").asText(), o.path("capValue").asLong()))
                            : Optional.empty(),
                    o.path("refused").asLong(0), o.path("cgroup").asText(""), o.path("self").asBoolean(),
                    o.path("memory").asLong(o.path("rss").asLong()), MemorySource.ofJson(o.path("memoryFrom").asText("rss"))));
        }
        List<GroupPoint> groups = new ArrayList<>(current.values());
        groups.sort(GroupOrder.severity());
        return new GroupScan(n.path("seconds").asDouble(), time(n), n.path("mono").asLong(), n.path("processes").asInt(),
                List.copyOf(groups), List.copyOf(currentCgroups.values()));
    }

    static ObjectNode event(TimelineEvent e) {
        ObjectNode n = NODES.objectNode().put("kind", e.kind().json()).put("title", e.title());
        if (!e.detail().isEmpty()) n.put("detail", e.detail());
        if (e.count() >= 0) n.put("count", e.count());
        if (e.pid() > 0) n.put("pid", e.pid());
        if (!e.command().isEmpty()) n.put("command", e.command());
        if (e.millis() >= 0) n.put("millis", e.millis());
        e.step().ifPresent(st -> n.put("phase", st.phase().name()).put("action", st.action().name())
                .put("result", st.result().name()));
        return n;
    }

    /** An event read back; version 1's {@code event} records (kind and note) become notes. */
    static TimelineEvent event(JsonNode n) {
        String kindText = n.path("kind").asText("note");
        EventKind kind = EventKind.ofJson(kindText);
        String title = n.has("title") ? n.path("title").asText() : kindText;
        String detail = n.has("detail") ? n.path("detail").asText() : n.path("note").asText("");
        Optional<TimelineEvent.Step> step = kind != EventKind.STOP_STEP ? Optional.empty()
                : n.has("phase") ? step(n) : recordedInWords(title, detail);
        return new TimelineEvent(n.path("seconds").asDouble(), time(n), kind, title, detail, n.path("count").asLong(-1),
                n.path("pid").asInt(-1), n.path("command").asText(""), n.path("millis").asLong(-1), step);
    }

    private static Optional<TimelineEvent.Step> step(JsonNode n) {
        try {
            return Optional.of(new TimelineEvent.Step(StopStep.Phase.valueOf(n.path("phase").asText()),
                    StopStep.Action.valueOf(n.path("action").asText()), StopStep.Result.valueOf(n.path("result").asText())));
        } catch (IllegalArgumentException unknown) {
            return Optional.empty(); // a phase, action or result from a newer writer
        }
    }

    /**
     * A stop step recorded before its phase, action and result were written (docs/recording.md):
     * read once, here, from the words that writer put in the title ("confirm zero") and the
     * detail ("freeze", or "sigkill: failed: " before the note).
     */
    static Optional<TimelineEvent.Step> recordedInWords(String title, String detail) {
        StopStep.Phase phase = null;
        for (StopStep.Phase p : StopStep.Phase.values()) if (p.words().equals(title)) phase = p;
        int colon = detail.indexOf(": ");
        String head = colon < 0 ? detail : detail.substring(0, colon);
        StopStep.Action action = null;
        for (StopStep.Action a : StopStep.Action.values()) if (a.words().equals(head)) action = a;
        if (phase == null || action == null) return Optional.empty();
        StopStep.Result result = StopStep.Result.DONE;
        String rest = colon < 0 ? "" : detail.substring(colon + 2);
        for (StopStep.Result r : StopStep.Result.values()) {
            if (rest.startsWith(r.name().toLowerCase(java.util.Locale.ROOT) + ": ")) result = r;
        }
        return Optional.of(new TimelineEvent.Step(phase, action, result));
    }

    private static Instant time(JsonNode n) {
        try {
            return Instant.parse(n.path("time").asText());
        } catch (RuntimeException e) {
            return Instant.EPOCH;
        }
    }
}
