// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.export;

import dev.runaway.timeline.Timeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

import javax.imageio.ImageIO;
import javax.xml.parsers.DocumentBuilderFactory;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The charts painted to PNG and SVG from the incident fixtures: the stated size, the series'
 * colours present, the SVG valid XML that rsvg-convert renders to the same picture, and a chart
 * without data saying so. The PNGs are kept in target/export-gallery to be looked at.
 */
@org.junit.jupiter.api.Tag("process")
class ChartImagesTest {
    static final ZoneId UTC = ZoneId.of("UTC");
    static final Path GALLERY = Path.of("target", "export-gallery");

    static List<Chart> charts(Timeline t, OptionalLong memoryCap) {
        return Charts.of(t, IncidentSummary.of(t), Optional.empty(), UTC, memoryCap);
    }

    static Chart chart(Timeline t, String name) {
        return charts(t, OptionalLong.empty()).stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void aPngDecodesAtTheStatedSizeWithTheSeriesColours() throws Exception {
        Chart tasks = chart(IncidentFixtures.memoryCapped(), "tasks");
        for (int scale : new int[]{1, 2}) {
            BufferedImage png = ImageIO.read(new ByteArrayInputStream(ChartImages.png(tasks, 1200, 500, scale)));
            assertThat(png.getWidth()).isEqualTo(1200 * scale);
            assertThat(png.getHeight()).isEqualTo(500 * scale);
            assertThat(pixels(png, Chart.PALETTE[0])).as("the group's line").isGreaterThan(600 * scale);
            assertThat(pixels(png, Chart.TOTAL)).as("the machine's line").isGreaterThan(600 * scale);
            assertThat(pixels(png, Chart.OOM)).as("the OOM kill's mark").isGreaterThan(50 * scale);
        }
    }

    @Test
    void aChartWithoutDataSaysSoInTheImage() throws Exception {
        Chart oom = chart(IncidentFixtures.pidsCappedAndStopped(), "oom");
        assertThat(oom.empty()).isTrue();
        assertThat(ChartImages.svg(oom, 1200, 500)).contains("no OOM kills recorded");
        BufferedImage png = ChartImages.image(oom, 1200, 500, 1);
        assertThat(pixels(png, Chart.OOM) + pixels(png, Chart.OOMD)).isZero();
        assertThat(darkPixels(png)).as("the words and the frame").isGreaterThan(500);

        Chart tasks = chart(IncidentFixtures.oomHistory(), "tasks");
        assertThat(ChartImages.svg(tasks, 1200, 500)).contains("no tasks recorded");
    }

    @Test
    void theSvgIsXmlAndRsvgRendersTheSamePicture(@TempDir Path dir) throws Exception {
        assumeTrue(rsvgConvert(), "rsvg-convert is missing: install librsvg2-bin (src/main/sh/install-deps --test)");
        for (Timeline t : List.of(IncidentFixtures.memoryCapped(), IncidentFixtures.pidsCappedAndStopped(), IncidentFixtures.oomHistory())) {
            for (Chart c : charts(t, OptionalLong.of(1500 * IncidentFixtures.MIB))) {
                String svg = ChartImages.svg(c, 1200, 500);
                DocumentBuilderFactory xml = DocumentBuilderFactory.newInstance();
                xml.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false); // offline
                Document doc = xml.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
                assertThat(doc.getDocumentElement().getTagName()).isEqualTo("svg");
                Path in = dir.resolve(c.name() + ".svg"), out = dir.resolve(c.name() + ".png");
                Files.writeString(in, svg);
                Process p = new ProcessBuilder("rsvg-convert", "-o", out.toString(), in.toString()).redirectErrorStream(true).start();
                assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
                assertThat(p.exitValue()).as(new String(p.getInputStream().readAllBytes())).isZero();
                BufferedImage rendered = ImageIO.read(out.toFile());
                assertThat(rendered.getWidth()).isEqualTo(1200);
                assertThat(rendered.getHeight()).isEqualTo(500);
                BufferedImage painted = ChartImages.image(c, 1200, 500, 1);
                for (Color colour : List.of(Chart.PALETTE[0], Chart.TOTAL, Chart.OOMD, Chart.STOP)) {
                    int want = pixels(painted, colour);
                    if (want > 100) assertThat(near(rendered, colour)).as(c.name() + " in " + colour).isGreaterThan(want / 3);
                }
            }
        }
    }

