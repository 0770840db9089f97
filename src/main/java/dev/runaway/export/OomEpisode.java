// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.export;

import dev.runaway.timeline.EventKind;
import dev.runaway.timeline.TimelineEvent;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Out-of-memory kills as a person tells them: each systemd-oomd kill of a whole cgroup on its
 * own, and the kernel's kills of single processes gathered into episodes (kills less than
 * {@link #GAP_SECONDS} apart belong together: 1,392 kills over four hours are one story, not
 * 1,392 marks).
 *
 * @param kind      {@link EventKind#OOMD_KILL} or {@link EventKind#OOM_KILL}
 * @param kills     events in the episode (1 for an oomd kill)
 * @param processes processes killed: the kernel's kills, or the cgroup's count for oomd (-1 unknown)
 * @param commands  processes killed per command (kernel), or the unit (oomd), most first
 */
public record OomEpisode(EventKind kind, double fromSeconds, double toSeconds, Instant from, Instant to, int kills,
                         long processes, Map<String, Long> commands) {
    /** Kernel kills closer than this are one episode. */
    public static final double GAP_SECONDS = 600;

    public double seconds() {
        return toSeconds - fromSeconds;
    }

    /** The OOM events of a timeline as episodes, in time order. */
    public static List<OomEpisode> of(List<TimelineEvent> events) {
        List<TimelineEvent> sorted = events.stream()
                .filter(e -> e.kind() == EventKind.OOM_KILL || e.kind() == EventKind.OOMD_KILL)
                .sorted(Comparator.comparingDouble(TimelineEvent::seconds)).toList();
        List<OomEpisode> out = new ArrayList<>();
        List<TimelineEvent> kernel = new ArrayList<>();
        for (TimelineEvent e : sorted) {
            if (e.kind() == EventKind.OOMD_KILL) {
                out.add(new OomEpisode(EventKind.OOMD_KILL, e.seconds(), e.seconds(), e.time(), e.time(), 1, e.count(),
                        Map.of(name(e), Math.max(e.count(), 0))));
                continue;
            }
            if (!kernel.isEmpty() && e.seconds() - kernel.get(kernel.size() - 1).seconds() >= GAP_SECONDS) {
                out.add(kernelEpisode(kernel));
                kernel = new ArrayList<>();
            }
            kernel.add(e);
        }
        if (!kernel.isEmpty()) out.add(kernelEpisode(kernel));
        out.sort(Comparator.comparingDouble(OomEpisode::fromSeconds));
        return List.copyOf(out);
    }

    private static OomEpisode kernelEpisode(List<TimelineEvent> kills) {
        Map<String, Long> byCommand = new LinkedHashMap<>();
        long processes = 0;
        for (TimelineEvent e : kills) {
            long n = e.count() > 0 ? e.count() : 1; // the kernel kills one process per event
            processes += n;
            byCommand.merge(name(e), n, Long::sum);
        }
        Map<String, Long> sorted = new LinkedHashMap<>();
        byCommand.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(x -> sorted.put(x.getKey(), x.getValue()));
        TimelineEvent first = kills.get(0), last = kills.get(kills.size() - 1);
        return new OomEpisode(EventKind.OOM_KILL, first.seconds(), last.seconds(), first.time(), last.time(), kills.size(),
                processes, sorted);
    }

    private static String name(TimelineEvent e) {
        if (!e.command().isEmpty()) return e.command();
        return e.title().isEmpty() ? "?" : e.title();
    }
}
