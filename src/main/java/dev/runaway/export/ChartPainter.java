// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.export;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.Shape;
import java.awt.Stroke;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Line2D;
import java.awt.geom.Path2D;
import java.awt.geom.Rectangle2D;
import java.util.ArrayList;
import java.util.List;

/**
 * Draws a {@link Chart} on any Graphics2D: a BufferedImage's for PNG, JFreeSVG's for SVG, so both
 * look the same. Plain Java2D, no display needed (java.awt.headless=true over SSH). Layout, top
 * to bottom: title, subtitle, legend, the plot with its labelled marks, the time axis.
 */
public final class ChartPainter {
    private static final Font TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 18);
    private static final Font SUBTITLE = new Font(Font.SANS_SERIF, Font.PLAIN, 12);
    private static final Font TEXT = new Font(Font.SANS_SERIF, Font.PLAIN, 12);
    private static final Font BOLD = new Font(Font.SANS_SERIF, Font.BOLD, 12);
    private static final Font SMALL = new Font(Font.SANS_SERIF, Font.PLAIN, 11);
    private static final Font EMPTY = new Font(Font.SANS_SERIF, Font.PLAIN, 20);
    private static final Color INK = new Color(0x222222);
    private static final Color MUTED = new Color(0x666666);
    private static final Color GRID = new Color(0xe6e6e6);
    private static final Color FRAME = new Color(0x999999);
    private static final Color RIGHT = new Color(0x444444);
    private static final Stroke LINE = new BasicStroke(2.2f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND);
    private static final Stroke DASHED_LINE = new BasicStroke(2.2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10,
            new float[]{7, 4}, 0);
    private static final Stroke LEVEL = new BasicStroke(1.6f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10,
            new float[]{8, 5}, 0);
    private static final Stroke MARK = new BasicStroke(1.4f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10,
            new float[]{3, 3}, 0);
    private static final Stroke THIN = new BasicStroke(1f);
    private static final int PAD = 16;

    private final Chart chart;
    private final Graphics2D g;
    private final int width;
    private final int height;
    private Rectangle2D plot;
    private double band;
    private final List<double[]> markLabels = new ArrayList<>();
    private final List<Rectangle2D> taken = new ArrayList<>();

    private ChartPainter(Chart chart, Graphics2D g, int width, int height) {
        this.chart = chart;
        this.g = g;
        this.width = width;
        this.height = height;
    }

    /** Paints the chart over the whole {@code width} x {@code height} area of {@code g}. */
    public static void paint(Chart chart, Graphics2D g, int width, int height) {
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_STROKE_CONTROL, RenderingHints.VALUE_STROKE_PURE);
        g.setRenderingHint(RenderingHints.KEY_FRACTIONALMETRICS, RenderingHints.VALUE_FRACTIONALMETRICS_ON);
        new ChartPainter(chart, g, width, height).paint();
    }

    private void paint() {
        g.setColor(Color.WHITE);
        g.fill(new Rectangle2D.Double(0, 0, width, height));
        double y = header();
        y = legend(y);
        layoutPlot(y + 6);
        if (chart.empty()) {
            frame();
            centered(chart.emptyMessage(), EMPTY, MUTED);
            return;
        }
        grid();
        Shape clip = g.getClip();
        g.clip(new Rectangle2D.Double(plot.getX(), plot.getY() - 1, plot.getWidth() + 1, plot.getHeight() + 2));
        bars();
        levels();
        lines();
        marksLines();
        g.setClip(clip);
        frame();
        levelLabels();
        marksLabels();
        barLabels();
        peaks();
    }

    // ---- layout ----

    private double header() {
        g.setFont(TITLE);
        g.setColor(INK);
        FontMetrics t = g.getFontMetrics();
        double y = PAD + t.getAscent();
        text(g, chart.title(), PAD, (float) y);
        y += t.getDescent();
        if (!chart.subtitle().isEmpty()) {
            g.setFont(SUBTITLE);
            g.setColor(MUTED);
            FontMetrics s = g.getFontMetrics();
            y += 3 + s.getAscent();
            text(g, fit(chart.subtitle(), width - 2 * PAD, s), PAD, (float) y);
            y += s.getDescent();
        }
        return y;
    }

    /** One entry per line, level and kind of mark or bar, flowed left to right over rows. */
    private double legend(double top) {
        List<String> labels = new ArrayList<>();
        List<Legend> keys = new ArrayList<>();
        for (Chart.Line l : chart.lines()) add(labels, keys, l.label(), new Legend(l.color(), l.dashed() ? DASHED_LINE : LINE, false));
        for (Chart.Bar b : chart.bars()) add(labels, keys, b.legend(), new Legend(b.color(), null, true));
        for (Chart.Level l : chart.levels()) add(labels, keys, l.label(), new Legend(l.color(), LEVEL, false));
        for (Chart.Mark m : chart.marks()) add(labels, keys, m.legend(), new Legend(m.color(), MARK, false));
        if (labels.isEmpty() || chart.empty()) return top + 4;
        g.setFont(TEXT);
        FontMetrics f = g.getFontMetrics();
        double x = PAD;
        double row = f.getHeight() + 4;
        double y = top + 8;
        for (int i = 0; i < labels.size(); i++) {
            double w = 30 + f.stringWidth(labels.get(i)) + 18;
            if (x + w > width - PAD && x > PAD) {
                x = PAD;
                y += row;
            }
            Legend k = keys.get(i);
            double mid = y + row / 2;
            g.setColor(k.color);
            if (k.box) {
                g.fill(new Rectangle2D.Double(x + 6, mid - 6, 14, 12));
            } else if (k.stroke == MARK) {
                g.setStroke(MARK);
                g.draw(new Line2D.Double(x + 13, mid - 8, x + 13, mid + 8));
            } else {
                g.setStroke(k.stroke);
                g.draw(new Line2D.Double(x, mid, x + 24, mid));
            }
            g.setColor(INK);
            text(g, labels.get(i), (float) (x + 30), (float) (mid + f.getAscent() / 2.0 - 2));
            x += w;
        }
        return y + row;
    }

    private record Legend(Color color, Stroke stroke, boolean box) {
    }

    private static void add(List<String> labels, List<Legend> keys, String label, Legend key) {
        if (label.isEmpty()) return;
        int same = labels.indexOf(label);
        if (same >= 0 && keys.get(same).equals(key)) return; // the very same key: one entry
        if (same >= 0) {
            String base = label;
            label = base + " (" + (labels.stream().filter(l -> l.startsWith(base)).count() + 1) + ")";
        }
        labels.add(label);
        keys.add(key);
    }

    private void layoutPlot(double top) {
        g.setFont(SMALL);
        FontMetrics f = g.getFontMetrics();
        double labelWidth = 0;
        if (!chart.empty()) for (double v : chart.values().ticks()) labelWidth = Math.max(labelWidth, f.stringWidth(chart.values().label(v)));
        double left = PAD + 18 + labelWidth + 8;
        double rightWidth = 8;
        if (!chart.empty() && chart.right().isPresent()) {
            double w = 0;
            for (double v : chart.right().get().ticks()) w = Math.max(w, f.stringWidth(chart.right().get().label(v)));
            rightWidth = w + 8 + 18;
        }
        int dateLines = chart.time().spansDays() ? 2 : 1;
        double bottom = height - PAD - f.getHeight() - 6 - dateLines * f.getHeight() - 4;
        plot = new Rectangle2D.Double(left, top, width - PAD - rightWidth - left, Math.max(40, bottom - top));
        band = chart.empty() ? 0 : markRows() * rowHeight();
        plot = new Rectangle2D.Double(left, top + band, plot.getWidth(), Math.max(40, bottom - top - band));
    }

    private double rowHeight() {
        g.setFont(TEXT);
        return g.getFontMetrics().getHeight() + 3;
    }

    /**
     * Gives each mark's label a row in a band above the plot, the first row where it overlaps no
     * other label: steps a few milliseconds apart stack instead of covering each other or the data.
     */
    private int markRows() {
        g.setFont(TEXT);
        FontMetrics f = g.getFontMetrics();
        List<List<Rectangle2D>> rows = new ArrayList<>();
        markLabels.clear();
        for (Chart.Mark m : chart.marks()) {
            double w = f.stringWidth(m.label()) + 8;
            double px = x(m.seconds());
            double left = px + w > plot.getMaxX() ? px - w : px;
            int row = 0;
            while (true) {
                if (row == rows.size()) rows.add(new ArrayList<>());
                Rectangle2D r = new Rectangle2D.Double(left - 2, row, w + 4, 0.5);
                if (rows.get(row).stream().noneMatch(t -> t.intersects(r))) {
                    rows.get(row).add(r);
                    markLabels.add(new double[]{left, row, w});
                    break;
                }
                row++;
            }
        }
        return rows.size();
    }

    private double x(double seconds) {
        return plot.getX() + chart.time().fraction(seconds) * plot.getWidth();
    }

    private double y(double value) {
        return y(value, false);
    }

    private ValueAxis axis(boolean right) {
        return right ? chart.right().orElse(chart.values()) : chart.values();
    }

    private double y(double value, boolean right) {
        return plot.getMaxY() - axis(right).fraction(value) * plot.getHeight();
    }

    // ---- axes ----

    private void grid() {
        g.setFont(SMALL);
        FontMetrics f = g.getFontMetrics();
        g.setStroke(THIN);
        for (double v : chart.values().ticks()) {
            double py = y(v);
            g.setColor(GRID);
            g.draw(new Line2D.Double(plot.getX(), py, plot.getMaxX(), py));
            g.setColor(MUTED);
            String s = chart.values().label(v);
            text(g, s, (float) (plot.getX() - 6 - f.stringWidth(s)), (float) (py + f.getAscent() / 2.0 - 1));
        }
        int maxTicks = Math.max(2, (int) (plot.getWidth() / 95));
        double labelY = plot.getMaxY() + 4 + f.getAscent();
        for (TimeAxis.Tick t : chart.time().ticks(maxTicks)) {
            double px = x(t.seconds());
            if (px < plot.getX() - 0.5 || px > plot.getMaxX() + 0.5) continue;
            g.setColor(GRID);
            g.draw(new Line2D.Double(px, plot.getY(), px, plot.getMaxY()));
            g.setColor(MUTED);
            g.draw(new Line2D.Double(px, plot.getMaxY(), px, plot.getMaxY() + 3));
            centerText(t.time(), px, labelY);
            if (!t.date().isEmpty()) {
                g.setFont(BOLD);
                centerText(t.date(), px, labelY + f.getHeight());
                g.setFont(SMALL);
            }
        }
        chart.right().ifPresent(r -> {
            g.setColor(RIGHT);
            for (double v : r.ticks()) {
                double py = y(v, true);
                g.draw(new Line2D.Double(plot.getMaxX(), py, plot.getMaxX() + 3, py));
                text(g, r.label(v), (float) (plot.getMaxX() + 6), (float) (py + f.getAscent() / 2.0 - 1));
            }
            String title = r.title() + " \u2192";
            var saved = g.getTransform();
            g.rotate(Math.PI / 2);
            text(g, title, (float) (plot.getCenterY() - f.stringWidth(title) / 2.0), (float) -(width - PAD - f.getAscent() + 2));
            g.setTransform(saved);
        });
        g.setColor(MUTED);
        String time = chart.time().title();
        text(g, time, (float) (plot.getCenterX() - f.stringWidth(time) / 2.0), (float) (height - PAD));
        String value = (chart.right().isPresent() ? "\u2190 " : "") + chart.values().title() + (chart.values().log() ? " (log scale)" : "");
        var saved = g.getTransform();
        g.rotate(-Math.PI / 2);
        text(g, value, (float) (-plot.getCenterY() - f.stringWidth(value) / 2.0), (float) (PAD + f.getAscent() - 2));
        g.setTransform(saved);
    }

    private void frame() {
        g.setColor(FRAME);
        g.setStroke(THIN);
        g.draw(plot);
    }

    private void centerText(String s, double cx, double baseline) {
        FontMetrics f = g.getFontMetrics();
        double left = Math.max(2, Math.min(width - 2 - f.stringWidth(s), cx - f.stringWidth(s) / 2.0));
        text(g, s, (float) left, (float) baseline);
    }

    private void centered(String message, Font font, Color color) {
        g.setFont(font);
        g.setColor(color);
        FontMetrics f = g.getFontMetrics();
        text(g, message, (float) (plot.getCenterX() - f.stringWidth(message) / 2.0),
                (float) (plot.getCenterY() + f.getAscent() / 2.0));
    }

    // ---- data ----

    private void lines() {
        for (Chart.Line l : chart.lines()) {
            g.setColor(l.color());
            g.setStroke(l.dashed() ? DASHED_LINE : LINE);
            g.draw(path(l));
        }
    }

    /**
     * The line in pixels, at most four points per pixel column (first, lowest, highest, last), so
     * an hour of pulses stays a small SVG and every peak is still drawn.
     */
    private Path2D path(Chart.Line l) {
        Path2D.Double p = new Path2D.Double();
        boolean open = false;
        long column = Long.MIN_VALUE;
        double first = 0, low = 0, high = 0, last = 0, px = 0;
        int n = 0;
        for (int i = 0; i < l.size(); i++) {
            double v = l.values()[i];
            if (Double.isNaN(v)) {
                if (n > 0) open = flush(p, open, px, first, low, high, last, n);
                n = 0;
                open = false;
                continue;
            }
            double xi = x(l.seconds()[i]);
            double yi = y(v, l.right());
            long c = (long) Math.floor(xi);
            if (c != column && n > 0) {
                open = flush(p, open, px, first, low, high, last, n);
                n = 0;
            }
            if (n == 0) {
                column = c;
                px = xi;
                first = low = high = yi;
            }
            low = Math.min(low, yi);
            high = Math.max(high, yi);
            last = yi;
            n++;
        }
        if (n > 0) flush(p, open, px, first, low, high, last, n);
        return p;
    }

    private static boolean flush(Path2D.Double p, boolean open, double x, double first, double low, double high,
                                 double last, int n) {
        if (!open) p.moveTo(x, first);
        else p.lineTo(x, first);
        if (n > 1) {
            p.lineTo(x, low);
            p.lineTo(x, high);
            p.lineTo(x, last);
        }
        return true;
    }

    private void levels() {
        g.setStroke(LEVEL);
        for (Chart.Level l : chart.levels()) {
            if (l.value() > axis(l.right()).max()) continue;
            g.setColor(l.color());
            g.draw(new Line2D.Double(plot.getX(), y(l.value(), l.right()), plot.getMaxX(), y(l.value(), l.right())));
        }
    }

    /** Labels at the right end above each level; a level above the axis is named at the top. */
    private void levelLabels() {
        g.setFont(TEXT);
        FontMetrics f = g.getFontMetrics();
        for (Chart.Level l : chart.levels()) {
            boolean above = l.value() > axis(l.right()).max();
            String s = above ? "\u25b2 " + l.label() + " (above the chart)" : l.label();
            double w = f.stringWidth(s) + 8;
            double top = above ? plot.getY() + 4 : y(l.value(), l.right()) - f.getHeight() - 3;
            Rectangle2D r = place(new Rectangle2D.Double(plot.getMaxX() - w - 4, top, w, f.getHeight()), f.getHeight() + 2, false);
            label(s, r, l.color(), f);
        }
    }

    private void marksLines() {
        g.setStroke(MARK);
        for (Chart.Mark m : chart.marks()) {
            g.setColor(m.color());
            g.draw(new Line2D.Double(x(m.seconds()), plot.getY(), x(m.seconds()), plot.getMaxY()));
        }
    }

    /** Each mark's label in its row of the band above the plot, joined to its line. */
    private void marksLabels() {
        g.setFont(TEXT);
        FontMetrics f = g.getFontMetrics();
        double rowHeight = rowHeight();
        double bandTop = plot.getY() - band;
        for (int i = 0; i < chart.marks().size(); i++) {
            Chart.Mark m = chart.marks().get(i);
            double[] at = markLabels.get(i);
            double top = bandTop + at[1] * rowHeight;
            double px = x(m.seconds());
            g.setColor(m.color());
            g.setStroke(MARK);
            g.draw(new Line2D.Double(px, top + 2, px, plot.getY()));
            label(m.label(), new Rectangle2D.Double(at[0] + (at[0] < px ? -3 : 3), top, at[2], f.getHeight()), m.color(), f);
        }
    }

    private void bars() {
        for (Chart.Bar b : chart.bars()) {
            double x0 = x(b.from()), x1 = x(b.to());
            if (x1 - x0 < 8) {
                double mid = (x0 + x1) / 2;
                x0 = mid - 4;
                x1 = mid + 4;
            }
            double top = y(b.value());
            Rectangle2D r = new Rectangle2D.Double(x0, top, x1 - x0, plot.getMaxY() - top);
            g.setColor(new Color(b.color().getRed(), b.color().getGreen(), b.color().getBlue(), 170));
            g.fill(r);
            g.setColor(b.color());
            g.setStroke(THIN);
            g.draw(r);
        }
    }

    /** The count in bold over its words above each bar, moved up (or down) clear of the others. */
    private void barLabels() {
        for (Chart.Bar b : chart.bars()) {
            g.setFont(BOLD);
            FontMetrics bf = g.getFontMetrics();
            g.setFont(SMALL);
            FontMetrics sf = g.getFontMetrics();
            double w = Math.max(bf.stringWidth(b.valueLabel()), sf.stringWidth(b.label())) + 8;
            double h = bf.getHeight() + (b.label().isEmpty() ? 0 : sf.getHeight());
            double cx = (x(b.from()) + x(b.to())) / 2;
            double left = Math.max(plot.getX() + 2, Math.min(plot.getMaxX() - w - 2, cx - w / 2));
            double top = Math.max(plot.getY() + 2, y(b.value()) - h - 4);
            Rectangle2D r = place(new Rectangle2D.Double(left, top, w, h), h + 2, false);
            g.setColor(new Color(255, 255, 255, 215));
            g.fill(r);
            g.setColor(b.color().darker());
            g.setFont(BOLD);
            text(g, b.valueLabel(), (float) (r.getCenterX() - bf.stringWidth(b.valueLabel()) / 2.0),
                    (float) (r.getY() + bf.getAscent()));
            g.setFont(SMALL);
            g.setColor(INK);
            text(g, b.label(), (float) (r.getCenterX() - sf.stringWidth(b.label()) / 2.0),
                    (float) (r.getY() + bf.getHeight() + sf.getAscent()));
            if (r.getMaxY() < y(b.value()) - 6) {
                g.setColor(b.color());
                g.setStroke(THIN);
                g.draw(new Line2D.Double(cx, r.getMaxY(), cx, y(b.value())));
            }
        }
    }

    /** The highest point of a line, dotted and labelled with its value and clock time. */
    private void peaks() {
        g.setFont(BOLD);
        FontMetrics f = g.getFontMetrics();
        for (Chart.Line l : chart.lines()) {
            if (!l.annotatePeak() || l.size() == 0) continue;
            int best = -1;
            for (int i = 0; i < l.size(); i++) {
                if (!Double.isNaN(l.values()[i]) && (best < 0 || l.values()[i] > l.values()[best])) best = i;
            }
            if (best < 0 || l.values()[best] <= 0) continue; // a flat zero has no peak to point at
            double px = x(l.seconds()[best]), py = y(l.values()[best], l.right());
            g.setColor(l.color());
            g.fill(new Ellipse2D.Double(px - 4, py - 4, 8, 8));
            ValueAxis a = axis(l.right());
            String value = a.unit() == ValueAxis.Unit.BYTES ? dev.runaway.model.Units.bytes(Math.round(l.values()[best]))
                    : a.label(l.values()[best]);
            String s = "peak " + value + " at "
                    + chart.time().local(l.seconds()[best]).format(java.time.format.DateTimeFormatter.ofPattern("HH:mm:ss"));
            double w = f.stringWidth(s) + 8;
            double left = px - w - 8 >= plot.getX() ? px - w - 8 : px + 8;
            double top = Math.max(plot.getY() + 2, Math.min(plot.getMaxY() - f.getHeight() - 2, py - f.getHeight() - 6));
            Rectangle2D r = place(new Rectangle2D.Double(left, top, w, f.getHeight()), f.getHeight() + 2, true);
            label(s, r, l.color().darker(), f);
        }
    }

    /**
     * Where a label goes: the wanted place if free, else the nearest free one a row at a time
     * (down first when {@code downFirst}, up first otherwise), kept inside the plot.
     */
    private Rectangle2D place(Rectangle2D wanted, double row, boolean downFirst) {
        for (int k = 0; k < 40; k++) {
            int step = (k + 1) / 2 * (k % 2 == 1 ? 1 : -1) * (downFirst ? 1 : -1);
            double top = wanted.getY() + step * row;
            if (top < plot.getY() + 1 || top + wanted.getHeight() > plot.getMaxY() - 1) continue;
            Rectangle2D r = new Rectangle2D.Double(wanted.getX(), top, wanted.getWidth(), wanted.getHeight());
            boolean free = true;
            for (Rectangle2D t : taken) free &= !t.intersects(r);
            if (free) {
                taken.add(r);
                return r;
            }
        }
        taken.add(wanted);
        return wanted;
    }

    private void label(String s, Rectangle2D r, Color color, FontMetrics f) {
        g.setColor(new Color(255, 255, 255, 215));
        g.fill(r);
        g.setColor(color);
        text(g, s, (float) (r.getX() + 4), (float) (r.getY() + f.getAscent()));
    }

    private static String fit(String s, double max, FontMetrics f) {
        if (f.stringWidth(s) <= max) return s;
        String t = s;
        while (t.length() > 1 && f.stringWidth(t + "\u2026") > max) t = t.substring(0, t.length() - 1);
        return t + "\u2026";
    }

    /** Every string a chart draws: process names may hold control characters, which are invalid in SVG. */
    private static void text(Graphics2D g, String s, float x, float y) {
        g.drawString(dev.runaway.model.SafeText.terminal(s), x, y);
    }
}
