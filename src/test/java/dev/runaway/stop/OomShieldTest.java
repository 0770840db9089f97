// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.stop.act.OomShield;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The console lowers its own OOM score when it may (CAP_SYS_RESOURCE), and says so when it may
 * not, changing nothing. The test JVM's score is put back.
 */
class OomShieldTest {

    @Test
    void lowersItsOwnScoreWhenItMayAndSaysSoWhenItMayNot() throws Exception {
        assumeTrue(OomShield.enabled(), "RUNAWAY_OOM_PROTECT=0 in this environment");
        Path file = Path.of("/proc/self/oom_score_adj");
        String before = Files.readString(file).trim();
        try {
            String said = OomShield.protectSelf(Path.of("/proc"), null).orElseThrow();
            if (hasSysResource()) {
                assertThat(said).isEqualTo("OOM score lowered to -800");
                assertThat(Files.readString(file).trim()).isEqualTo("-800");
            } else {
                assertThat(said).contains("left as it is").contains("CAP_SYS_RESOURCE");
                assertThat(Files.readString(file).trim()).isEqualTo(before);
            }
        } finally {
            if (hasSysResource()) Files.writeString(file, before);
        }
    }

    /** Whether this process may lower an OOM score (CAP_SYS_RESOURCE; some containers lack it). */
    static boolean hasSysResource() throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("CapEff:")) return (Long.parseLong(line.substring(7).trim(), 16) >> 24 & 1) == 1;
        }
        return false;
    }
}
