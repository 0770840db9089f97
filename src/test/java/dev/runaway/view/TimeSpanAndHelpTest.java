// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.view;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The charts' keyboard zoom and pan, and where Help sends a reader, without a display. */
class TimeSpanAndHelpTest {
    @Test
    void plusAndMinusHalveAndDoubleTheTimeShownAndTheArrowsMoveItByAQuarter() {
        TimeSpan shown = new TimeSpan(100, 200);
        assertThat(shown.move(TimeSpan.Move.ZOOM_IN)).isEqualTo(new TimeSpan(125, 175));
        assertThat(shown.move(TimeSpan.Move.ZOOM_OUT)).isEqualTo(new TimeSpan(50, 250));
        assertThat(shown.move(TimeSpan.Move.BACK)).isEqualTo(new TimeSpan(75, 175));
        assertThat(shown.move(TimeSpan.Move.FORWARD)).isEqualTo(new TimeSpan(125, 225));
        assertThat(new TimeSpan(10, 30).move(TimeSpan.Move.BACK).move(TimeSpan.Move.BACK).move(TimeSpan.Move.BACK))
                .as("never before the timeline began").isEqualTo(new TimeSpan(0, 20));
        assertThat(new TimeSpan(10, 200).move(TimeSpan.Move.ZOOM_OUT).from()).isZero();
        assertThat(new TimeSpan(10, 11).move(TimeSpan.Move.ZOOM_IN).seconds()).as("at least a second").isEqualTo(TimeSpan.MIN_SECONDS);
    }

    @Test
    void helpPointsAtTheInstalledGuideElseAtTheDocsOfTheCheckout(@TempDir Path dir) throws Exception {
        Path installed = dir.resolve("usr/share/doc/runaway/html/index.html");
        Path checkout = dir.resolve("checkout");
        Files.createDirectories(checkout.resolve("docs"));
        Files.writeString(checkout.resolve("docs/guide.md"), "# guide");
        Path jar = checkout.resolve("target/runaway.jar");
        assertThat(Help.guide(installed, jar)).isEqualTo(checkout.resolve("docs/guide.md").toUri().toString());
        Files.createDirectories(installed.getParent());
        Files.writeString(installed, "<html>");
        assertThat(Help.guide(installed, jar)).isEqualTo("file://" + installed);
        assertThat(Help.about("1.2.0")).contains("version 1.2.0").contains("GPL-3.0-or-later");
        assertThat(Help.about(null)).contains("version development");
        assertThat(Help.KEYS).extracting(Help.Key::keys).contains("+ and -", "Left and Right", "0", "F1");
    }
}
