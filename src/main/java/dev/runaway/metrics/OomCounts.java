package dev.runaway.metrics;

import dev.runaway.timeline.oom.OomEvent;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Out-of-memory kills seen since the exporter started, per source: how many kills and how many
 * processes they took (a kernel kill is one process; an oomd kill the count its manager logged,
 * and none added when it logged none). Fed by an {@code OomWatcher}, read by the collector.
 */
public final class OomCounts implements Consumer<OomEvent> {
    private final Map<OomEvent.Source, AtomicLong> kills = new EnumMap<>(OomEvent.Source.class);
    private final Map<OomEvent.Source, AtomicLong> processes = new EnumMap<>(OomEvent.Source.class);
    private final Map<OomEvent.Source, AtomicLong> unknownCounts = new EnumMap<>(OomEvent.Source.class);

    public OomCounts() {
        for (OomEvent.Source s : OomEvent.Source.values()) {
            kills.put(s, new AtomicLong());
            processes.put(s, new AtomicLong());
            unknownCounts.put(s, new AtomicLong());
        }
    }

    @Override
    public void accept(OomEvent e) {
        kills.get(e.source()).incrementAndGet();
        if (e.processesKilled() >= 0) processes.get(e.source()).addAndGet(e.processesKilled());
        else unknownCounts.get(e.source()).incrementAndGet();
    }

    public long kills(OomEvent.Source source) {
        return kills.get(source).get();
    }

    public long processesKilled(OomEvent.Source source) {
        return processes.get(source).get();
    }

    /** Kills whose number of processes no log said (oomd's count line missing). */
    public long killsOfUnknownSize(OomEvent.Source source) {
        return unknownCounts.get(source).get();
    }

    /** The {@code source} label: the name people know each killer by. */
    public static String label(OomEvent.Source source) {
        return source == OomEvent.Source.KERNEL ? "kernel" : "systemd-oomd";
    }
}
