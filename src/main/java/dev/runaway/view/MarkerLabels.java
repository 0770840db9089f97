// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.view;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Where the console chart's marker labels go, in the band above the data: each label beside its
 * line, inside the plot (never clipped at an edge), in the first of a few rows where it covers no
 * other label; when no row is free, it joins the label it collides with ("stop · zero"), and
 * repeats of one text are counted ("cap pids.max tool ×2"), texts of one kind share their words
 * ("cap pids.max worker-1, tool"). Pixel positions are the view's,
 * measured by its font; the layout is decided here so tests drive it without a display.
 */
public final class MarkerLabels {
    /** Between a line and its label, and between two labels of a row. */
    public static final double GAP = 3;
    static final String JOIN = " · ";

    private MarkerLabels() {
    }

    /** A marker line at {@code x} pixels from the plot's left edge, with its label text. */
    public record Marker(double x, String text) {
    }

    /**
     * A label as drawn: its text, box ({@code left}, {@code width}) in the plot's pixels, its row
     * (0 the top), and the x of the first marker it names (where it is anchored).
     */
    public record Placed(String text, double left, double width, int row, double anchor) {
        public double right() {
            return left + width;
        }
    }

    /**
     * @param markers   the markers, in any order; those outside the plot or without text get no label
     * @param plotWidth the plot's width in pixels
     * @param rows      how many label rows fit above the data (at least one is used)
     * @param width     a label's width in pixels for its text (the view's font and padding)
     */
    public static List<Placed> layout(List<Marker> markers, double plotWidth, int rows, ToDoubleFunction<String> width) {
        List<Marker> sorted = markers.stream()
                .filter(m -> !m.text().isEmpty() && m.x() >= 0 && m.x() <= plotWidth)
                .sorted(Comparator.comparingDouble(Marker::x)).toList();
        List<List<Label>> lanes = new ArrayList<>();
        for (int r = 0; r < Math.max(1, rows); r++) lanes.add(new ArrayList<>());
        for (Marker m : sorted) {
            Label label = new Label(m.x());
            label.texts.add(m.text());
            label.fit(plotWidth, width);
            List<Label> free = lanes.stream().filter(l -> l.isEmpty() || label.left >= last(l).right() + GAP).findFirst().orElse(null);
            if (free != null) {
                free.add(label);
                continue;
            }
            // No row is free: join the label whose row frees up first, and then any before it the
            // joined label now reaches.
            List<Label> lane = lanes.stream().min(Comparator.comparingDouble(l -> last(l).right())).orElseThrow();
            Label joined = last(lane);
            joined.texts.add(m.text());
            joined.fit(plotWidth, width);
            while (lane.size() > 1 && lane.get(lane.size() - 2).right() + GAP > joined.left) {
                Label before = lane.remove(lane.size() - 2);
                before.texts.addAll(joined.texts);
                lane.set(lane.size() - 1, before);
                before.fit(plotWidth, width);
                joined = before;
            }
        }
        List<Placed> placed = new ArrayList<>();
        for (int r = 0; r < lanes.size(); r++) {
            for (Label l : lanes.get(r)) placed.add(new Placed(l.text(), l.left, l.width, r, l.anchor));
        }
        return placed;
    }

    private static Label last(List<Label> lane) {
        return lane.get(lane.size() - 1);
    }

    /** A label being laid out: the texts it names, anchored at its first marker. */
    private static final class Label {
        final double anchor;
        final List<String> texts = new ArrayList<>();
        double left;
        double width;

        Label(double anchor) {
            this.anchor = anchor;
        }

        double right() {
            return left + width;
        }

        /** Right of its line; left of it when that would cross the plot's right edge; always inside. */
        void fit(double plotWidth, ToDoubleFunction<String> measure) {
            width = Math.min(plotWidth, measure.applyAsDouble(text()));
            left = anchor + GAP;
            if (left + width > plotWidth) left = anchor - GAP - width;
            left = Math.max(0, Math.min(left, plotWidth - width));
        }

        /**
         * Each text once, in order, with its count when it repeats; texts of one kind (all but
         * their last word alike: "cap pids.max tool", "cap pids.max worker-1") share it once.
         */
        String text() {
            Map<String, Integer> counts = new LinkedHashMap<>();
            for (String t : texts) counts.merge(t, 1, Integer::sum);
            StringBuilder b = new StringBuilder();
            String kind = null;
            for (Map.Entry<String, Integer> e : counts.entrySet()) {
                String t = e.getKey();
                int space = t.lastIndexOf(' ');
                String k = space < 0 ? null : t.substring(0, space);
                if (b.length() > 0) b.append(k != null && k.equals(kind) ? ", " : JOIN);
                b.append(b.length() > 0 && k != null && k.equals(kind) ? t.substring(space + 1) : t);
                if (e.getValue() > 1) b.append(" \u00d7").append(e.getValue());
                kind = k;
            }
            return b.toString();
        }
    }
}
