// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline.oom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/** kmsg's microseconds since boot to wall time. */
class BootClockTest {

    @Test
    void btimeFromProcStatPlusMicrosecondsIsTheWallTime(@TempDir Path dir) throws IOException {
        Path stat = Files.writeString(dir.resolve("stat"), "cpu  1 2 3 4\nintr 5\nctxt 6\nbtime 1795970390\nprocesses 7\n");

        BootClock clock = BootClock.fromProcStat(stat).orElseThrow();

        assertThat(clock.boot()).isEqualTo(Instant.ofEpochSecond(1795970390L));
        assertThat(clock.wallTime(8326699848L)).isEqualTo(Instant.ofEpochSecond(1795970390L + 8326, 699_848_000));
        assertThat(clock.wallTime(0)).isEqualTo(clock.boot());
    }

    @Test
    void aProcStatWithoutBtimeGivesNoClock(@TempDir Path dir) throws IOException {
        assertThat(BootClock.fromProcStat(Files.writeString(dir.resolve("stat"), "cpu 1\nbtime x\n"))).isEmpty();
        assertThat(BootClock.fromProcStat(dir.resolve("missing"))).isEmpty();
    }

    @Test
    void theMeasuredBootAgreesWithTheKernelsBtimeOnThisMachine() {
        BootClock measured = BootClock.measure().orElseThrow();
        BootClock btime = BootClock.fromProcStat(Path.of("/proc/stat")).orElseThrow();

        // btime is whole seconds and counts time suspended; a machine that never slept agrees within a second or two
        assertThat(Duration.between(btime.boot(), measured.boot()).abs()).isLessThan(Duration.ofSeconds(2));
        assertThat(Duration.between(measured.boot(), BootClock.detect().boot()).abs()).as("detect() measures too")
                .isLessThan(Duration.ofMillis(5));
    }
}
