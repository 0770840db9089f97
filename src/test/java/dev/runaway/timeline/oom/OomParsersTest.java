// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline.oom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** Every fixture format to the right events: one per kill, with the victim, its time and its count. */
class OomParsersTest {
    private static final String WINDOWS = "/user.slice/user-1000.slice/user@1000.service/app.slice/app-org.gnome.Terminal.slice/";
    private static final long KB = 1024;

    @TempDir
    Path dir;

    @Test
    void kernel6MemcgKillFromKmsgIsOneEventWithItsCgroupLimitAndRss() throws IOException {
        List<OomEvent> events = OomJoiner.join(Fixtures.kmsg("kmsg-6.x-memcg.txt", dir));

        assertThat(events).hasSize(1);
        OomEvent kill = events.get(0);
        String memcg = "/process_api/405b391429e5ac4bb21edc50b68886b9/runaway-manual-oom-probe";
        assertThat(kill.source()).isEqualTo(OomEvent.Source.KERNEL);
        assertThat(kill.pid()).isEqualTo(26786);
        assertThat(kill.command()).isEqualTo("oom (hog) x");
        assertThat(kill.processesKilled()).isEqualTo(1);
        assertThat(kill.time()).as("boot + 8326.699848 s").isEqualTo(Instant.parse("2025-10-19T10:18:46.699848Z"));
        assertThat(kill.constraint()).isEqualTo("CONSTRAINT_MEMCG");
        assertThat(kill.cgroup()).isEqualTo(memcg);
        assertThat(kill.limitCgroup()).isEqualTo(memcg);
        assertThat(kill.limitBytes()).isEqualTo(65536 * KB);
        assertThat(kill.totalVmBytes()).isEqualTo(68148 * KB);
        assertThat(kill.anonRssBytes()).isEqualTo(65280 * KB);
        assertThat(kill.fileRssBytes()).isEqualTo(1548 * KB);
        assertThat(kill.shmemRssBytes()).isZero();
        assertThat(kill.rssBytes()).isEqualTo((65280 + 1548) * KB);
        assertThat(kill.message()).startsWith("oom-kill:constraint=CONSTRAINT_MEMCG")
                .contains("\nMemory cgroup out of memory: Killed process 26786 (oom (hog) x) total-vm:68148kB");
    }

    @Test
    void kernel5GlobalStormGivesOneEventPerKillIncludingRateLimitedOnes() throws IOException {
        List<OomEvent> events = OomJoiner.join(Fixtures.kmsg("kmsg-5.x-global.txt", dir));

        assertThat(events).extracting(OomEvent::pid, OomEvent::command, OomEvent::cgroup, OomEvent::constraint)
                .containsExactly(
                        tuple(1187, "tailscaled", "/system.slice/tailscaled.service", "CONSTRAINT_NONE"),
                        tuple(4242, "Web Content", WINDOWS.replace("app-org.gnome.Terminal.slice/", "") + "app-firefox-8812.scope",
                                "CONSTRAINT_NONE"),
                        tuple(5151, "(sd-pam)", "", ""), // its header was rate-limited: the Killed line alone
                        tuple(1399, "tailscaled", "", ""),
                        tuple(30001, "my (x), y", "/user.slice/user-1000.slice/session-4.scope", "CONSTRAINT_NONE"));
        assertThat(events).allSatisfy(e -> {
            assertThat(e.source()).isEqualTo(OomEvent.Source.KERNEL);
            assertThat(e.processesKilled()).isEqualTo(1);
            assertThat(e.limitCgroup()).as("a machine-wide OOM has no limiting cgroup").isEmpty();
            assertThat(e.limitBytes()).isEqualTo(OomEvent.UNKNOWN);
        });
        assertThat(events.get(0).time()).isEqualTo(Fixtures.BOOT.wallTime(14512004883L));
        assertThat(events.get(1).anonRssBytes()).isEqualTo(612344 * KB);
        assertThat(events.get(1).shmemRssBytes()).isEqualTo(4096 * KB);
        assertThat(events.stream().filter(e -> e.command().equals("tailscaled"))).hasSize(2);
    }

    @Test
    void tornAndGarbageKmsgLinesAreSkippedAndTheGoodOnesAroundThemRead() throws IOException {
        List<OomEvent> events = OomJoiner.join(Fixtures.kmsg("kmsg-torn.txt", dir));

        assertThat(events).extracting(OomEvent::pid, OomEvent::command)
                .as("a userspace line forged as the kernel's (facility 1) is not a kill; \\xNN escapes are decoded")
                .containsExactly(tuple(777, "survivor"), tuple(778, "café \\"));
        assertThat(events.get(0).time()).isEqualTo(Fixtures.BOOT.wallTime(9000000004L));
    }

