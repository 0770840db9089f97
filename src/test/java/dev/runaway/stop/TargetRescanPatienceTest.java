// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.stop.target.Exclusions;
import dev.runaway.stop.target.TargetRescan;
import dev.runaway.stop.target.Targets;
import dev.runaway.model.ProcessSample;
import dev.runaway.procfs.FakeProc;
import dev.runaway.procfs.MemoryFigures;
import dev.runaway.procfs.PulseReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A program's key that no process is seen to run while executables are left unread is not "no
 * match" at once: at the start of a 20,000-task fire every exe read waited (each process was
 * mid-exec) and the stop said "nothing matches". Here a process's executable cannot be read and
 * its command line (a FIFO) waits, as for a process in the middle of an exec: the reading stays
 * patient until that read returns; so it is while a new process's stat waits. With nothing unread,
 * no match is said at once.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TargetRescanPatienceTest {
    private static final String KEY = "/tmp/drill/cache/tool";

    @TempDir
    Path dir;


    @Test
    void aProgramsKeyWithNoMatchWaitsWhileExecutablesAreUnreadAndOnlyThen() throws Exception {
        FakeProc proc = new FakeProc(dir.resolve("proc"));
        proc.nonProcessEntries();
        proc.process(1, 0, "init").cmdline("/sbin/init").exe("/usr/lib/systemd/systemd").write();
        proc.process(300, 1, "bash").start(4000).cmdline("bash").write();
        Path cmdline = proc.root().resolve("300/cmdline");
        Files.deleteIfExists(proc.root().resolve("300/exe")); // no exe given: none written
        dev.runaway.procfs.Fifos.inPlaceOf(cmdline);

        TargetRescan rescan = new TargetRescan(proc.root(), new Selector.Command(KEY), Exclusions.none(-1),
                new PulseReader(proc.root(), () -> new MemoryFigures(1L << 34, 1L << 33, 0, 0)));
        CompletableFuture<Targets> read = CompletableFuture.supplyAsync(rescan::get);

        Thread.sleep(300); // the reading has begun, and its first scan left the process unread
        assertThat(read).as("patient while an executable is unread").isNotDone();
        Thread release = new Thread(() -> { // the waiting read goes (an open for writing waits for the reader)
            try {
                dev.runaway.procfs.Fifos.release(cmdline);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, "test-fifo-writer");
        release.setDaemon(true);
        release.start();

        Targets targets = read.get(30, TimeUnit.SECONDS);
        assertThat(targets.members()).as("its executable never was the key").isEmpty();

        // Nothing unread now (the exec is over: a command line that reads): no patience, no match at once.
        release.join(10_000);
        Files.deleteIfExists(cmdline); // released: gone already
        Files.writeString(cmdline, "bash\0");
        long t0 = System.nanoTime();
        Targets again = new TargetRescan(proc.root(), new Selector.Command(KEY), Exclusions.none(-1),
                new PulseReader(proc.root(), () -> new MemoryFigures(1L << 34, 1L << 33, 0, 0))).get();
        assertThat(again.members()).isEmpty();
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)).isLessThan(2_000);
    }

    @Test
    void aProgramsKeyWithNoMatchWaitsWhileNewProcessesStatsAreUnread() throws Exception {
        FakeProc proc = new FakeProc(dir.resolve("proc"));
        proc.nonProcessEntries();
        proc.process(1, 0, "init").cmdline("/sbin/init").exe("/usr/lib/systemd/systemd").write();
        proc.process(300, 1, "tool").start(4000).cmdline(KEY).exe(KEY).write();
        // Its stat waits (an exec under way): the scan leaves the process out of its table altogether.
        Path stat = proc.root().resolve("300/stat");
        String content = Files.readString(stat);
        dev.runaway.procfs.Fifos.inPlaceOf(stat);

        TargetRescan rescan = new TargetRescan(proc.root(), new Selector.Command(KEY), Exclusions.none(-1),
                new PulseReader(proc.root(), () -> new MemoryFigures(1L << 34, 1L << 33, 0, 0)));
        CompletableFuture<Targets> read = CompletableFuture.supplyAsync(rescan::get);

        Thread.sleep(300);
        assertThat(read).as("patient while a new process's stat is unread").isNotDone();
        Thread execEnds = new Thread(() -> { // the waiting read gets the stat, and later reads a file
            try (var writer = new java.io.FileOutputStream(stat.toFile())) {
                writer.write(content.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, "test-fifo-writer");
        execEnds.setDaemon(true);
        execEnds.start();
        execEnds.join(10_000);
        Files.delete(stat);
        Files.writeString(stat, content);

        Targets targets = read.get(30, TimeUnit.SECONDS);
        assertThat(targets.members()).extracting(ProcessSample::pid).containsExactly(300);
    }
}
