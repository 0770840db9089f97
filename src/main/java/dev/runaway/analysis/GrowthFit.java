// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import java.util.Locale;

/**
 * Fits a short series of (seconds, count) points: a straight line, and a straight line through
 * the logarithms (exponential growth). The shape is whichever fits clearly better, or steady
 * when the slope is negligible, or shrinking. Rates are functions of the samples only, so a
 * replayed recording gets the same figures as the live run.
 *
 * @param perSecond the linear slope, in units per second
 * @param growthRate the exponential rate k (count ~ e^(k t)), per second; 0 when not exponential
 */
public record GrowthFit(GrowthShape shape, double perSecond, double growthRate) {
    /** Below this many units per second (or 1% of the mean per second), a count is steady. */
    /** Not fitted (yet): too few points, or figures read back before their fit. */
    public static final GrowthFit UNKNOWN = new GrowthFit(GrowthShape.UNKNOWN, 0, 0);
    static final double STEADY_PER_SECOND = 0.5;
    /** Exponential must explain the points this much better (R squared) than a line. */
    static final double EXPONENTIAL_MARGIN = 0.02;

    public static GrowthFit of(double[] seconds, double[] values, int n) {
        if (n < 3 || seconds[n - 1] - seconds[0] < 0.5) return new GrowthFit(GrowthShape.UNKNOWN, 0, 0);
        Line linear = Line.fit(seconds, values, n, false);
        double mean = 0;
        for (int i = 0; i < n; i++) mean += values[i] / n;
        if (Math.abs(linear.slope) < Math.max(STEADY_PER_SECOND, 0.01 * mean)) {
            return new GrowthFit(GrowthShape.STEADY, linear.slope, 0);
        }
        if (linear.slope < 0) return new GrowthFit(GrowthShape.SHRINKING, linear.slope, 0);
        boolean allPositive = true;
        for (int i = 0; i < n; i++) allPositive &= values[i] > 0;
        if (allPositive) {
            Line log = Line.fit(seconds, values, n, true);
            double grew = values[n - 1] / Math.max(1, values[0]);
            if (log.r2 > linear.r2 + EXPONENTIAL_MARGIN && grew >= 1.5 && log.slope > 0) {
                return new GrowthFit(GrowthShape.EXPONENTIAL, linear.slope, log.slope);
            }
        }
        return new GrowthFit(GrowthShape.LINEAR, linear.slope, 0);
    }

    /** Least squares; with {@code logarithm}, of ln(value). */
    private record Line(double slope, double r2) {
        static Line fit(double[] x, double[] rawY, int n, boolean logarithm) {
            double sx = 0, sy = 0;
            double[] y = new double[n];
            for (int i = 0; i < n; i++) {
                y[i] = logarithm ? Math.log(rawY[i]) : rawY[i];
                sx += x[i];
                sy += y[i];
            }
            double mx = sx / n, my = sy / n, sxx = 0, sxy = 0, syy = 0;
            for (int i = 0; i < n; i++) {
                sxx += (x[i] - mx) * (x[i] - mx);
                sxy += (x[i] - mx) * (y[i] - my);
                syy += (y[i] - my) * (y[i] - my);
            }
            if (sxx == 0) return new Line(0, 0);
            double slope = sxy / sxx;
            double r2 = syy == 0 ? 1 : (sxy * sxy) / (sxx * syy);
            return new Line(slope, r2);
        }
    }

    /** Seconds until a count growing by this fit from {@code now} reaches {@code limit}; -1 never. */
    public double secondsUntil(double now, double limit) {
        if (limit <= now) return 0;
        if (shape == GrowthShape.EXPONENTIAL && growthRate > 0 && now > 0) return Math.log(limit / now) / growthRate;
        if ((shape == GrowthShape.LINEAR || shape == GrowthShape.EXPONENTIAL) && perSecond > 0) {
            return (limit - now) / perSecond;
        }
        return -1;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s %+.1f/s", shape.json(), perSecond);
    }
}
