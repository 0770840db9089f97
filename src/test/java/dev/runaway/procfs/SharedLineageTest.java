// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import dev.runaway.sys.Clocks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** A sampler's fork log, handed to a later stop through a file only root can have written. */
class SharedLineageTest {
    private final long t = Clocks.bootTicks() + 100;

    private static boolean root() {
        return new com.sun.security.auth.module.UnixSystem().getUid() == 0;
    }

    private ForkLog.Snapshot samplersLog(long since) {
        ForkLog sampler = ForkLog.recording(new ScriptedForks().fork(500, 501, t).fork(501, 502, t + 1).exit(501));
        ForkLog.Snapshot s = sampler.snapshot();
        return new ForkLog.Snapshot(since, s.takenTicks(), s.records());
    }

    @Test
    void aLaterStopJoinsTheFileAndKnowsTheForksBeforeItBegan(@TempDir Path dir) throws Exception {
        assumeTrue(root(), "the file must be root's");
        ForkLog stop = ForkLog.recording(new ScriptedForks());
        SharedLineage.write(dir.resolve("812.json"), "runaway metrics", samplersLog(1000));
        Optional<SharedLineage.Source> joined = SharedLineage.joinFromFiles(stop, dir, Duration.ZERO).source();
        assertThat(joined).hasValueSatisfying(j -> {
            assertThat(j.who()).isEqualTo("runaway metrics");
            assertThat(j.sinceTicks()).isEqualTo(1000);
        });
        assertThat(stop.parentOf(stop.recordOf(502, t + 1))).isEqualTo(new ForkLog.Ref(501, t));
    }

    @Test
    void theOldestOfTwoSamplersIsJoined(@TempDir Path dir) throws Exception {
        assumeTrue(root(), "the file must be root's");
        ForkLog stop = ForkLog.recording(new ScriptedForks());
        SharedLineage.write(dir.resolve("1.json"), "the console", samplersLog(5000));
        SharedLineage.write(dir.resolve("2.json"), "runaway metrics", samplersLog(1000));
        assertThat(SharedLineage.joinFromFiles(stop, dir, Duration.ZERO).source()).map(SharedLineage.Source::who).hasValue("runaway metrics");
    }

    @Test
    void aFileAnotherUserCouldHaveWrittenIsNeverRead(@TempDir Path dir) throws Exception {
        assumeTrue(root(), "chown needs root");
        ForkLog stop = ForkLog.recording(new ScriptedForks());
        Path file = dir.resolve("812.json");
        SharedLineage.write(file, "runaway metrics", samplersLog(1000));
        Files.setAttribute(file, "unix:uid", 65534);
        assertThat(SharedLineage.joinFromFiles(stop, dir, Duration.ZERO).source()).isEmpty();
        Files.setAttribute(file, "unix:uid", 0);
        Files.setAttribute(dir, "unix:mode", 0777); // a directory anyone may swap files in
        assertThat(SharedLineage.joinFromFiles(stop, dir, Duration.ZERO).source()).isEmpty();
        Files.setAttribute(dir, "unix:mode", 0755);
        assertThat(SharedLineage.joinFromFiles(stop, dir, Duration.ZERO).source()).as("the same file, root's alone").isPresent();
    }

    @Test
    void aFileOfAnotherBootOrTakenBeforeTheStopBeganLeavesAGapAndIsNotJoined(@TempDir Path dir) throws Exception {
        assumeTrue(root(), "the file must be root's");
        Path file = dir.resolve("812.json");
        ForkLog stop = ForkLog.recording(new ScriptedForks());
        SharedLineage.write(file, "runaway metrics", samplersLog(1000));
        Files.writeString(file, Files.readString(file).replaceFirst("\"bootId\":\"[^\"]*\"", "\"bootId\":\"another-boot\""));
        assertThat(SharedLineage.joinFromFiles(stop, dir, Duration.ZERO).source()).isEmpty();

        SharedLineage.write(file, "runaway metrics", samplersLog(1000));
        ForkLog later = ForkLog.recording(new ScriptedForks());
        await(() -> Clocks.bootTicks() > later.subscribedTicks()); // the file is older than this stop's subscription
        ForkLog latest = ForkLog.recording(new ScriptedForks());
        SharedLineage.Join stale = SharedLineage.joinFromFiles(latest, dir, Duration.ofMillis(200));
        assertThat(stale.source()).as("no sampler wrote since").isEmpty();
        assertThat(stale.missed()).as("the plan says why").contains("runaway metrics's (pid", "before this stop subscribed",
                "none was written within 200 ms");
        assertThat(latest.since()).isGreaterThan(1000);
    }

    @Test
    void aSamplersLogThatBeganAgainAfterTheStopsStartIsNotJoinedAndTheReasonSaysSo(@TempDir Path dir) throws Exception {
        assumeTrue(root(), "the file must be root's");
        ForkLog stop = ForkLog.recording(new ScriptedForks());
        SharedLineage.write(dir.resolve("812.json"), "runaway metrics", samplersLog(stop.since() + 5)); // lost events, began again since
        SharedLineage.Join join = SharedLineage.joinFromFiles(stop, dir, Duration.ZERO);
        assertThat(join.source()).isEmpty();
        assertThat(join.missed()).contains("runaway metrics", "lost events and began again");
        assertThat(SharedLineage.joinFromFiles(stop, dir.resolve("absent"), Duration.ZERO).missed()).contains("no sampler's lineage file");
    }

    private static void await(java.util.function.BooleanSupplier condition) {
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(5)).until(condition::getAsBoolean);
    }
}
