// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;

import static org.assertj.core.api.Assertions.assertThat;

class StartClockTest {
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    @Test
    void aStartInTicksIsBootTimePlusTicksInHundredthsWrittenAsLocalClockTime(@TempDir Path dir) throws IOException {
        Path stat = dir.resolve("stat");
        // boot at 2025-11-30 10:00:00 UTC = 11:00:00 in Berlin
        Files.writeString(stat, "cpu  1 2 3 4\nbtime 1764496800\nprocesses 99\n");
        StartClock clock = StartClock.of(stat, BERLIN);
        Instant now = Instant.parse("2025-11-30T16:00:00Z");

        assertThat(clock.instant(647919)).contains(Instant.parse("2025-11-30T11:47:59.190Z"));
        assertThat(clock.words(647919, now)).isEqualTo("started 12:47:59");
        assertThat(clock.words(647919, now.plusSeconds(86_400))).as("another day: the date too").isEqualTo("started Nov 30 12:47:59");
    }

    @Test
    void withoutABootTimeTheStartIsSecondsAfterBootNotTicks(@TempDir Path dir) throws IOException {
        Path stat = dir.resolve("stat");
        Files.writeString(stat, "cpu  1 2 3 4\n");
        assertThat(StartClock.of(stat, BERLIN).words(647919, Instant.now())).isEqualTo("started 6479 s after boot");
        assertThat(StartClock.of(dir.resolve("missing"), BERLIN).instant(5)).isEmpty();
    }
}
