// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.view;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;

class ThemeChoiceTest {
    @TempDir
    Path dir;

    @Test
    void theFlagThenTheRememberedChoiceThenTheDesktopThenLight() {
        assertThat(ThemeChoice.dark(true, Optional.of(false), OptionalInt.of(2))).isTrue();
        assertThat(ThemeChoice.dark(false, Optional.of(false), OptionalInt.of(1))).as("remembered light over a dark desktop").isFalse();
        assertThat(ThemeChoice.dark(false, Optional.of(true), OptionalInt.of(2))).isTrue();
        assertThat(ThemeChoice.dark(false, Optional.empty(), OptionalInt.of(1))).as("the desktop prefers dark").isTrue();
        assertThat(ThemeChoice.dark(false, Optional.empty(), OptionalInt.of(0))).isFalse();
        assertThat(ThemeChoice.dark(false, Optional.empty(), OptionalInt.empty())).as("no portal").isFalse();
    }

    @Test
    void aChoiceIsRememberedAndReadBack() throws Exception {
        Path file = ThemeChoice.file(dir.toString(), "/nonexistent");
        assertThat(file).isEqualTo(dir.resolve("runaway/console"));
        assertThat(ThemeChoice.read(file)).isEmpty();
        ThemeChoice.write(file, true);
        assertThat(ThemeChoice.read(file)).contains(true);
        ThemeChoice.write(file, false);
        assertThat(ThemeChoice.read(file)).contains(false);
        Files.writeString(file, "theme=purple\n");
        assertThat(ThemeChoice.read(file)).isEmpty();
        assertThat(ThemeChoice.file(null, "/home/ann")).isEqualTo(Path.of("/home/ann/.config/runaway/console"));
        assertThat(ThemeChoice.file("relative", "/home/ann")).as("a relative XDG_CONFIG_HOME is ignored, as the spec says")
                .isEqualTo(Path.of("/home/ann/.config/runaway/console"));
    }
}
