// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline;

import dev.runaway.analysis.Chain;
import dev.runaway.analysis.Group;
import dev.runaway.analysis.GrowthFit;
import dev.runaway.analysis.GrowthSeries;
import dev.runaway.analysis.Snapshot;
import dev.runaway.model.Pressure;
import dev.runaway.model.ProcessIdentity;
import dev.runaway.model.PulseSample;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The second incident's runaway, made up for tests: a linear deploy.sh chain growing 32 tasks
 * and 250 MiB a second, pulses at 10 Hz and a scan a second, on fixed clocks.
 */
public final class SyntheticIncident {
    public static final long T0 = 1_000_000_000_000L;
    public static final Instant WALL = Instant.parse("2026-11-29T10:00:00Z");

    private SyntheticIncident() {
    }

    /** Pulse I (a tenth of a second each), unevenly spaced as a real sampler's. */
    public static PulseSample pulse(int i) {
        return pulse(i, (i % 3) * 1_234_567L);
    }

    /** Pulse I exactly at I tenths of a second: for counting pulses in a time range. */
    public static PulseSample evenPulse(int i) {
        return pulse(i, 0);
    }

    private static PulseSample pulse(int i, long jitterNanos) {
        long mono = T0 + i * 100_000_000L + jitterNanos;
        return new PulseSample(WALL.plusMillis(i * 100L), mono, 400 + 32 * i / 10, 90_000 + 32L * i / 10,
                24L << 30, (20L << 30) - (250L << 20) * i / 10, 8L << 30, 8L << 30,
                Optional.of(new Pressure(i * 0.5, i * 0.1, 0, 0)), 32768, 190_000);
    }

    /**
     * The scan at SECOND, its growth fitted on SERIES (fed here, as the analyzer feeds its own);
     * recursive from second 2, with 40 processes newly reparented at second 3.
     */
    public static Snapshot snapshot(int second, GrowthSeries series, String cgroup, long room) {
        int tasks = 1 + 32 * second;
        long rss = (250L << 20) * second;
        long mono = T0 + second * 1_000_000_000L + 7_654_321L;
        series.add(mono / 1e9, tasks, rss);
        GrowthFit fit = series.fitTasks();
        Chain chain = new Chain(new ProcessIdentity(100, 5), tasks, tasks, List.of("deploy.sh"), List.of(100));
        Group g = new Group("/tmp/deploy.sh", tasks, List.of(chain), true, second >= 2,
                second >= 2 ? List.of("deploy.sh", "python3 -m unittest", "deploy.sh") : List.of(), second >= 2 ? 3 : 1,
                rss, fit, series.bytesPerSecond(), OptionalDouble.of(60 - second), "memory", List.of(100), cgroup, room);
        return new Snapshot(WALL.plusSeconds(second), pulse(second * 10), 32, fit, List.of(g), 500 + tasks,
                1_000_000, 1_000_000, mono, second == 3 ? 40 : 0);
    }
}
