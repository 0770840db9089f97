// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline.oom;

import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The live watcher on a fake kmsg file, on a fake journalctl, and on this machine's /dev/kmsg. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("process")
class OomWatcherTest {

    @TempDir
    Path dir;

    @Test
    void aKmsgFileIsReadFromItsEndAndEachNewKillArrivesOnce() throws Exception {
        Path kmsg = Fixtures.copy("kmsg-5.x-global.txt", dir); // five kills already there: not new
        List<OomEvent> events = new CopyOnWriteArrayList<>();
        try (OomWatcher watcher = OomWatcher.onKmsg(kmsg, Fixtures.BOOT, events::add)) {
            assertThat(watcher.kernelSource()).isEqualTo(kmsg.toString());
            Files.write(kmsg, Fixtures.bytes("kmsg-6.x-memcg.txt"), StandardOpenOption.APPEND);

            await(events, 1);
            Thread.sleep(500);
            assertThat(events).singleElement().satisfies(e -> {
                assertThat(e.pid()).isEqualTo(26786);
                assertThat(e.command()).isEqualTo("oom (hog) x");
                assertThat(e.constraint()).isEqualTo("CONSTRAINT_MEMCG");
            });

            // a record written in two pieces is read once it is whole
            append(kmsg, "3,9001,8400000000,-;Out of memory: Killed process 42 (split ");
            Thread.sleep(300);
            append(kmsg, "name) total-vm:1kB, anon-rss:1kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:4kB oom_score_adj:0\n");
            await(events, 2);
            assertThat(events.get(1).command()).isEqualTo("split name");
            assertThat(events.get(1).time()).isEqualTo(Fixtures.BOOT.wallTime(8400000000L));
            assertThat(watcher.problem()).isEmpty();
        }
        assertThat(watcherThreadsAlive()).as("close() stopped the reading thread").isFalse();
    }

