// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The stop's reads of a cgroup's other processes: one whose stat waits (here a FIFO) is named unread, the rest are read, in bounded time. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class StatsInTimeTest {
    @TempDir
    Path dir;

    @Test
    void aStatThatWaitsIsUnreadAndTheRestAreRead() throws Exception {
        FakeProc proc = new FakeProc(dir.resolve("proc"));
        for (int pid = 100; pid < 140; pid++) proc.process(pid, 1, "tool").write();
        Path stat = proc.root().resolve("120/stat");
        Files.delete(stat);
        assertThat(ProcessTableTest.Fifo.C.mkfifo(stat.toString(), 0600)).isZero();
        List<Integer> pids = new java.util.ArrayList<>();
        for (int pid = 100; pid < 141; pid++) pids.add(pid); // 140 is gone

        long t0 = System.nanoTime();
        StatsInTime.Result r = StatsInTime.read(proc.root(), pids, 50, 250);

        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)).isLessThan(5_000);
        assertThat(r.unread()).containsExactly(120);
        assertThat(r.gone()).containsExactly(140);
        assertThat(r.stats()).hasSize(39).containsKey(100).doesNotContainKey(120);
        try (var writer = new java.io.FileOutputStream(stat.toFile())) { // let the waiting read go
            writer.write('\n');
        }
    }
}
