// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import java.util.ArrayList;

/**
 * A count's recent points (seconds, tasks, bytes), trimmed to a sliding window, and the growth
 * fitted on them. The analyzer keeps one per group; a replay feeds the recorded points through
 * the same class, so replayed rates equal live ones.
 */
public final class GrowthSeries {
    private final double windowSeconds;
    private final ArrayList<double[]> points = new ArrayList<>(); // {seconds, tasks, bytes}

    public GrowthSeries(double windowSeconds) {
        this.windowSeconds = windowSeconds;
    }

    public void add(double seconds, double tasks, double bytes) {
        points.add(new double[] {seconds, tasks, bytes});
        while (points.size() > 2 && seconds - points.get(0)[0] > windowSeconds) points.remove(0);
    }

    /** No point within the window before {@code seconds}: the series may be forgotten. */
    public boolean staleAt(double seconds) {
        return points.isEmpty() || seconds - points.get(points.size() - 1)[0] > windowSeconds;
    }

    public GrowthFit fitTasks() {
        return fit(1);
    }

    /** Bytes per second by a straight-line fit; 0 while there are too few points. */
    public double bytesPerSecond() {
        GrowthFit bytes = fit(2);
        return bytes.shape() == GrowthShape.UNKNOWN ? 0 : bytes.perSecond();
    }

    private GrowthFit fit(int column) {
        int n = points.size();
        double[] x = new double[n];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = points.get(i)[0];
            y[i] = points.get(i)[column];
        }
        return GrowthFit.of(x, y, n);
    }
}
