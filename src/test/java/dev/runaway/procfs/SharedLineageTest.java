// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import dev.runaway.sys.Clocks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** A sampler's fork log, asked for by a later stop through the sampler's door in a directory only root can write. */
class SharedLineageTest {
    private static final Duration PATIENCE = Duration.ofSeconds(5);
    private final long t = Clocks.bootTicks();

    private static boolean root() {
        return new com.sun.security.auth.module.UnixSystem().getUid() == 0;
    }

    /** A sampler that saw 500 fork 501, 501 fork 502 and exit (a daemonizer's middle), and 300 fork 401 long before. */
    private ForkLog samplersLog() {
        return ForkLog.recording(new ScriptedForks().fork(300, 401, t - 1000).fork(500, 501, t + 20).fork(501, 502, t + 21).exit(501));
    }

    /** A stop that began after the samplers (0.6 s after this test). */
    private ForkLog laterStop() {
        await(() -> Clocks.bootTicks() > t + 60);
        return ForkLog.recording(new ScriptedForks());
    }

    private static LineageQuestion.Question since(long ticks) {
        return new LineageQuestion.Question(500, ticks, ticks);
    }

    @Test
    void aLaterStopAsksTheSamplersDoorAndKnowsTheForksSinceItsRootBegan(@TempDir Path dir) throws Exception {
        assumeTrue(root(), "the door's directory must be root's");
        try (SharedLineage.Published sampler = SharedLineage.publish(samplersLog(), LineageQuestion.Keeper.EXPORTER, dir.resolve("812.sock"))) {
            ForkLog stop = laterStop();
            SharedLineage.Join join = SharedLineage.ask(stop, since(t + 40), dir, PATIENCE);
            assertThat(join.source()).as(join.missed()).hasValueSatisfying(j -> {
                assertThat(j.who()).isEqualTo("runaway metrics");
                assertThat(j.pid()).isEqualTo(ProcessHandle.current().pid());
                assertThat(j.sinceTicks()).as("it knows from the time it asked for").isEqualTo(t + 40 - ForkLog.NEAR_TICKS);
            });
            assertThat(stop.parentOf(stop.recordOf(502, t + 21))).isEqualTo(new ForkLog.Ref(501, t + 20));
            assertThat(stop.recordOf(401, t - 1000)).as("a fork before the time asked for is not sent").isNull();
        }
    }

    @Test
    void theOldestOfTwoSamplersIsJoinedAndTheGuardIsNamedAsSuch(@TempDir Path dir) throws Exception {
        assumeTrue(root(), "the door's directory must be root's");
        ForkLog older = samplersLog();
        await(() -> Clocks.bootTicks() > older.subscribedTicks() + 1);
        try (SharedLineage.Published guard = SharedLineage.publish(older, LineageQuestion.Keeper.GUARD, dir.resolve("1.sock"));
             SharedLineage.Published console = SharedLineage.publish(samplersLog(), LineageQuestion.Keeper.CONSOLE, dir.resolve("2.sock"))) {
            ForkLog stop = laterStop();
            // Asked for forks since before both began: each knows from its own start, the guard's earlier.
            SharedLineage.Join join = SharedLineage.ask(stop, since(1), dir, PATIENCE);
            assertThat(join.source()).as(join.missed()).map(SharedLineage.Source::who).hasValue("runaway guard");
            assertThat(stop.since()).isEqualTo(older.since());
        }
    }

    @Test
    void aDoorInADirectoryAnotherUserCouldWriteIsNeverAsked(@TempDir Path dir) throws Exception {
        assumeTrue(root(), "the door's directory must be root's");
        try (SharedLineage.Published sampler = SharedLineage.publish(samplersLog(), LineageQuestion.Keeper.EXPORTER, dir.resolve("812.sock"))) {
            Files.setAttribute(dir, "unix:mode", 0777); // a directory anyone may plant a socket in
            SharedLineage.Join join = SharedLineage.ask(laterStop(), since(t + 40), dir, PATIENCE);
            assertThat(join.source()).isEmpty();
            assertThat(join.missed()).contains("not root's alone");
            Files.setAttribute(dir, "unix:mode", 0755);
            assertThat(SharedLineage.ask(laterStop(), since(t + 40), dir, PATIENCE).source())
                    .as("the same door, root's alone").isPresent();
        }
    }

    @Test
    void aSamplersLogThatBeganAfterTheStopsOwnIsNotJoinedAndTheReasonSaysSo(@TempDir Path dir) throws Exception {
        assumeTrue(root(), "the door's directory must be root's");
        ForkLog stop = ForkLog.recording(new ScriptedForks());
        await(() -> Clocks.bootTicks() > stop.since()); // lost events, began again since the stop began
        try (SharedLineage.Published sampler = SharedLineage.publish(samplersLog(), LineageQuestion.Keeper.EXPORTER, dir.resolve("812.sock"))) {
            SharedLineage.Join join = SharedLineage.ask(stop, since(1), dir, PATIENCE);
            assertThat(join.source()).isEmpty();
            assertThat(join.missed()).contains("runaway metrics", "lost events and began again");
        }
        assertThat(SharedLineage.ask(stop, since(1), dir.resolve("absent"), PATIENCE).missed()).contains("no sampler's door");
    }

