package dev.runaway.metrics;

import dev.runaway.analysis.Group;
import dev.runaway.analysis.Snapshot;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Refusals at a group's cap, summed over every scan into a counter per group: the analysis
 * counts them per scan (pids.events' max since the last scan), and a scrape every 15 s would
 * see only the last scan's share. A group that vanishes is forgotten (its counter starts again
 * from 0 if it comes back, which Prometheus's rate() treats as a reset). Fed on the scan thread.
 */
public final class RefusalCounts {
    private final Map<String, Long> totals = new HashMap<>();
    private final Set<String> known = new HashSet<>(); // groups whose refusals the kernel counts

    public synchronized void scanned(Snapshot s) {
        Set<String> present = new HashSet<>();
        for (Group g : s.groups()) {
            String key = key(g);
            present.add(key);
            if (g.forksRefused() < 0) continue;
            known.add(key);
            totals.merge(key, g.forksRefused(), Long::sum);
        }
        totals.keySet().retainAll(present);
        known.retainAll(present);
    }

    /** The group's refusals so far; empty where its limit keeps no count (pid_max, threads-max, RLIMIT_NPROC). */
    public synchronized OptionalLong total(Group g) {
        String key = key(g);
        return known.contains(key) ? OptionalLong.of(totals.getOrDefault(key, 0L)) : OptionalLong.empty();
    }

    private static String key(Group g) {
        return g.command() + '\0' + g.cgroup();
    }
}
