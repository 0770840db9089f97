// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import dev.runaway.procfs.CgroupPids;
import dev.runaway.procfs.PulseReader;
import dev.runaway.procfs.Sampler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * While the console's stop runs, its scans rest (the kill's exits need the CPU) and its pulses go
 * on; once the stop has its outcome the scans start again. A rest closed twice ends only itself.
 */
class ScansRestTest {
    @Test
    void noScanWhileRestingPulsesGoOnAndScansComeBackAfter(@TempDir Path dir) throws Exception {
        Path proc = Files.createDirectories(dir.resolve("proc")); // an empty /proc: each scan is quick
        AtomicInteger scans = new AtomicInteger(), pulses = new AtomicInteger();
        try (LiveAnalysis live = new LiveAnalysis(proc, PulseReader.live(), CgroupPids.live())) {
            live.onSnapshot(s -> scans.incrementAndGet());
            live.onPulse(p -> pulses.incrementAndGet());
            live.start();
            await().atMost(Duration.ofSeconds(30)).until(() -> scans.get() >= 2);

            int scansAtRest;
            try (Sampler.Rest rest = live.restScans()) {
                Sampler.Rest other = live.restScans();
                other.close();
                other.close(); // closed twice: it ends only itself, this rest still holds
                // A scan under way when the rest began may still finish: count from the next pulse on.
                int p0 = pulses.get();
                await().atMost(Duration.ofSeconds(30)).until(() -> pulses.get() >= p0 + 3);
                scansAtRest = scans.get();
                int p1 = pulses.get();
                await().atMost(Duration.ofSeconds(30)).until(() -> pulses.get() >= p1 + 10); // a second of pulses, 10 scan periods
                assertThat(scans.get()).as("scans while resting").isEqualTo(scansAtRest);
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> scans.get() > scansAtRest);
        }
    }
}
