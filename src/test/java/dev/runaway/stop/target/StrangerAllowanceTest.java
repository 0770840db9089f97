// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.target;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stranger allowance is defined once, in Java, and runaway-rt reads it from the header the
 * build generates from that definition: a number written again in the C source, or a Java
 * definition the generator no longer reads, fails here.
 */
class StrangerAllowanceTest {
    private static final Path C = Path.of("src/main/c");

    /** The header the build wrote for runaway-rt (build.sh, in Maven's compile phase, before any test). */
    @Test
    void theBuildsHeaderCarriesTheJavaDefinition() throws Exception {
        Path header = Path.of("target/native/include/stranger-allowance.h");
        assertThat(header).as("written by src/main/c/build.sh").isRegularFile();
        assertThat(Files.readAllLines(header)).contains("#define STRANGERS_MIN " + StrangerAllowance.MIN,
                "#define STRANGERS_PER_MILLE " + StrangerAllowance.PER_MILLE);
    }

    @Test
    void runawayRtTakesTheNumbersFromTheHeaderOnly() throws Exception {
        String rt = Files.readString(C.resolve("runaway-rt.c"));
        assertThat(rt).contains("#include \"stranger-allowance.h\"");
        assertThat(rt).doesNotContainPattern("#\\s*define\\s+STRANGERS_(MIN|PER_MILLE)");
    }

    @Test
    void theAllowanceIsTheMinimumOrTheShareWhicheverIsMore() {
        assertThat(StrangerAllowance.allowed(0)).isEqualTo(StrangerAllowance.MIN);
        int atShare = (StrangerAllowance.MIN + 1) * 1000 / StrangerAllowance.PER_MILLE;
        assertThat(StrangerAllowance.allowed(atShare - 1)).isEqualTo(StrangerAllowance.MIN);
        assertThat(StrangerAllowance.allowed(atShare)).isEqualTo(StrangerAllowance.MIN + 1);
    }
}
