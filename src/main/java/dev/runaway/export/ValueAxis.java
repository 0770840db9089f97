// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.export;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A chart's value axis: its range, scale and unit, with tick values at nice steps (1, 2, 2.5, 5
 * times a power of ten; powers of ten on a log scale) and their labels in the unit.
 *
 * @param title what the axis measures ("tasks", "memory used")
 * @param unit  how tick values are written
 * @param log   a log scale (counts spanning orders of magnitude); min is then above 0
 */
public record ValueAxis(String title, Unit unit, double min, double max, boolean log) {
    /** How values are written on ticks and labels. */
    public enum Unit {
        /** A count of tasks or processes: 1,200. */
        COUNT,
        /** Bytes, in MiB or GiB as the range asks: 512 MiB, 1.5 GiB. */
        BYTES,
        /** Percent: 12.5%. */
        PERCENT
    }

    private static final double MIB = 1024.0 * 1024;
    private static final double GIB = MIB * 1024;

    /** A linear axis from 0 to a nice value at or above {@code peak}. */
    public static ValueAxis linear(String title, Unit unit, double peak) {
        double top = peak > 0 ? peak : 1;
        double step = niceStep(top / 5, unit, top);
        return new ValueAxis(title, unit, 0, Math.ceil(top * 1.04 / step) * step, false);
    }

    /**
     * A linear axis around {@code low..high} that need not start at 0: the machine's figures on a
     * second axis, where the change is the story and the level is read off the ticks.
     */
    public static ValueAxis around(String title, Unit unit, double low, double high) {
        double span = Math.max(high - low, Math.max(high, 1) * 0.05);
        double step = niceStep(span * 1.1 / 5, unit, high);
        double min = Math.max(0, Math.floor((low - span * 0.05) / step) * step);
        double max = Math.ceil((high + span * 0.05) / step) * step;
        return new ValueAxis(title, unit, min, max, false);
    }

    /** A log axis from below {@code low} to the power of ten above {@code high}. */
    public static ValueAxis log(String title, Unit unit, double low, double high) {
        double min = Math.pow(10, Math.floor(Math.log10(Math.max(1, low)))) * 0.5;
        double max = Math.pow(10, Math.ceil(Math.log10(Math.max(10, high * 1.5))));
        return new ValueAxis(title, unit, min, max, true);
    }

    /** Where on [0, 1] from the bottom a value falls (clamped to the axis). */
    public double fraction(double value) {
        double v = Math.max(min, Math.min(max, value));
        if (log) return (Math.log10(v) - Math.log10(min)) / (Math.log10(max) - Math.log10(min));
        return (v - min) / (max - min);
    }

    public List<Double> ticks() {
        List<Double> ticks = new ArrayList<>();
        if (log) {
            for (double v = Math.pow(10, Math.ceil(Math.log10(min))); v <= max * 1.0001; v *= 10) ticks.add(v);
            return ticks;
        }
        double step = niceStep((max - min) / 5.5, unit, max);
        for (int i = 0; min + i * step <= max + step * 1e-6; i++) ticks.add(min + i * step);
        return ticks;
    }

    public String label(double value) {
        return format(unit, value, max);
    }

    /** A value written in the unit, the byte unit chosen by the axis top so all ticks share it. */
    static String format(Unit unit, double value, double top) {
        return switch (unit) {
            case COUNT -> String.format(Locale.ROOT, "%,d", Math.round(value));
            case PERCENT -> trim(value) + "%";
            case BYTES -> top >= 2 * GIB ? trim(value / GIB) + " GiB" : trim(value / MIB) + " MiB";
        };
    }

    /** Up to two decimals, none when whole. */
    static String trim(double v) {
        if (Math.abs(v - Math.rint(v)) < 1e-9) return String.format(Locale.ROOT, "%,d", Math.round(v));
        String s = String.format(Locale.ROOT, "%.2f", v);
        return s.replaceAll("0+$", "").replaceAll("\\.$", "");
    }

    /** 1, 2, 2.5 or 5 times a power of ten at or above {@code rough}, in the unit's own steps. */
    static double niceStep(double rough, Unit unit, double top) {
        double scale = unit == Unit.BYTES ? (top >= 2 * GIB ? GIB : MIB) : 1;
        double r = Math.max(rough / scale, unit == Unit.COUNT && scale == 1 ? 1 : 1e-9);
        double magnitude = Math.pow(10, Math.floor(Math.log10(r)));
        double step = magnitude * 10;
        for (double m : new double[]{1, 2, 2.5, 5, 10}) {
            if (magnitude * m >= r) {
                step = magnitude * m;
                break;
            }
        }
        if (unit == Unit.COUNT && step < 1) step = 1;
        return step * scale;
    }
}
