// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.export;

import org.jfree.svg.SVGGraphics2D;
import org.jfree.svg.ViewBox;

import javax.imageio.ImageIO;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A chart as PNG bytes or SVG text, both painted by {@link ChartPainter}: the PNG into a
 * BufferedImage (written by ImageIO), the SVG into JFreeSVG's Graphics2D. Neither needs a
 * display or a JavaFX toolkit, so exports work over SSH.
 */
public final class ChartImages {
    static {
        if (System.getProperty("java.awt.headless") == null) System.setProperty("java.awt.headless", "true");
    }

    private ChartImages() {
    }

    /** The chart as an image of {@code width x height} logical pixels times {@code scale} (2 for HiDPI). */
    public static BufferedImage image(Chart chart, int width, int height, int scale) {
        BufferedImage image = new BufferedImage(width * scale, height * scale, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.scale(scale, scale);
            ChartPainter.paint(chart, g, width, height);
        } finally {
            g.dispose();
        }
        return image;
    }

    public static byte[] png(Chart chart, int width, int height, int scale) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(128 * 1024);
        try {
            ImageIO.write(image(chart, width, height, scale), "png", out);
        } catch (IOException e) {
            throw new UncheckedIOException("PNG encoding failed", e); // in memory: does not happen
        }
        return out.toByteArray();
    }

    /** A standalone SVG document of {@code width x height} pixels. */
    public static String svg(Chart chart, int width, int height) {
        SVGGraphics2D g = new SVGGraphics2D(width, height);
        ChartPainter.paint(chart, g, width, height);
        return g.getSVGDocument();
    }

    /**
     * The bare {@code <svg>} element, to inline in an HTML page: with a view box so it scales to
     * the page, and its clip paths named for the chart so several charts on one page do not clash.
     */
    public static String svgElement(Chart chart, int width, int height) {
        SVGGraphics2D g = new SVGGraphics2D(width, height);
        g.setDefsKeyPrefix(chart.name() + "-");
        ChartPainter.paint(chart, g, width, height);
        return g.getSVGElement("chart-" + chart.name(), true, new ViewBox(0, 0, width, height), null, null);
    }
}
