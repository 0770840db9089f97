// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.run;

import dev.runaway.stop.Selector;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** What the JVM takes from runaway-rt's variables: only its own launch's, only a cgroup's pids.max. */
class FirstLeverTest {
    private static final long PID = 4242;

    private static Map<String, String> frozen() {
        Map<String, String> env = new HashMap<>();
        env.put("RUNAWAY_FIRST_LEVER_PID", "4242");
        env.put("RUNAWAY_FIRST_LEVER_CGROUP", "/runaway-sandbox.1.drill");
        env.put("RUNAWAY_FIRST_LEVER_PIDS_MAX", "/sys/fs/cgroup/pids/runaway-sandbox.1.drill/pids.max");
        env.put("RUNAWAY_FIRST_LEVER_PIDS_OLD", "20000");
        env.put("RUNAWAY_FIRST_LEVER_AT", "1796083343.123456");
        env.put("RUNAWAY_FIRST_LEVER_MEMBERS", "20000");
        env.put("RUNAWAY_FIRST_LEVER_UNKNOWN", "3");
        env.put("RUNAWAY_FIRST_LEVER_PHASES", "listPids=12,readExe=140,cgroupProcs=9,check=2,capAndFreeze=1");
        env.put("RUNAWAY_FIRST_LEVER_SELECTOR", "command:/tmp/drill/cache/tool");
        return env;
    }

    @Test
    void aFreezeIsReadWithItsTimeFilesAndPhases() {
        FirstLever l = FirstLever.of(frozen(), PID).orElseThrow();
        assertThat(l.frozen()).isTrue();
        assertThat(l.cgroup()).isEqualTo("/runaway-sandbox.1.drill");
        assertThat(l.pidsOld()).isEqualTo("20000");
        assertThat(l.atMicros()).isEqualTo(1796083343_123456L);
        assertThat(l.members()).isEqualTo(20000);
        assertThat(l.unknown()).isEqualTo(3);
        assertThat(l.selector()).contains(new Selector.Command("/tmp/drill/cache/tool"));
        assertThat(l.phaseMillis()).containsExactly(Map.entry("listPids", 12L), Map.entry("readExe", 140L), Map.entry("cgroupProcs", 9L),
                Map.entry("check", 2L), Map.entry("capAndFreeze", 1L));
    }

    @Test
    void anotherProcesssVariablesAreNotThisLaunchs() {
        assertThat(FirstLever.of(frozen(), PID + 1)).isEmpty();
        Map<String, String> none = frozen();
        none.remove("RUNAWAY_FIRST_LEVER_PID");
        assertThat(FirstLever.of(none, PID)).isEmpty();
    }

    @Test
    void aRefusalCarriesItsReasonAndNoCgroup() {
        Map<String, String> env = new HashMap<>();
        env.put("RUNAWAY_FIRST_LEVER_PID", "4242");
        env.put("RUNAWAY_FIRST_LEVER_REFUSED", "the cgroup /user.slice/x holds this stop too");
        FirstLever l = FirstLever.of(env, PID).orElseThrow();
        assertThat(l.frozen()).isFalse();
        assertThat(l.refused()).isEqualTo("the cgroup /user.slice/x holds this stop too");
        assertThat(l.atMicros()).isEqualTo(-1);
    }

    @Test
    void onlyACgroupsPidsMaxAndAValueItTakesAreEverWrittenBack() {
        for (String[] bad : new String[][] {{"/etc/passwd", "20000"}, {"/sys/fs/cgroup/pids/../../../etc/pids.max", "1"},
                {"/sys/fs/cgroup/pids/x/pids.max", "1\nroot::0:0"}, {"/sys/fs/cgroup/pids/x/pids.max", "-1"}}) {
            Map<String, String> env = frozen();
            env.put("RUNAWAY_FIRST_LEVER_PIDS_MAX", bad[0]);
            env.put("RUNAWAY_FIRST_LEVER_PIDS_OLD", bad[1]);
            FirstLever l = FirstLever.of(env, PID).orElseThrow();
            assertThat(l.frozen()).as(bad[0] + " " + bad[1]).isFalse();
            assertThat(l.refused()).contains("pids.max record that is not one");
        }
        Map<String, String> max = frozen();
        max.put("RUNAWAY_FIRST_LEVER_PIDS_OLD", "max");
        assertThat(FirstLever.of(max, PID).orElseThrow().frozen()).isTrue();
    }

    @Test
    void aFreezeWithoutATimeOrCgroupIsNotTakenForOne() {
        Map<String, String> env = frozen();
        env.remove("RUNAWAY_FIRST_LEVER_AT");
        assertThat(FirstLever.of(env, PID).orElseThrow().frozen()).isFalse();
        env = frozen();
        env.put("RUNAWAY_FIRST_LEVER_CGROUP", "relative");
        assertThat(FirstLever.of(env, PID).orElseThrow().frozen()).isFalse();
    }

    @Test
    void theStopItFrozeForIsReadAsTheJvmsOwnSelector() {
        var root = new dev.runaway.model.ProcessIdentity(812, 123456789);
        assertThat(FirstLever.selector("pid:812:123456789")).contains(new Selector.Process(root));
        assertThat(FirstLever.selector("chain:812:123456789")).contains(new Selector.Chain(root));
        assertThat(FirstLever.selector("cgroup:/runaway-sandbox.1.drill")).contains(new Selector.Cgroup("/runaway-sandbox.1.drill"));
        for (String bad : new String[] {"", "pid:812", "pid:0812:1", "pid:-1:1", "chain:812:x", "cgroup:relative", "command:tool", "scan:/x"}) {
            assertThat(FirstLever.selector(bad)).as(bad).isEmpty();
        }
        Map<String, String> env = frozen();
        env.remove("RUNAWAY_FIRST_LEVER_SELECTOR");
        FirstLever l = FirstLever.of(env, PID).orElseThrow();
        assertThat(l.frozen()).isFalse();
        assertThat(l.refused()).isEqualTo("runaway-rt did not say which stop it froze for");
    }
}