    @Test
    void timeTicksAreClockTimesWithTheDateWhereTheDayChanges() {
        Timeline t = IncidentFixtures.oomHistory();
        TimeAxis days = new TimeAxis(t.started(), -120_000, 0, UTC);
        List<TimeAxis.Tick> ticks = days.ticks(10);
        assertThat(ticks).allSatisfy(k -> assertThat(k.time()).matches("\\d\\d:\\d\\d"));
        assertThat(ticks).filteredOn(k -> !k.date().isEmpty()).extracting(TimeAxis.Tick::date)
                .containsExactly("Sun 19 Oct", "Mon 20 Oct");
        TimeAxis seconds = new TimeAxis(IncidentFixtures.STARTED, 0, 7, UTC);
        assertThat(seconds.ticks(10)).extracting(TimeAxis.Tick::time).startsWith("14:02:10", "14:02:11").hasSize(8);
        assertThat(seconds.title()).isEqualTo("local time (UTC), Sun 19 Oct 2025");
    }

    @Test
    void valueTicksFallOnNiceSteps() {
        assertThat(ValueAxis.linear("tasks", ValueAxis.Unit.COUNT, 177).ticks()).containsExactly(0.0, 50.0, 100.0, 150.0, 200.0);
        ValueAxis memory = ValueAxis.linear("memory", ValueAxis.Unit.BYTES, 1500 * IncidentFixtures.MIB);
        assertThat(memory.ticks()).extracting(memory::label).contains("0 MiB", "500 MiB", "1,000 MiB", "1,500 MiB");
        ValueAxis log = ValueAxis.log("processes killed", ValueAxis.Unit.COUNT, 1, 29_082);
        assertThat(log.ticks()).extracting(log::label).containsExactly("1", "10", "100", "1,000", "10,000", "100,000");
    }

    @Test
    void gallery() throws Exception {
        Files.createDirectories(GALLERY);
        write("capped", charts(IncidentFixtures.memoryCapped(), OptionalLong.of(1500 * IncidentFixtures.MIB)));
        write("stopped", charts(IncidentFixtures.pidsCappedAndStopped(), OptionalLong.empty()));
        write("history", charts(IncidentFixtures.oomHistory(), OptionalLong.empty()));
    }

    private static void write(String prefix, List<Chart> charts) throws Exception {
        for (Chart c : charts) Files.write(GALLERY.resolve(prefix + "-" + c.name() + ".png"), ChartImages.png(c, 1200, 500, 1));
        assertThat(GALLERY.resolve(prefix + "-tasks.png")).isNotEmptyFile();
    }

    static int pixels(BufferedImage image, Color colour) {
        int n = 0, rgb = colour.getRGB() & 0xffffff;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) if ((image.getRGB(x, y) & 0xffffff) == rgb) n++;
        }
        return n;
    }

    /** Pixels within a small distance of the colour: another renderer blends edges differently. */
    static int near(BufferedImage image, Color colour) {
        int n = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                Color c = new Color(image.getRGB(x, y) & 0xffffff);
                if (Math.abs(c.getRed() - colour.getRed()) + Math.abs(c.getGreen() - colour.getGreen())
                        + Math.abs(c.getBlue() - colour.getBlue()) < 24) n++;
            }
        }
        return n;
    }

    static int darkPixels(BufferedImage image) {
        int n = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) if ((image.getRGB(x, y) & 0xff) < 200) n++;
        }
        return n;
    }

    static boolean rsvgConvert() {
        try {
            return new ProcessBuilder("rsvg-convert", "--version").redirectErrorStream(true).start().waitFor() == 0;
        } catch (Exception e) {
            return false;
        }
    }
}
