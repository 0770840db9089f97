// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.export;

import java.util.Locale;

/** What an export writes. */
public enum Format {
    /** Each chart as a PNG, drawn by {@link ChartPainter} into a BufferedImage. */
    PNG,
    /** Each chart as an SVG, drawn by the same painter into JFreeSVG's Graphics2D. */
    SVG,
    /** pulses.csv, groups.csv, events.csv. */
    CSV,
    /** incident.json: header, summary, every series and the events. */
    JSON,
    /** report.html (charts inlined) and report.md (beside the chart PNGs). */
    REPORT;

    public String option() {
        return name().toLowerCase(Locale.ROOT);
    }
}
