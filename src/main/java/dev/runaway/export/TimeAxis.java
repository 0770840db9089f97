// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.export;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A chart's time axis: seconds on the timeline's axis shown as local clock time, with ticks at
 * steps a person counts in (1 s, 5 s, 15 s, 1 min, 10 min, 1 h, 6 h, 1 day...) aligned to the
 * clock, and the date under a tick wherever the day changes when the range spans days.
 *
 * @param started the wall-clock time at second 0
 */
public record TimeAxis(Instant started, double from, double to, ZoneId zone) {
    private static final double[] STEPS = {0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800,
            3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800};
    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("EEE d MMM", Locale.ROOT);
    private static final DateTimeFormatter FULL_DATE = DateTimeFormatter.ofPattern("EEE d MMM yyyy", Locale.ROOT);

    /** One tick: where, its clock label, and the date under it ("" when not needed). */
    public record Tick(double seconds, String time, String date) {
    }

    public TimeAxis {
        if (!(to > from)) {
            double mid = Double.isNaN(from) ? 0 : from;
            from = mid - 0.5;
            to = mid + 0.5;
        }
    }

    public double fraction(double seconds) {
        return (seconds - from) / (to - from);
    }

    public ZonedDateTime local(double seconds) {
        return started.plusNanos(Math.round(seconds * 1e9)).atZone(zone);
    }

    public boolean spansDays() {
        return !local(from).toLocalDate().equals(local(to).toLocalDate());
    }

    /** Ticks at the smallest clock step that leaves room: at most {@code maxTicks}. */
    public List<Tick> ticks(int maxTicks) {
        double step = STEPS[STEPS.length - 1];
        for (double s : STEPS) {
            if ((to - from) / s <= maxTicks) {
                step = s;
                break;
            }
        }
        // Align to the local midnight before the range, so ticks fall on round clock times.
        ZonedDateTime midnight = local(from).toLocalDate().atStartOfDay(zone);
        double base = java.time.Duration.between(started, midnight.toInstant()).toNanos() / 1e9;
        long first = (long) Math.ceil((from - base) / step - 1e-9);
        List<Tick> ticks = new ArrayList<>();
        LocalDate previous = null;
        boolean days = spansDays();
        // Bounded whatever the range: past the largest step, ticks thin out instead of multiplying.
        while ((to - from) / step > maxTicks && step < 1e12) step *= 2;
        first = (long) Math.ceil((from - base) / step - 1e-9);
        for (long i = first; base + i * step <= to + 1e-9 && ticks.size() <= maxTicks; i++) {
            double at = base + i * step;
            ZonedDateTime t = local(at);
            String date = "";
            if (days && !t.toLocalDate().equals(previous)) date = t.format(DATE);
            previous = t.toLocalDate();
            ticks.add(new Tick(at, clock(t, step), date));
        }
        return ticks;
    }

    private static String clock(ZonedDateTime t, double step) {
        if (step >= 86400) return t.format(DATE);
        if (step >= 60) return t.format(DateTimeFormatter.ofPattern("HH:mm", Locale.ROOT));
        if (step >= 1) return t.format(DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT));
        return t.format(DateTimeFormatter.ofPattern("HH:mm:ss.S", Locale.ROOT));
    }

    /** The axis title: local time, its zone, and the day when the range lies within one. */
    public String title() {
        String zoneText = zone.getId();
        if (spansDays()) return "local time (" + zoneText + ")";
        return "local time (" + zoneText + "), " + local(from).format(FULL_DATE);
    }
}
