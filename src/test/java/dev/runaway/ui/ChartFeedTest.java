// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import dev.runaway.analysis.GrowthFit;
import dev.runaway.analysis.GrowthShape;
import dev.runaway.timeline.EventKind;
import dev.runaway.timeline.GroupPoint;
import dev.runaway.timeline.GroupScan;
import dev.runaway.timeline.PulsePoint;
import dev.runaway.timeline.Timeline;
import dev.runaway.timeline.TimelineEvent;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The chart feed without charts: the backlog then live points, each once, in order, off the caller's thread. */
class ChartFeedTest {

    static final class Recorded implements ChartFeed.Sink {
        final List<Double> seconds = new ArrayList<>();
        final List<Double> tasks = new ArrayList<>();
        final List<Double> groupSeconds = new ArrayList<>();
        final List<Double> groupTasks = new ArrayList<>();
        final List<String> events = new ArrayList<>();
        final List<String> threads = new ArrayList<>();

        @Override
        public synchronized void pulses(double[] s, double[] t, double[] m, double[] sw, double[] some, double[] full) {
            threads.add(Thread.currentThread().getName());
            for (int i = 0; i < s.length; i++) {
                seconds.add(s[i]);
                tasks.add(t[i]);
            }
        }

        @Override
        public synchronized void groupTasks(String command, double[] s, double[] t, boolean replace) {
            if (replace) {
                groupSeconds.clear();
                groupTasks.clear();
            }
            for (int i = 0; i < s.length; i++) {
                groupSeconds.add(s[i]);
                groupTasks.add(t[i]);
            }
        }

        @Override
        public synchronized void event(TimelineEvent e) {
            events.add(e.title());
        }
    }

    @Test
    void aReplayedBacklogAndLivePointsArriveOnceInOrder() throws Exception {
        Timeline timeline = new Timeline(Instant.EPOCH, 0, "test");
        for (int i = 0; i < 50; i++) timeline.add(pulse(i * 0.1, 100 + i));
        timeline.add(scan(1.0, 7));
        timeline.add(new TimelineEvent(2.0, Instant.EPOCH, EventKind.CAP_REACHED, "pids.max tool", "", 7, -1, "/tmp/tool", -1));
        Recorded sink = new Recorded();
        try (ChartFeed feed = new ChartFeed(timeline, sink).start()) {
            for (int i = 50; i < 80; i++) timeline.add(pulse(i * 0.1, 100 + i));
            feed.select("/tmp/tool");
            timeline.add(scan(9.0, 12));
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(5)).pollInterval(java.time.Duration.ofMillis(5)).until(() -> {
                synchronized (sink) {
                    return sink.seconds.size() >= 80 && sink.groupTasks.size() == 2;
                }
            });
            synchronized (sink) {
                assertThat(sink.seconds).hasSize(80).isSorted();
                assertThat(sink.tasks.get(79)).isEqualTo(179.0);
                assertThat(sink.groupSeconds).containsExactly(1.0, 9.0);
                assertThat(sink.groupTasks).containsExactly(7.0, 12.0);
                assertThat(sink.events).containsExactly("pids.max tool");
                assertThat(sink.threads).containsOnly("runaway-chart-feed");
            }
        }
    }

    @Test
    void aHeldFeedDrawsNothingAndOnReleaseDrawsAllThatCameMeanwhileOnce() throws Exception {
        Timeline timeline = new Timeline(Instant.EPOCH, 0, "test");
        timeline.add(pulse(0.0, 100));
        Recorded sink = new Recorded();
        try (ChartFeed feed = new ChartFeed(timeline, sink).start()) {
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(5)).until(() -> {
                synchronized (sink) {
                    return sink.seconds.size() == 1;
                }
            });
            feed.hold(true);
            for (int i = 1; i <= 20; i++) timeline.add(pulse(i * 0.1, 100 + i));
            timeline.add(new TimelineEvent(2.5, Instant.EPOCH, EventKind.STOP_STEP, "kill", "", 7, -1, "/tmp/tool", -1));
            // Longer than a batch: a feed that did not hold would have drawn them by now.
            org.awaitility.Awaitility.await().during(java.time.Duration.ofMillis(ChartFeed.BATCH_MILLIS + 500))
                    .atMost(java.time.Duration.ofSeconds(5)).until(() -> {
                        synchronized (sink) {
                            return sink.seconds.size() == 1 && sink.events.isEmpty();
                        }
                    });
            feed.hold(false);
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(5)).until(() -> {
                synchronized (sink) {
                    return sink.seconds.size() == 21 && sink.events.size() == 1;
                }
            });
            synchronized (sink) {
                assertThat(sink.seconds).isSorted().doesNotHaveDuplicates();
                assertThat(sink.events).containsExactly("kill");
            }
        }
    }

    private static PulsePoint pulse(double s, int tasks) {
        return new PulsePoint(s, Instant.EPOCH, tasks, 0, 0, 8L << 30, 4L << 30, 0, 0, 1.0, 0.5, 32768);
    }

    private static GroupScan scan(double s, int tasks) {
        GroupPoint g = new GroupPoint("/tmp/tool", tasks, 0, new GrowthFit(GrowthShape.LINEAR, 1, 0), 0, OptionalDouble.empty(), "", 1, tasks, true, false, List.of(), -1);
        return new GroupScan(s, Instant.EPOCH, 0, 100, List.of(g));
    }
}
