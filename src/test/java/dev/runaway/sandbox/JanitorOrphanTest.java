// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sandbox;

import dev.runaway.model.ProcessIdentity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class JanitorOrphanTest {

    private static final int OWNER_PID = 4242;
    private static final long OWNER_START = 987654L;
    private static final Instant NOW = Instant.ofEpochSecond(1_800_000_000L);
    private static final long FUTURE = NOW.getEpochSecond() + 600;
    private static final long PAST = NOW.getEpochSecond() - 1;

    @TempDir
    Path proc;

    /** A full /proc/PID/stat line: field 3 state, 22 starttime. */
    private void writeStat(int pid, char state, long startTicks) throws IOException {
        Files.createDirectories(proc.resolve(Integer.toString(pid)));
        String line = pid + " (java) " + state + " 1 " + pid + " " + pid + " 0 -1 4194560 52113 0 12 0 1830 245 0 0 20 0 38 0 "
                + startTicks + " 8123645952 81234 18446744073709551615 1 1 0 0 0 0 0 4096 16796879 0 0 0 17 3 0 0 0 0 0"
                + " 0 0 0 0 0 0 0 0\n";
        Files.writeString(proc.resolve(pid + "/stat"), line);
    }

    private static SandboxName owned(long deadline) {
        return new SandboxName(Optional.of(new ProcessIdentity(OWNER_PID, OWNER_START)), deadline, "janitor-test");
    }

    private static SandboxName detached(long deadline) {
        return new SandboxName(Optional.empty(), deadline, "janitor-test");
    }

    @Test
    void liveOwnerBeforeDeadlineIsNotOrphan() throws IOException {
        writeStat(OWNER_PID, 'S', OWNER_START);

        assertThat(Janitor.isOrphan(owned(FUTURE), proc, NOW)).isFalse();
    }

    @Test
    void missingOwnerIsOrphan() {
        assertThat(Janitor.isOrphan(owned(FUTURE), proc, NOW)).isTrue();
    }

    @Test
    void reusedOwnerPidWithOtherStartTicksIsOrphan() throws IOException {
        writeStat(OWNER_PID, 'S', OWNER_START + 1);

        assertThat(Janitor.isOrphan(owned(FUTURE), proc, NOW)).isTrue();
    }

    @Test
    void zombieOwnerIsOrphan() throws IOException {
        writeStat(OWNER_PID, 'Z', OWNER_START);

        assertThat(Janitor.isOrphan(owned(FUTURE), proc, NOW)).isTrue();
    }

    @Test
    void passedDeadlineIsOrphanEvenWithLiveOwner() throws IOException {
        writeStat(OWNER_PID, 'R', OWNER_START);

        assertThat(Janitor.isOrphan(owned(PAST), proc, NOW)).isTrue();
        assertThat(Janitor.isOrphan(owned(NOW.getEpochSecond()), proc, NOW)).isTrue();
    }

    @Test
    void detachedBeforeDeadlineIsNotOrphan() {
        assertThat(Janitor.isOrphan(detached(FUTURE), proc, NOW)).isFalse();
    }

    @Test
    void detachedAfterDeadlineIsOrphan() {
        assertThat(Janitor.isOrphan(detached(PAST), proc, NOW)).isTrue();
    }
}
