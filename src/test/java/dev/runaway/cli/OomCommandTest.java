// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The times {@code runaway oom --since/--until} accepts. */
class OomCommandTest {
    private final OomCommand.Since since = new OomCommand.Since();

    @Test
    void agesDatesAndIsoTimesAreUnderstood() {
        assertThat(Duration.between(since.convert("24h"), Instant.now()).toMinutes()).isBetween(1439L, 1440L);
        assertThat(Duration.between(since.convert("7d"), Instant.now()).toHours()).isBetween(167L, 168L);
        assertThat(since.convert("2026-10-19T08:00:00Z")).isEqualTo(Instant.parse("2026-10-19T08:00:00Z"));
        assertThat(since.convert("2026-10-19")).isEqualTo(LocalDate.of(2026, 10, 19).atStartOfDay(ZoneId.systemDefault()).toInstant());
        assertThat(since.convert("2026-10-19 08:30")).isEqualTo(
                LocalDate.of(2026, 10, 19).atTime(8, 30).atZone(ZoneId.systemDefault()).toInstant());
        assertThat(since.convert("yesterday")).isEqualTo(LocalDate.now().minusDays(1).atStartOfDay(ZoneId.systemDefault()).toInstant());
    }

    @Test
    void anythingElseIsRefusedWithAnExample() {
        assertThatThrownBy(() -> since.convert("last tuesday")).hasMessageContaining("not a time (try");
    }
}