    @Test
    void kernelKillsFromTheJournalKeepTheirWallTimeAndByteArrayMessages() throws IOException {
        List<OomEvent> events = OomJoiner.join(Fixtures.journal("journal-kernel.json"));

        assertThat(events).hasSize(2);
        OomEvent memcg = events.get(0);
        assertThat(memcg.time()).isEqualTo(Instant.parse("2025-10-20T09:14:03.201015Z"));
        assertThat(memcg.pid()).isEqualTo(48210);
        assertThat(memcg.command()).isEqualTo("python3");
        assertThat(memcg.cgroup()).isEqualTo("/system.slice/repro.service");
        assertThat(memcg.constraint()).isEqualTo("CONSTRAINT_MEMCG");
        assertThat(memcg.limitBytes()).as("the 1,500 MiB cap of the incident's reproduction").isEqualTo(1536000 * KB);
        OomEvent bytes = events.get(1);
        assertThat(bytes.pid()).isEqualTo(31337);
        assertThat(bytes.command()).as("MESSAGE as an array of bytes, not UTF-8").isEqualTo("na\uFFFDve\u0007");
        assertThat(bytes.time()).isEqualTo(Instant.parse("2025-10-20T10:01:02.000500Z"));
    }

    @Test
    void oomdKillsAreJoinedToTheManagersCountsInEitherOrder() throws IOException {
        List<OomEvent> events = OomJoiner.join(Fixtures.journal("journal-oomd.json"));

        assertThat(events).extracting(OomEvent::time, OomEvent::command, OomEvent::processesKilled, OomEvent::constraint)
                .as("the forged line (SYSLOG_IDENTIFIER systemd-oomd, _COMM bash) is not a kill")
                .containsExactly(
                        tuple(Instant.parse("2025-10-19T13:52:08.112Z"), "vte-spawn-5f2c8a10-6a1e-4c55-9d7e-3b0c1e2f4a61.scope", 18705L, "swap"),
                        tuple(Instant.parse("2025-10-19T16:40:31.240Z"), "vte-spawn-0b869d19-77c2-4f0e-8a3b-5d1e2c3f4a5b.scope", 21337L, "swap"),
                        tuple(Instant.parse("2025-10-20T08:11:40.500Z"), "app-firefox-8812.scope", 212L, "memory pressure"),
                        tuple(Instant.parse("2025-10-20T15:02:55.700Z"), "vte-spawn-a1b2c3d4-e5f6-4711-8899-aabbccddeeff.scope", 29082L, "swap"),
                        tuple(Instant.parse("2025-10-20T16:10:00Z"), "vte-spawn-11111111-2222-4333-8444-555555555555.scope", -1L, "swap"),
                        tuple(Instant.parse("2025-10-20T17:30:12Z"), "tmux-spawn-8b82c0de-1234-4567-89ab-cdef01234567.scope", -1L, "swap"),
                        tuple(Instant.parse("2025-10-20T17:45:00Z"), "build.service", 134L, ""));
        assertThat(events).allSatisfy(e -> {
            assertThat(e.source()).isEqualTo(OomEvent.Source.OOMD);
            assertThat(e.pid()).isEqualTo(-1);
        });
        assertThat(events.get(0).cgroup()).isEqualTo(WINDOWS + "vte-spawn-5f2c8a10-6a1e-4c55-9d7e-3b0c1e2f4a61.scope");
        assertThat(events.get(0).message()).contains("swap used (63350767616)").contains("systemd-oomd killed 18705 process(es)");
        assertThat(events.get(2).limitCgroup()).isEqualTo("/user.slice/user-1000.slice/user@1000.service");
        assertThat(events.get(6).cgroup()).as("a count alone does not say the cgroup's path").isEmpty();
    }

    @Test
    void tornJournalLinesAreSkipped() {
        assertThat(JournalJson.parse("{\"__REALTIME_TIMESTAMP\":\"1760951000000000\",\"MESSAGE\":\"Out of memory: Kil")).isEmpty();
        assertThat(JournalJson.parse("")).isEmpty();
        assertThat(JournalJson.parse("-- No entries --")).isEmpty();
        assertThat(JournalJson.parse("{\"__REALTIME_TIMESTAMP\":\"1\",\"MESSAGE\":[1,\"x\"]}")).isEmpty();
    }

