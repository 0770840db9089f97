package dev.runaway.metrics;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.StateSetSnapshot;

/**
 * Shorthands over the client's snapshot builders: one metric family at a time, data points
 * added as (labels, value). A family with no data points is left out of the scrape.
 */
final class Families {
    private final MetricSnapshots.Builder out = MetricSnapshots.builder();

    Gauge gauge(String name, String help) {
        return new Gauge(name, help);
    }

    Counter counter(String name, String help) {
        return new Counter(name, help);
    }

    States states(String name, String help) {
        return new States(name, help);
    }

    MetricSnapshots build() {
        return out.build();
    }

    final class Gauge {
        private final GaugeSnapshot.Builder b;
        private boolean any;

        private Gauge(String name, String help) {
            b = GaugeSnapshot.builder().name(name).help(help);
        }

        Gauge add(Labels labels, double value) {
            b.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(labels).value(value).build());
            any = true;
            return this;
        }

        Gauge add(double value) {
            return add(Labels.EMPTY, value);
        }

        void done() {
            if (any) out.metricSnapshot(b.build());
        }
    }

    final class Counter {
        private final CounterSnapshot.Builder b;
        private boolean any;

        private Counter(String name, String help) {
            b = CounterSnapshot.builder().name(name).help(help);
        }

        Counter add(Labels labels, double value) {
            b.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(labels).value(value).build());
            any = true;
            return this;
        }

        Counter add(double value) {
            return add(Labels.EMPTY, value);
        }

        void done() {
            if (any) out.metricSnapshot(b.build());
        }
    }

    /** An OpenMetrics state set: one series per state, 1 for the state it is in. */
    final class States {
        private final StateSetSnapshot.Builder b;
        private boolean any;

        private States(String name, String help) {
            b = StateSetSnapshot.builder().name(name).help(help);
        }

        States add(Labels labels, Enum<?>[] states, String current) {
            var point = StateSetSnapshot.StateSetDataPointSnapshot.builder().labels(labels);
            for (Enum<?> s : states) {
                String name = s.name().toLowerCase(java.util.Locale.ROOT);
                point.state(name, name.equals(current));
            }
            b.dataPoint(point.build());
            any = true;
            return this;
        }

        void done() {
            if (any) out.metricSnapshot(b.build());
        }
    }
}
