// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.model;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** Each format's mapper writes the bytes its format has always had. */
class JsonTest {
    record Stamp(Instant at, double figure, Optional<String> note, List<String> items) {
    }

    private static final Stamp STAMP = new Stamp(Instant.parse("2026-12-05T12:00:00.5Z"), Double.NaN, Optional.empty(), List.of());

    @Test
    void theDocumentWritesIsoTimesNullForAFigureNotMeasuredAndLeavesEmptyFieldsOut() throws Exception {
        assertThat(Json.DOCUMENT.writeValueAsString(STAMP)).isEqualTo("{\"at\":\"2026-12-05T12:00:00.500Z\",\"figure\":null}");
        assertThat(Json.DOCUMENT.writeValueAsString(new Stamp(STAMP.at(), 1.5, Optional.of("x"), List.of("a"))))
                .isEqualTo("{\"at\":\"2026-12-05T12:00:00.500Z\",\"figure\":1.5,\"note\":\"x\",\"items\":[\"a\"]}");
    }

    @Test
    void stateFilesWriteIsoTimesAndEveryField() throws Exception {
        String compact = Json.STATE.writeValueAsString(new Stamp(STAMP.at(), 2, null, List.of()));
        assertThat(compact).isEqualTo("{\"at\":\"2026-12-05T12:00:00.500Z\",\"figure\":2.0,\"note\":null,\"items\":[]}");
        assertThat(Json.STATE_PRETTY.writeValueAsString(List.of(1))).isEqualTo("[ 1 ]");
        assertThat(Json.STATE.readValue(compact, Stamp.class).at()).isEqualTo(STAMP.at());
    }

    @Test
    void guardStatusWritesTimesAsEpochSecondsAsItAlwaysHas() throws Exception {
        assertThat(Json.EPOCH_TIMES.writeValueAsString(STAMP.at())).isEqualTo(STAMP.at().getEpochSecond() + ".500000000");
    }

    @Test
    void treesAreCompactOnALineAndPrettyWithTwoSpaces() throws Exception {
        var tree = Json.TREES.createObjectNode().put("a", 1);
        tree.putArray("b").add(2);
        assertThat(Json.TREES.writeValueAsString(tree)).isEqualTo("{\"a\":1,\"b\":[2]}");
        assertThat(Json.PRETTY.writeValueAsString(tree)).isEqualTo("{\n  \"a\" : 1,\n  \"b\" : [ 2 ]\n}");
    }
}
