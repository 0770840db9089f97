// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.bench;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The benches measure the console as it is launched: the same JVM options in every launcher. */
class LauncherOptionsTest {
    @Test
    void theCheckoutLauncherThePackageAndTheBenchesGiveTheConsoleTheSameJvmOptions() throws IOException {
        String options = String.join(" ", ScanBench.CONSOLE_JVM_OPTIONS);
        assertThat(options).contains("-XX:+UseSerialGC", "-XX:TargetSurvivorRatio=90");
        assertThat(Files.readString(Path.of("runaway")).replace("\\\n  ", " ")).contains(" java " + options + " ");
        assertThat(Files.readString(Path.of("packaging/build-deb"))).contains("--java-options \"" + options + " ");
    }
}
