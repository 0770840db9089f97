// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.export;

import dev.runaway.timeline.GroupScan;
import dev.runaway.timeline.PulsePoint;
import dev.runaway.timeline.RecordingReader;
import dev.runaway.timeline.Timeline;
import dev.runaway.timeline.TimelineEvent;

/**
 * A stretch of a timeline's axis in seconds since it started, both ends included. Negative
 * seconds are history from before the recording (OOM kills read from the journal).
 */
public record TimeRange(double from, double to) {
    public TimeRange {
        if (Double.isNaN(from) || Double.isNaN(to) || to < from) {
            throw new IllegalArgumentException("a time range runs forward: from " + from + " to " + to);
        }
        for (double end : new double[] {from, to}) {
            if (!Double.isInfinite(end) && Math.abs(end) > RecordingReader.MAX_SECONDS) {
                throw new IllegalArgumentException("a time range ends within ten years of the recording's start: " + end + " s is beyond");
            }
        }
    }

    public static TimeRange all() {
        return new TimeRange(Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY);
    }

    public boolean contains(double seconds) {
        return seconds >= from && seconds <= to;
    }

    public boolean bounded() {
        return !Double.isInfinite(from) && !Double.isInfinite(to);
    }

    /** A copy of the timeline holding only what falls in this range (same start, same axis). */
    public Timeline slice(Timeline timeline) {
        Timeline out = new Timeline(timeline.started(), 0, timeline.source());
        for (PulsePoint p : timeline.pulses()) if (contains(p.seconds())) out.add(p);
        for (GroupScan s : timeline.scans()) if (contains(s.seconds())) out.add(s);
        for (TimelineEvent e : timeline.events()) if (contains(e.seconds())) out.add(e);
        return out;
    }
}
