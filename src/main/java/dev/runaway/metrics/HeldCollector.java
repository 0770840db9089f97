// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.metrics;

import dev.runaway.guard.HeldGroup;
import dev.runaway.guard.HoldEnd;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The guard's holds as series: one per held group (and, dry run, per group it would hold), so
 * an alert fires on a hold nobody has answered (packaging/prometheus/runaway-rules.yml); and how
 * holds ended, counted, so a stop by the policy's kill-after is seen after the group is gone.
 */
final class HeldCollector implements MultiCollector {
    private final Supplier<List<HeldGroup>> held;
    private final Supplier<Map<HoldEnd, Long>> ends;

    HeldCollector(Supplier<List<HeldGroup>> held, Supplier<Map<HoldEnd, Long>> ends) {
        this.held = held;
        this.ends = ends;
    }

    @Override
    public MetricSnapshots collect() {
        Families f = new Families();
        Families.Gauge state = f.gauge("runaway_guard_held",
                "1 for each group the guard holds (dry_run=\"true\": would hold); labels say why.");
        Families.Gauge since = f.gauge("runaway_guard_held_since_seconds", "When the guard began holding the group (Unix time).");
        Families.Gauge processes = f.gauge("runaway_guard_held_processes", "How many processes the hold reached.");
        for (HeldGroup h : held.get()) {
            Labels labels = Labels.of("command", LabelValues.safe(h.key()), "cgroup", LabelValues.safe(h.cgroup()), "rule", h.rule().name(), "lever", h.lever(),
                    "dry_run", Boolean.toString(h.dryRun()));
            state.add(labels, 1);
            since.add(labels, h.since().toEpochMilli() / 1000.0);
            processes.add(labels, h.processes());
        }
        state.done();
        since.done();
        processes.done();
        Families.Counter ended = f.counter("runaway_guard_holds_ended",
                "Holds ended since the guard started, by how: released, stopped (a person asked), kill_after (nobody answered"
                        + " for the policy's kill-after: stopped to zero), gone (stopped elsewhere, or exited).");
        for (Map.Entry<HoldEnd, Long> e : ends.get().entrySet()) ended.add(Labels.of("how", e.getKey().label()), e.getValue());
        ended.done();
        return f.build();
    }
}
