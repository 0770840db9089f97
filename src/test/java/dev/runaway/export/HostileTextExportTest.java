// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.export;

import org.junit.jupiter.api.Test;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Exports of hostile input: names with control characters, absurd time ranges. */
class HostileTextExportTest {

    @Test
    void anSvgStaysValidXmlWhenANameHoldsControlCharacters() throws Exception {
        Chart c = ChartImagesTest.chart(IncidentFixtures.memoryCapped(), "tasks");
        Chart hostile = new Chart(c.name(), "bad\u001b[31m\u0007 <name> & more", c.subtitle() + "\u0001", c.time(), c.values(),
                c.right(), c.lines(), c.levels(), c.marks(), c.bars(), c.emptyMessage());
        String svg = ChartImages.svg(hostile, 1200, 500);
        DocumentBuilderFactory xml = DocumentBuilderFactory.newInstance();
        xml.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false); // offline
        xml.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        assertThat(svg).contains("bad\\x1b[31m\\x07").doesNotContain("\u001b").doesNotContain("\u0007");
    }

    @Test
    void theReportsMarkupEscapesControlCharacters() {
        assertThat(IncidentReport.esc("a\u001bb<c>")).isEqualTo("a\\x1bb&lt;c&gt;");
    }

    @Test
    void absurdTimeRangesAreRefusedAndHugeOnesStayBounded() {
        assertThatThrownBy(() -> new TimeRange(-1e15, 10)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ten years");
        assertThatThrownBy(() -> new TimeRange(0, 1e300)).isInstanceOf(IllegalArgumentException.class);
        // Nine years at a week's step would be 470 ticks; the axis thins them instead of making them all.
        TimeAxis axis = new TimeAxis(Instant.parse("2026-01-01T00:00:00Z"), 0, 9 * 365.25 * 86400, ZoneId.of("UTC"));
        assertThat(axis.ticks(12)).hasSizeLessThanOrEqualTo(13).isNotEmpty();
    }
}