    @Test
    void aDoorWhoseSamplerIsGoneIsNamedAndPassedBy(@TempDir Path dir) throws Exception {
        assumeTrue(root(), "the door's directory must be root's");
        try (ServerSocketChannel dead = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            dead.bind(UnixDomainSocketAddress.of(dir.resolve("77.sock")));
        } // closed: the socket file stays, nobody listens (a sampler killed without closing)
        try (SharedLineage.Published sampler = SharedLineage.publish(samplersLog(), LineageQuestion.Keeper.EXPORTER, dir.resolve("812.sock"))) {
            SharedLineage.Join join = SharedLineage.ask(laterStop(), since(t + 40), dir, PATIENCE);
            assertThat(join.source()).as(join.missed()).isPresent();
        }
        SharedLineage.Join none = SharedLineage.ask(laterStop(), since(t + 40), dir, PATIENCE);
        assertThat(none.missed()).contains("pid 77 is gone");
    }

    @Test
    void aUserOtherThanRootIsAnsweredOnlyWhereProcShowsEveryonesProcessesAndNeverMoreThanStatShows(@TempDir Path dir) throws Exception {
        try (SharedLineage.Published sampler = SharedLineage.publish(samplersLog(), LineageQuestion.Keeper.EXPORTER, dir.resolve("812.sock"))) {
            byte[] q = since(t + 40).line();
            byte[] line = java.util.Arrays.copyOf(q, q.length - 1);
            assertThat(sampler.answer(line, 65534, true)).isInstanceOfSatisfying(LineageQuestion.Refusal.class,
                    r -> assertThat(r.why()).isEqualTo(LineageQuestion.Refusal.Why.HIDDEN));
            LineageQuestion.Answer open = sampler.answer(line, 65534, false);
            assertThat(open).isInstanceOf(LineageQuestion.Lineage.class);
            String wire = new String(LineageQuestion.encode(open), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(wire).as("pid, start, parent and exited only: what stat showed anyone").doesNotContain("/", "exe", "cmdline", "uid");
            assertThat(LineageQuestion.decode(LineageQuestion.encode(open))).usingRecursiveComparison().isEqualTo(open);
            assertThat(sampler.answer("LINEAGE 500 1 2 3".getBytes(), 0, false)).isInstanceOfSatisfying(LineageQuestion.Refusal.class,
                    r -> assertThat(r.why()).isEqualTo(LineageQuestion.Refusal.Why.USAGE));
        }
    }

    @Test
    void aQuestionIsTakenOnlyWhenItSaysExactlyOne() {
        assertThat(LineageQuestion.Question.parse("LINEAGE 500 123 120".getBytes())).contains(new LineageQuestion.Question(500, 123, 120));
        for (String bad : new String[]{"LINEAGE 0 1 1", "LINEAGE 500  123 120", "LINEAGE 500 123", "LINEAGE 500 123 120 ",
                "LINEAGE 99999999999 1 1", "LINEAGE -5 1 1", "lineage 500 123 120", "LINEAGE 500 1\u0000 1"}) {
            assertThat(LineageQuestion.Question.parse(bad.getBytes())).as(bad).isEmpty();
        }
    }

    @Test
    void procHidingOtherUsersIsReadFromItsMountOptions() {
        String open = "22 1 0:5 / /proc rw,nosuid,nodev,noexec,relatime shared:13 - proc proc rw\n";
        String hidden = "22 1 0:5 / /proc rw,nosuid shared:13 - proc proc rw,hidepid=invisible\n";
        String zero = "22 1 0:5 / /proc rw shared:13 - proc proc rw,hidepid=0\n";
        String sys = "21 1 0:4 / /sys rw - sysfs sysfs rw\n";
        assertThat(LineageQuestion.procHidesOthers(sys + open)).isFalse();
        assertThat(LineageQuestion.procHidesOthers(zero)).isFalse();
        assertThat(LineageQuestion.procHidesOthers(sys + hidden)).isTrue();
        assertThat(LineageQuestion.procHidesOthers(sys)).as("no /proc seen: nothing known to be public").isTrue();
    }

    @Test
    void anAnswerOfTheWrongShapeIsNotTaken() {
        assertThat(Optional.of("{\"version\":2}")).hasValueSatisfying(s ->
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> LineageQuestion.decode(s.getBytes())).isInstanceOf(java.io.IOException.class));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> LineageQuestion.decode(
                "{\"version\":1,\"keeper\":\"EXPORTER\",\"records\":[[1,2,3]]}".getBytes())).isInstanceOf(java.io.IOException.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> LineageQuestion.decode(
                "{\"version\":1,\"keeper\":\"SOMEONE\",\"records\":[]}".getBytes())).isInstanceOf(java.io.IOException.class);
    }

    private static void await(java.util.function.BooleanSupplier condition) {
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(5)).until(condition::getAsBoolean);
    }
}
