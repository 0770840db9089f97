// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.export;

import java.awt.Color;
import java.util.List;
import java.util.Optional;

/**
 * One chart as data, ready to paint: what {@link Charts} builds from a timeline and
 * {@link ChartPainter} draws the same way into a PNG or an SVG. A chart without data carries the
 * words to show instead ({@link #emptyMessage}).
 *
 * @param name         the file name without extension: "tasks", "memory", "pressure", "oom"
 * @param subtitle     the source, and the chart's story in figures
 * @param right        a second value axis on the right, for the machine's figures when they would
 *                     flatten the groups' lines on a shared one
 * @param emptyMessage "" when there is data; otherwise what the image says instead
 */
public record Chart(String name, String title, String subtitle, TimeAxis time, ValueAxis values,
                    Optional<ValueAxis> right, List<Line> lines, List<Level> levels, List<Mark> marks, List<Bar> bars,
                    String emptyMessage) {

    /** A series over time; NaN values break the line. {@code right}: read on the right axis. */
    public record Line(String label, Color color, double[] seconds, double[] values, boolean dashed, boolean annotatePeak,
                       boolean right) {
        public int size() {
            return seconds.length;
        }
    }

    /** A horizontal level: a limit (memory total, a cgroup's pids.max). */
    public record Level(String label, double value, Color color, boolean right) {
    }

    /** A labelled vertical line at a moment: a cap reached, a stop step, an OOM kill. */
    public record Mark(double seconds, String label, Color color, String legend) {
    }

    /** A bar from the bottom to {@code value}, {@code from} to {@code to} wide (an instant when equal). */
    public record Bar(double from, double to, double value, String valueLabel, String label, Color color, String legend) {
    }

    public boolean empty() {
        return !emptyMessage.isEmpty();
    }

    /** Distinct, readable on white, and the same in every chart (Tableau 10). */
    public static final Color[] PALETTE = {new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c),
            new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x17becf), new Color(0xbcbd22)};
    public static final Color TOTAL = new Color(0x444444);
    public static final Color CAP = new Color(0xd62728);
    public static final Color STOP = new Color(0x6a3d9a);
    public static final Color OOM = new Color(0xb2182b);
    public static final Color OOMD = new Color(0xe6550d);
}