    @Test
    void theOomKillLineAndTheKilledLineOfOnePidAreOneEvent() {
        Instant t = Instant.parse("2025-10-20T09:14:03Z");
        List<OomEvent> events = OomJoiner.join(List.of(
                kernel(t, "oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=/,mems_allowed=0,oom_memcg=/a,"
                        + "task_memcg=/a/b,task=x,pid=10,uid=0"),
                kernel(t.plusNanos(15_000), "Memory cgroup out of memory: Killed process 10 (x) total-vm:1kB, anon-rss:1kB, "
                        + "file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:4kB oom_score_adj:0")));

        assertThat(events).singleElement().satisfies(e -> {
            assertThat(e.cgroup()).isEqualTo("/a/b");
            assertThat(e.limitCgroup()).isEqualTo("/a");
            assertThat(e.message().lines()).hasSize(2);
        });
    }

    @Test
    void anOomKillLineSplitInTwoRecordsByAnotherCpusPrintkIsStillJoined() {
        Instant t = Instant.parse("2025-10-20T09:14:03Z");
        List<OomEvent> events = OomJoiner.join(List.of(
                kernel(t, "oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=/,mems_allowed=0"),
                kernel(t, ",oom_memcg=/a,task_memcg=/a/b,task=x y,pid=10,uid=0"),
                kernel(t, "Memory cgroup out of memory: Killed process 10 (x y) total-vm:1kB, anon-rss:1kB, file-rss:0kB, shmem-rss:0kB")));

        assertThat(events).singleElement().satisfies(e -> {
            assertThat(e.cgroup()).isEqualTo("/a/b");
            assertThat(e.limitCgroup()).isEqualTo("/a");
            assertThat(e.command()).isEqualTo("x y");
        });
    }

    @Test
    void aSummaryOfAnotherPidOrAnEarlierReportIsNotJoined() {
        Instant t = Instant.parse("2025-10-20T09:14:03Z");
        String summary = "oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0,global_oom,task_memcg=/s,task=y,pid=11,uid=0";
        String killed = "Out of memory: Killed process 10 (x) total-vm:1kB, anon-rss:1kB, file-rss:0kB, shmem-rss:0kB";
        List<OomEvent> otherPid = OomJoiner.join(List.of(kernel(t, summary), kernel(t, killed)));
        List<OomEvent> afterNewReport = OomJoiner.join(List.of(kernel(t, summary.replace("pid=11", "pid=10")),
                kernel(t, "z invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0, oom_score_adj=0"), kernel(t, killed)));

        assertThat(otherPid).singleElement().extracting(OomEvent::cgroup).isEqualTo("");
        assertThat(afterNewReport).singleElement().extracting(OomEvent::cgroup).isEqualTo("");
    }

    @Test
    void aLiveOomdKillWaitsForItsCountThenGoesAloneAfterTheWindow() {
        List<OomEvent> out = new ArrayList<>();
        OomJoiner joiner = new OomJoiner(out::add);
        Instant t = Instant.parse("2025-10-20T15:02:55Z");
        joiner.accept(new LogLine(t, LogLine.Origin.OOMD, "Killed /a/b.scope due to memory pressure for /a being 60.00% > 50.00% for > 20s with reclaim activity"));

        joiner.expire(t.plus(OomJoiner.OOMD_WINDOW).minusSeconds(1));
        assertThat(out).as("still waiting for the manager's count").isEmpty();

        joiner.expire(t.plus(OomJoiner.OOMD_WINDOW).plusSeconds(1));
        assertThat(out).singleElement().satisfies(e -> {
            assertThat(e.command()).isEqualTo("b.scope");
            assertThat(e.processesKilled()).isEqualTo(OomEvent.UNKNOWN);
        });
        joiner.accept(new LogLine(t.plusSeconds(40), LogLine.Origin.MANAGER, "b.scope: systemd-oomd killed 3 process(es) in this unit."));
        joiner.flush();
        assertThat(out).as("a count after the window is a kill of its own").hasSize(2);
    }

    @Test
    void kmsgRecordsCarryFacilityLevelAndContinuationLinesAreNotRecords() {
        KmsgRecord record = KmsgRecord.parse("3,849,8326699848,-;Memory cgroup out of memory: Killed process 1 (a)").orElseThrow();

        assertThat(record.facility()).isZero();
        assertThat(record.level()).isEqualTo(3);
        assertThat(record.sequence()).isEqualTo(849);
        assertThat(record.microsSinceBoot()).isEqualTo(8326699848L);
        assertThat(KmsgRecord.parse(" SUBSYSTEM=usb")).isEmpty();
        assertThat(KmsgRecord.parse("30,7,100,-;systemd-oomd[588]: Killed /a.scope due to x").orElseThrow()
                .toLogLine(Fixtures.BOOT)).satisfies(line -> {
                    assertThat(line.origin()).isEqualTo(LogLine.Origin.OOMD);
                    assertThat(line.text()).isEqualTo("Killed /a.scope due to x");
                });
    }

    private static LogLine kernel(Instant time, String text) {
        return new LogLine(time, LogLine.Origin.KERNEL, text);
    }
}
