// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.metrics;

import dev.runaway.guard.HeldGroup;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

import java.util.List;
import java.util.function.Supplier;

/**
 * The guard's holds as series: one per held group (and, dry run, per group it would hold), so
 * an alert fires on a hold nobody has answered (packaging/prometheus/runaway-alerts.yml).
 */
final class HeldCollector implements MultiCollector {
    private final Supplier<List<HeldGroup>> held;

    HeldCollector(Supplier<List<HeldGroup>> held) {
        this.held = held;
    }

    @Override
    public MetricSnapshots collect() {
        GaugeSnapshot.Builder state = GaugeSnapshot.builder().name("runaway_guard_held")
                .help("1 for each group the guard holds (dry_run=\"true\": would hold); labels say why.");
        GaugeSnapshot.Builder since = GaugeSnapshot.builder().name("runaway_guard_held_since_seconds")
                .help("When the guard began holding the group (Unix time).");
        GaugeSnapshot.Builder processes = GaugeSnapshot.builder().name("runaway_guard_held_processes")
                .help("How many processes the hold reached.");
        for (HeldGroup h : held.get()) {
            Labels labels = Labels.of("command", h.key(), "cgroup", h.cgroup(), "rule", h.rule().name(), "lever", h.lever(),
                    "dry_run", Boolean.toString(h.dryRun()));
            state.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(labels).value(1).build());
            since.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(labels).value(h.since().toEpochMilli() / 1000.0).build());
            processes.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(labels).value(h.processes()).build());
        }
        return MetricSnapshots.of(state.build(), since.build(), processes.build());
    }
}
