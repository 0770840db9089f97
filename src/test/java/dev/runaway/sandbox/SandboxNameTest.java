// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sandbox;

import dev.runaway.model.ProcessIdentity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SandboxNameTest {

    @Test
    void formatAndParseRoundTripWithOwner() {
        SandboxName name = new SandboxName(Optional.of(new ProcessIdentity(4242, 987654L)), 1_900_000_000L, "test-cap_1");

        assertThat(name.format()).isEqualTo("runaway-sandbox.4242.987654.1900000000.test-cap_1");
        assertThat(SandboxName.parse(name.format())).contains(name);
    }

    @Test
    void detachedFormatsAsZeroZeroAndParsesBackWithoutOwner() {
        SandboxName name = new SandboxName(Optional.empty(), 1_900_000_000L, "detached");

        assertThat(name.format()).isEqualTo("runaway-sandbox.0.0.1900000000.detached");
        SandboxName parsed = SandboxName.parse(name.format()).orElseThrow();
        assertThat(parsed.owner()).isEmpty();
        assertThat(parsed).isEqualTo(name);
    }

    @Test
    void labelOfSixtyFourCharactersIsAccepted() {
        String label = "a".repeat(64);
        SandboxName name = new SandboxName(Optional.empty(), 1L, label);

        assertThat(SandboxName.parse(name.format())).contains(name);
    }

    @ParameterizedTest
    @ValueSource(strings = {"has space", "has/slash", "", "dot.ted"})
    void badLabelsAreRejected(String label) {
        assertThatThrownBy(() -> new SandboxName(Optional.empty(), 1L, label))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void labelOfSixtyFiveCharactersIsRejected() {
        assertThatThrownBy(() -> new SandboxName(Optional.empty(), 1L, "a".repeat(65)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(SandboxName.parse("runaway-sandbox.0.0.1." + "a".repeat(65))).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"system.slice", "user-1000.slice", "runaway-sandbox.x.1.2.a", "runaway-sandbox.1.2.a",
            "runaway-sandbox.1.2.3.", "runaway-sandbox.1.2.3.a b", "xrunaway-sandbox.1.2.3.a", "runaway-sandbox.1.2.3.a/b",
            "init.scope", "", "runaway-sandbox.99999999999.1.2.x", "runaway-sandbox.1.2.123456789012345678901234.x"})
    void unrelatedCgroupNamesDoNotParse(String cgroup) {
        assertThat(SandboxName.parse(cgroup)).isEmpty();
    }
}
