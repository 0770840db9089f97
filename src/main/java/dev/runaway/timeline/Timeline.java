// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * An incident's timeline in memory: pulses, per-group scan figures and events on one time axis
 * (seconds since it started, from the monotonic clock). Written by the recorder or a file
 * reader, read by charts and exports. Memory stays bounded: past a limit the older half of a
 * series is thinned to every other point, so a long incident keeps its whole shape.
 */
public final class Timeline {
    /** Groups kept per scan, most severe first (and the console's selected group beside them): what charts and reports show. */
    public static final int GROUPS_PER_SCAN = 20;
    static final int MAX_PULSES = 150_000; // ~4 h at 10 Hz before thinning
    static final int MAX_SCANS = 15_000;
    static final int MAX_EVENTS = 20_000;

    private final Instant started;
    private final long startNanos;
    private final String source;
    private final List<PulsePoint> pulses = new ArrayList<>();
    private final List<GroupScan> scans = new ArrayList<>();
    private final List<TimelineEvent> events = new ArrayList<>();
    private final List<Consumer<PulsePoint>> pulseListeners = new CopyOnWriteArrayList<>();
    private final List<Consumer<GroupScan>> scanListeners = new CopyOnWriteArrayList<>();
    private final List<Consumer<TimelineEvent>> eventListeners = new CopyOnWriteArrayList<>();

    /**
     * @param started    wall clock at second 0
     * @param startNanos monotonic clock at second 0
     * @param source     what produced it: "console", "record", "drill linear", a file name
     */
    public Timeline(Instant started, long startNanos, String source) {
        this.started = started;
        this.startNanos = startNanos;
        this.source = source;
    }

    public static Timeline startingNow(String source) {
        return new Timeline(Instant.now(), System.nanoTime(), source);
    }

    public Instant started() {
        return started;
    }

    public String source() {
        return source;
    }

    /** Seconds on this timeline's axis of a monotonic clock reading. */
    public double secondsOf(long monotonicNanos) {
        return (monotonicNanos - startNanos) / 1e9;
    }

    /** Seconds on this timeline's axis of a wall-clock time (events from logs). */
    public double secondsOf(Instant wall) {
        return Duration.between(started, wall).toNanos() / 1e9;
    }

    public Instant timeAt(double seconds) {
        return started.plusNanos(Math.round(seconds * 1e9));
    }

    public void add(PulsePoint p) {
        synchronized (this) {
            pulses.add(p);
            if (pulses.size() > MAX_PULSES) thin(pulses);
        }
        for (Consumer<PulsePoint> l : pulseListeners) l.accept(p);
    }

    public void add(GroupScan s) {
        synchronized (this) {
            scans.add(s);
            if (scans.size() > MAX_SCANS) thin(scans);
        }
        for (Consumer<GroupScan> l : scanListeners) l.accept(s);
    }

    public void add(TimelineEvent e) {
        synchronized (this) {
            events.add(e);
            if (events.size() > MAX_EVENTS) events.remove(0);
        }
        for (Consumer<TimelineEvent> l : eventListeners) l.accept(e);
    }

    /** Drops every other point of the older half: resolution goes where time is long past. */
    private static <T> void thin(List<T> list) {
        int half = list.size() / 2;
        List<T> kept = new ArrayList<>(list.size());
        for (int i = 0; i < half; i++) if (i % 2 == 0) kept.add(list.get(i));
        kept.addAll(list.subList(half, list.size()));
        list.clear();
        list.addAll(kept);
    }

    public synchronized List<PulsePoint> pulses() {
        return List.copyOf(pulses);
    }

    public synchronized List<GroupScan> scans() {
        return List.copyOf(scans);
    }

    public synchronized List<TimelineEvent> events() {
        return List.copyOf(events);
    }

    /** The last second with data, 0 when empty. */
    public synchronized double endSeconds() {
        double end = 0;
        if (!pulses.isEmpty()) end = Math.max(end, pulses.get(pulses.size() - 1).seconds());
        if (!scans.isEmpty()) end = Math.max(end, scans.get(scans.size() - 1).seconds());
        for (TimelineEvent e : events) end = Math.max(end, e.seconds());
        return end;
    }

    public void onPulse(Consumer<PulsePoint> listener) {
        pulseListeners.add(listener);
    }

    public void onScan(Consumer<GroupScan> listener) {
        scanListeners.add(listener);
    }

    public void onEvent(Consumer<TimelineEvent> listener) {
        eventListeners.add(listener);
    }
}
