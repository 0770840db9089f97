// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.metrics;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shipped rules and unit, checked by the tools that own their formats: {@code promtool
 * check rules} and {@code promtool test rules} (the rules fire on made-up series as their test
 * file says), {@code systemd-analyze verify} and {@code security --offline} on the unit.
 * promtool comes with Debian's prometheus package (src/main/sh/install-deps --test).
 */
@Tag("process")
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class MetricsPackagingTest {
    private static final Path UNIT = Path.of("packaging/systemd/runaway-metrics.service");

    @Test
    void promtoolAcceptsTheRulesAndTheirTestsPass() throws Exception {
        Run check = run(Path.of("."), "promtool", "check", "rules", MetricsExamplesTest.RULES.toString());
        assertThat(check.status).as(check.output).isZero();
        assertThat(check.output).contains("SUCCESS: 5 rules found");
        Run test = run(MetricsExamplesTest.RULES.getParent(), "promtool", "test", "rules", "runaway-rules.test.yml");
        assertThat(test.status).as(test.output).isZero();
        assertThat(test.output).contains("SUCCESS");
    }

    @Test
    void promtoolFailsABrokenRule(@TempDir Path dir) throws Exception {
        Path broken = dir.resolve("rules.yml");
        Files.writeString(broken, Files.readString(MetricsExamplesTest.RULES).replace("runaway_group_at_cap == 1", "runaway_group_at_cap == = 1"));
        Run check = run(dir, "promtool", "check", "rules", broken.toString());
        assertThat(check.status).as(check.output).isNotZero();
    }

    @Test
    void theUnitVerifiesAndIsHardened(@TempDir Path dir) throws Exception {
        String unit = Files.readString(UNIT);
        for (String setting : List.of("User=root", "CapabilityBoundingSet=CAP_SYSLOG CAP_NET_ADMIN", "RuntimeDirectory=runaway/lineage", "NoNewPrivileges=yes", "ProtectSystem=strict", "ProtectHome=yes", "PrivateTmp=yes",
                "ExecStart=/usr/bin/runaway metrics ", "WantedBy=multi-user.target")) {
            assertThat(unit).contains(setting);
        }
        List<String> settings = unit.lines().filter(l -> !l.startsWith("#")).toList();
        assertThat(settings).as("it must see every process").noneMatch(l -> l.startsWith("ProtectProc=") || l.startsWith("ProcSubset="));
        // verify checks that ExecStart's program exists: point it at this checkout's launcher.
        Path copy = dir.resolve("runaway-metrics.service");
        Files.writeString(copy, unit.replace("ExecStart=/usr/bin/runaway ", "ExecStart=" + Path.of("runaway").toAbsolutePath() + " "));
        Run verify = run(dir, "systemd-analyze", "verify", "--man=no", copy.toString());
        assertThat(verify.status).as(verify.output).isZero();
        assertThat(verify.output).as("no warnings").isBlank();
        Run security = run(dir, "systemd-analyze", "security", "--offline=yes", copy.toString());
        Matcher m = Pattern.compile("Overall exposure level for runaway-metrics.service: (\\d+\\.\\d)").matcher(security.output);
        assertThat(m.find()).as(security.output).isTrue();
        assertThat(Double.parseDouble(m.group(1))).as("systemd's exposure score (0 safest, 10 unsafe)").isLessThan(3.0);
    }

    private record Run(int status, String output) {
    }

    private static Run run(Path dir, String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not finish");
        }
        return new Run(p.exitValue(), output);
    }
}