    @Test
    void aJournalctlStreamGivesTheOomdKillsWithTheirCountsAndCloseStopsTheChild() throws Exception {
        Path fixture = Fixtures.copy("journal-oomd.json", dir);
        List<OomEvent> events = new CopyOnWriteArrayList<>();
        try (Sandbox box = Sandboxes.create(SandboxSpec.of("test-oom-journal", 8))) {
            ProcessHandle child;
            // a fake journalctl: prints the fixture, then stays, as journalctl -f does
            try (OomWatcher watcher = OomWatcher.onJournal(List.of("/bin/sh", "-c", "cat \"$0\"; exec sleep 300", fixture.toString()),
                    box::start, events::add)) {
                child = watcher.journalProcess().orElseThrow();
                await(events, 7);
                assertThat(events).extracting(OomEvent::processesKilled).containsExactly(18705L, 21337L, 212L, 29082L, -1L, -1L, 134L);
                assertThat(child.isAlive()).isTrue();
            }
            // close() signals and waits; on a loaded machine the exit can land after its own waits.
            child.onExit().get(30, java.util.concurrent.TimeUnit.SECONDS); // sleep 300 would not end by itself
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).until(() -> !watcherThreadsAlive());
        }
    }

    @Test
    void whereKmsgIsNotReadableTheKernelsKillsComeFromTheJournal() throws Exception {
        Fixtures.copy("journal-kernel.json", dir);
        List<OomEvent> events = new CopyOnWriteArrayList<>();
        List<List<String>> commands = new CopyOnWriteArrayList<>();
        try (Sandbox box = Sandboxes.create(SandboxSpec.of("test-oom-fallback", 8))) {
            Launcher journalctl = builder -> {
                commands.add(List.copyOf(builder.command()));
                String script = builder.command().contains("--lines=1") ? "echo 'Oct 20 09:00:00 desk kernel: eth0: Link is Up'"
                        : "cat journal-kernel.json; exec sleep 300";
                return box.start(new ProcessBuilder("/bin/sh", "-c", script).directory(dir.toFile()));
            };
            try (OomWatcher watcher = OomWatcher.start(events::add, journalctl, dir.resolve("kmsg-not-here"))) {
                assertThat(watcher.kernelSource()).isEqualTo("journalctl -k");
                assertThat(watcher.oomdSource()).isEqualTo("journalctl");
                assertThat(watcher.source()).startsWith("journalctl -k -f (the kernel's OOM kills; ")
                        .contains("kmsg-not-here is not readable: No such file or directory");
                await(events, 2);
                assertThat(events).extracting(OomEvent::pid).containsExactly(48210, 31337);
            }
            assertThat(commands.get(1)).as("one journalctl -f for the kernel, oomd and the managers")
                    .contains("--follow", "_TRANSPORT=kernel", "+", "SYSLOG_IDENTIFIER=systemd-oomd", "SYSLOG_IDENTIFIER=systemd");
        }
    }

    @Test
    void withNeitherKmsgNorAJournalTheWatcherSaysItWatchesNothing() throws Exception {
        try (Sandbox box = Sandboxes.create(SandboxSpec.of("test-oom-none", 8));
             OomWatcher watcher = OomWatcher.start(e -> { }, b -> box.start(new ProcessBuilder("/bin/sh", "-c",
                     "echo '-- No entries --'; echo 'No journal files were found.' >&2")), dir.resolve("kmsg-not-here"))) {
            assertThat(watcher.kernelSource()).isEqualTo("none");
            assertThat(watcher.source()).startsWith("none: ").contains("not readable").contains("No journal files were found.");
            assertThat(watcher.journalProcess()).isEmpty();
        }
    }

    @Test
    void onThisMachineTheWatcherSaysItReadsDevKmsg() throws Exception {
        assumeTrue(kmsgReadable(), "/dev/kmsg is not readable here (non-root with dmesg_restrict)");
        try (Sandbox box = Sandboxes.create(SandboxSpec.of("test-oom-source", 8));
             OomWatcher watcher = OomWatcher.start(e -> { }, box::start)) {
            System.out.println("OomWatcher.source(): " + watcher.source());
            assertThat(watcher.kernelSource()).isEqualTo("/dev/kmsg");
            assertThat(watcher.source()).startsWith("/dev/kmsg (the kernel's OOM kills, new records only); systemd-oomd: ");
            Journal.Presence journal = Journal.probe(box::start);
            if (!journal.hasEntries()) {
                assertThat(watcher.oomdSource()).isEqualTo("none");
                assertThat(watcher.source()).contains("not watched").contains(journal.why());
            }
        }
        assertThat(watcherThreadsAlive()).isFalse();
    }

    @Test
    void aKmsgRecordLargerThanTheBufferFailsWithEinvalAndIsReadWholeOnceTheBufferGrew() throws Exception {
        assumeTrue(kmsgReadable(), "/dev/kmsg is not readable here (non-root with dmesg_restrict)");
        String first;
        try (KmsgReader normal = new KmsgReader(OomWatcher.DEV_KMSG, false)) {
            first = normal.read(0).get(0);
        }
        try (KmsgReader tiny = new KmsgReader(OomWatcher.DEV_KMSG, false, 8)) {
            List<String> lines = tiny.read(0);
            assertThat(tiny.grown()).as("the first read failed with EINVAL and the buffer grew").isPositive();
            KmsgRecord a = KmsgRecord.parse(first).orElseThrow();
            KmsgRecord b = KmsgRecord.parse(lines.get(0)).orElseThrow();
            if (a.sequence() == b.sequence()) assertThat(b).isEqualTo(a); // unless the ring moved on between the two opens
        }
    }

    static boolean kmsgReadable() {
        try (KmsgReader ignored = new KmsgReader(OomWatcher.DEV_KMSG, true)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    static void await(List<OomEvent> events, int count) throws InterruptedException {
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).pollInterval(java.time.Duration.ofMillis(20))
                .untilAsserted(() -> assertThat(events).as("events within 10 s").hasSizeGreaterThanOrEqualTo(count));
    }

    private static void append(Path file, String text) throws IOException {
        Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    }

    private static boolean watcherThreadsAlive() {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().startsWith("runaway-oom-") && t.isAlive());
    }
}
