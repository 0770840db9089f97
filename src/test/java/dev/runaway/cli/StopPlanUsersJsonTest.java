// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.runaway.stop.target.KeyUsers;
import org.junit.jupiter.api.Test;

import java.util.OptionalInt;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/** The stop's JSON says whose processes a key's plan found, as fields a program reads, not words. */
class StopPlanUsersJsonTest {
    private final ObjectMapper mapper = new ObjectMapper();

    @Test
    void aKeySpanningUsersAsAPersonAskedIt() {
        TreeMap<Integer, Integer> by = new TreeMap<>();
        by.put(1000, 3);
        by.put(65534, 1);
        ObjectNode u = StopCommand.usersJson(mapper, new KeyUsers(OptionalInt.empty(), by));
        assertThat(u.get("only").isNull()).isTrue();
        assertThat(u.get("spansUsers").asBoolean()).isTrue();
        assertThat(u.get("leftOut").asInt()).isZero();
        assertThat(u.get("processesByUid").get("1000").asInt()).isEqualTo(3);
        assertThat(u.get("processesByUid").get("65534").asInt()).isEqualTo(1);
    }

    @Test
    void oneUsersPlanSaysWhoseAndWhatItLeftAlone() {
        TreeMap<Integer, Integer> by = new TreeMap<>();
        by.put(1000, 3);
        by.put(65534, 1);
        ObjectNode u = StopCommand.usersJson(mapper, new KeyUsers(OptionalInt.of(1000), by));
        assertThat(u.get("only").asInt()).isEqualTo(1000);
        assertThat(u.get("leftOut").asInt()).isEqualTo(1);
    }
}
