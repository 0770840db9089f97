// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The canon of statics is bounded by weight too: a flood of distinct long command lines does not stay in it. */
class CanonWeightTest {

    @Test
    void itStartsOverOnceItsValuesWeighMoreThanItsLimit() {
        Canon<String> canon = new Canon<>(8_192, String::length, 100);
        String a = "a".repeat(60);
        assertThat(canon.of(a)).isSameAs(a);
        assertThat(canon.of(new String(a))).as("equal values as one object").isSameAs(a);
        String b = "b".repeat(60);
        assertThat(canon.of(b)).isSameAs(b); // 120 > 100: it started over before taking b
        String againA = new String(a);
        assertThat(canon.of(againA)).as("a is no longer held").isSameAs(againA);
    }
}
