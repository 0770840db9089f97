// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline.oom;

import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Which source answers for a time range. journalctl is replaced by a small shell script (run in
 * a sandbox) that answers the probe and the range query the way the real one does.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("process")
class OomHistoryTest {
    private static final String NO_JOURNAL = "echo '-- No entries --'; echo 'No journal files were found.' >&2";
    private static final String ONE_ENTRY = "echo 'Oct 20 18:30:00 desk systemd[1565]: Started Session 9 of User me.'";

    @TempDir
    Path dir;
    private Sandbox box;
    private final List<List<String>> commands = new CopyOnWriteArrayList<>();

    @BeforeEach
    void sandbox() throws IOException {
        box = Sandboxes.create(SandboxSpec.of("test-oom-history", 8));
    }

    @AfterEach
    void teardown() {
        box.close();
    }

    /** A fake journalctl: {@code probe} answers "--lines=1", {@code range} everything else. */
    private Launcher journalctl(String probe, String range) {
        return builder -> {
            commands.add(List.copyOf(builder.command()));
            String script = builder.command().contains("--lines=1") ? probe : range;
            return box.start(new ProcessBuilder("/bin/sh", "-c", script).directory(dir.toFile()));
        };
    }

    @Test
    void withNoJournalTheKmsgRingBufferAnswersAndSaysWhy() throws IOException {
        Path kmsg = Fixtures.copy("kmsg-5.x-global.txt", dir);

        OomHistory.Result result = OomHistory.read(Fixtures.BOOT.wallTime(14_512_000_000L), Fixtures.BOOT.wallTime(14_531_200_000L),
                journalctl(NO_JOURNAL, "exit 99"), kmsg, Fixtures.BOOT);

        assertThat(result.events()).extracting(OomEvent::pid).containsExactly(1187, 4242, 5151);
        assertThat(result.source()).startsWith(kmsg + " ring buffer since boot (records since ")
                .contains("as the journal answered nothing (No journal files were found.)");
        assertThat(commands).as("no range query without a journal").hasSize(1);
    }

    @Test
    void theJournalAnswersWhereItHasEntriesForTheRange() throws IOException {
        Fixtures.copy("journal-oomd.json", dir);
        Fixtures.copy("journal-kernel.json", dir);
        Instant from = Instant.parse("2025-10-20T00:00:00Z");
        Instant to = Instant.parse("2025-10-21T00:00:00Z");

        OomHistory.Result result = OomHistory.read(from, to, journalctl(ONE_ENTRY, "cat journal-kernel.json journal-oomd.json"),
                dir.resolve("no-kmsg"), Fixtures.BOOT);

        assertThat(result.source()).startsWith("the journal (journalctl: ");
        assertThat(result.events()).extracting(OomEvent::source, OomEvent::command, OomEvent::processesKilled).containsExactly(
                org.assertj.core.groups.Tuple.tuple(OomEvent.Source.OOMD, "app-firefox-8812.scope", 212L),
                org.assertj.core.groups.Tuple.tuple(OomEvent.Source.KERNEL, "python3", 1L),
                org.assertj.core.groups.Tuple.tuple(OomEvent.Source.KERNEL, "na\uFFFDve\u0007", 1L),
                org.assertj.core.groups.Tuple.tuple(OomEvent.Source.OOMD, "vte-spawn-a1b2c3d4-e5f6-4711-8899-aabbccddeeff.scope", 29082L),
                org.assertj.core.groups.Tuple.tuple(OomEvent.Source.OOMD, "vte-spawn-11111111-2222-4333-8444-555555555555.scope", -1L),
                org.assertj.core.groups.Tuple.tuple(OomEvent.Source.OOMD, "tmux-spawn-8b82c0de-1234-4567-89ab-cdef01234567.scope", -1L),
                org.assertj.core.groups.Tuple.tuple(OomEvent.Source.OOMD, "build.service", 134L));
        List<String> range = commands.get(1);
        assertThat(range).as("the range widened by the join window, and the three writers")
                .contains("--since=@" + from.minus(OomJoiner.OOMD_WINDOW).getEpochSecond(), "_TRANSPORT=kernel",
                        "SYSLOG_IDENTIFIER=systemd-oomd", "SYSLOG_IDENTIFIER=systemd");
    }

    @Test
    void aJournalWithNothingInTheRangeOrThatFailsLeavesItToKmsgAndSaysSo() throws IOException {
        Path kmsg = Fixtures.copy("kmsg-6.x-memcg.txt", dir);
        Instant from = Fixtures.BOOT.boot();
        Instant to = Fixtures.BOOT.wallTime(9_000_000_000L);

        OomHistory.Result empty = OomHistory.read(from, to, journalctl(ONE_ENTRY, "true"), kmsg, Fixtures.BOOT);
        OomHistory.Result failed = OomHistory.read(from, to,
                journalctl(ONE_ENTRY, "echo 'Failed to open journal: Permission denied' >&2; exit 1"), kmsg, Fixtures.BOOT);

        assertThat(empty.events()).extracting(OomEvent::pid).containsExactly(26786);
        assertThat(empty.source()).contains("ring buffer").contains("the journal has no entries of the kernel");
        assertThat(failed.events()).extracting(OomEvent::pid).containsExactly(26786);
        assertThat(failed.source()).contains("journalctl exited with 1: Failed to open journal: Permission denied");
    }

    @Test
    void withNeitherTheAnswerIsNoneAndSaysWhy() {
        OomHistory.Result result = OomHistory.read(Instant.EPOCH, Instant.now(), journalctl(NO_JOURNAL, "exit 99"),
                dir.resolve("no-kmsg"), Fixtures.BOOT);

        assertThat(result.events()).isEmpty();
        assertThat(result.source()).startsWith("none: ").contains("No journal files were found.").contains("no-kmsg is not readable");
    }

    @Test
    void anEmptyRangeIsRefused() {
        Instant now = Instant.now();
        assertThatThrownBy(() -> OomHistory.read(now, now, journalctl(NO_JOURNAL, "exit 99"), dir, Fixtures.BOOT))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
