// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.guard;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class GuardPolicyTest {
    @Test
    void aFileSetsWhatItNamesAndTheRestKeepsItsDefault() throws Exception {
        GuardPolicy p = GuardPolicy.parse(List.of("# ours", "recursion-depth = 8", "at-cap-for = 30s  # slower", "",
                "allow-key = /usr/bin/make", "allow-cgroup = /system.slice/ci.service", "allow-user = 0", "kill-after = 30m", "notify = no"));
        assertThat(p.recursionDepth()).isEqualTo(8);
        assertThat(p.deepRecursionDepth()).isEqualTo(GuardPolicy.DEFAULTS.deepRecursionDepth());
        assertThat(GuardPolicy.parse(List.of("deep-recursion-depth = 40", "recursion-depth = 4")).deepRecursionDepth()).isEqualTo(40);
        assertThat(p.atCapFor()).isEqualTo(Duration.ofSeconds(30));
        assertThat(p.exhaustionWithin()).isEqualTo(GuardPolicy.DEFAULTS.exhaustionWithin());
        assertThat(p.killAfter()).hasValue(Duration.ofMinutes(30));
        assertThat(p.notifyOwner()).isFalse();
        assertThat(p.allows("/usr/bin/make", "/", 1000)).isTrue();
        assertThat(p.allows("/x", "/system.slice/ci.service/job-1", 1000)).isTrue();
        assertThat(p.allows("/x", "/system.slice/ci.services", 1000)).as("a sibling with a longer name").isFalse();
        assertThat(p.allows("/x", "/", 0)).isTrue();
        assertThat(GuardPolicy.DEFAULTS.killAfter()).as("never a kill unless the policy says so").isEqualTo(Optional.empty());
    }

    @Test
    void killAfterIsSaidInTheUnitItWasWrittenIn() throws Exception {
        assertThat(GuardPolicy.parse(List.of("kill-after = 3s")).describe()).last().asString()
                .endsWith("or 3 s; then it is stopped to zero");
        assertThat(GuardPolicy.parse(List.of("kill-after = 30m")).describe()).last().asString().contains("or 30 min;");
        assertThat(GuardPolicy.parse(List.of("kill-after = off")).describe()).last().asString().endsWith("until a person decides");
        assertThat(GuardPolicy.words(Duration.ofSeconds(90))).isEqualTo("90 s");
        assertThat(GuardPolicy.words(Duration.ofHours(2))).isEqualTo("2 h");
        assertThat(GuardPolicy.words(Duration.ofMillis(1500))).isEqualTo("1500 ms");
    }

    @Test
    void aWrongLineIsRefusedWithItsNumber() {
        assertThatThrownBy(() -> GuardPolicy.parse(List.of("recursion-depth = 8", "at-cap-for = soon"))).hasMessageContaining("line 2");
        assertThatThrownBy(() -> GuardPolicy.parse(List.of("hold-everything = yes"))).hasMessageContaining("no setting 'hold-everything'");
    }

    @Test
    void aPolicyAnotherUserCouldHaveWrittenIsRefusedAndNoFileMeansTheDefaults(@TempDir Path dir) throws Exception {
        assumeTrue(new com.sun.security.auth.module.UnixSystem().getUid() == 0, "root's file");
        assertThat(GuardPolicy.load(dir.resolve("none.conf"))).isEqualTo(GuardPolicy.DEFAULTS);
        Path f = dir.resolve("guard.conf");
        Files.writeString(f, "recursion-depth = 9\n");
        assertThat(GuardPolicy.load(f).recursionDepth()).isEqualTo(9);
        Files.setAttribute(f, "unix:mode", 0666);
        assertThatThrownBy(() -> GuardPolicy.load(f)).hasMessageContaining("only root may write");
    }
}
