package dev.runaway.analysis;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.runaway.model.ProcessSample;
import dev.runaway.model.PulseSample;
import dev.runaway.procfs.CgroupPids;
import dev.runaway.procfs.ProcessCaps;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.runaway.analysis.Procs.MIB;
import static dev.runaway.analysis.Procs.proc;
import static dev.runaway.analysis.Procs.scan;
import static dev.runaway.analysis.Procs.with;
import static org.assertj.core.api.Assertions.assertThat;

/** Pressure as a state: a group whose forks are refused at a limit is at cap, and ranks first. */
class AtCapTest {
    private static final int HIGH = 5_000_000; // never this JVM's pid
    private static final String DRILL = "/tmp/drill-worker";

    @TempDir
    Path root;
    private Path cgroups;
    private Path proc;
    private Analyzer analyzer;

    @BeforeEach
    void setUp() throws IOException {
        cgroups = Files.createDirectories(root.resolve("cgroup"));
        proc = Files.createDirectories(root.resolve("proc"));
        analyzer = new Analyzer(new CgroupPids(cgroups), new ProcessCaps(proc, cgroups));
    }

    private Path pidsCgroup(String name, int max, int current, long refused) throws IOException {
        Path dir = Files.createDirectories(cgroups.resolve("pids").resolve(name));
        Files.writeString(dir.resolve("pids.max"), max + "\n");
        Files.writeString(dir.resolve("pids.current"), current + "\n");
        Files.writeString(dir.resolve("pids.events"), "max " + refused + "\n");
        return dir;
    }

    private static List<ProcessSample> members(String command, int firstPid, int count, String cgroup, int uid) {
        List<ProcessSample> p = new ArrayList<>();
        p.add(proc(900, 1).binary("/usr/bin/make").build());
        for (int i = 0; i < count; i++) {
            p.add(proc(HIGH + firstPid + i, 900).binary(command).session(900).cgroup(cgroup).uid(uid).rss(MIB).build());
        }
        return p;
    }

    private Snapshot at(double seconds, List<ProcessSample> p) {
        return at(seconds, p, Procs.PID_MAX, 1000);
    }

    private Snapshot at(double seconds, List<ProcessSample> p, int pidMax, int tasks) {
        long nanos = Procs.nanos(seconds);
        PulseSample pulse = new PulseSample(java.time.Instant.EPOCH.plusNanos(nanos), nanos, tasks, 10_000, 16 * Procs.GIB,
                8 * Procs.GIB, 0, 0, java.util.Optional.empty(), pidMax, Procs.THREADS_MAX);
        return analyzer.analyze(scan(seconds, with(p)), pulse);
    }

    private static Group group(Snapshot s, String command) {
        return s.groups().stream().filter(g -> g.command().equals(command)).findFirst().orElseThrow();
    }

    @Test
    void refusedForksAtPidsMaxPutTheGroupAtCapWithTheCountSinceTheLastScan() throws IOException {
        Path cg = pidsCgroup("sbx", 600, 599, 1000);
        List<ProcessSample> p = members(DRILL, 1000, 599, "/sbx", 1000);
        p.addAll(members("/usr/bin/sleep", 5000, 2000, "/user.slice", 1000)); // larger, but calm

        Snapshot first = at(0, p);
        assertThat(group(first, DRILL).atCap()).as("no baseline yet, but room left: not at cap").isFalse();

        Files.writeString(cg.resolve("pids.events"), "max 1042\n");
        Snapshot second = at(0.5, p);

        Group drill = group(second, DRILL);
        assertThat(drill.atCap()).isTrue();
        assertThat(drill.cap()).contains(new GroupCap("pids.max", 600));
        assertThat(drill.forksRefused()).isEqualTo(42);
        assertThat(drill.cgroup()).isEqualTo("/sbx");
        assertThat(second.groups().get(0).command()).as("at cap is the most severe state").isEqualTo(DRILL);
        assertThat(GroupColumn.EXHAUSTS.value(drill)).isEqualTo("AT CAP pids.max");
        assertThat(GroupColumn.FLAGS.value(drill)).startsWith("C");
    }

    @Test
    void aCgroupWithNoRoomLeftIsAtCapAtFirstSight() throws IOException {
        pidsCgroup("sbx", 600, 600, 0);
        Group drill = group(at(0, members(DRILL, 1000, 600, "/sbx", 1000)), DRILL);
        assertThat(drill.atCap()).isTrue();
        assertThat(drill.forksRefused()).isZero();
    }

    @Test
    void atCapHoldsForAFewSecondsAfterTheLastRefusalThenEnds() throws IOException {
        Path cg = pidsCgroup("sbx", 600, 500, 0);
        List<ProcessSample> p = members(DRILL, 1000, 500, "/sbx", 1000);
        at(0, p);
        Files.writeString(cg.resolve("pids.events"), "max 7\n");
        assertThat(group(at(1, p), DRILL).atCap()).isTrue();

        Group held = group(at(1 + CapWatch.HOLD_SECONDS - 1, p), DRILL);
        assertThat(held.atCap()).as("no new refusal, but within the hold").isTrue();
        assertThat(held.forksRefused()).isZero();

        assertThat(group(at(1 + CapWatch.HOLD_SECONDS + 0.5, p), DRILL).atCap()).isFalse();
    }

    @Test
    void oomKillsUnderAV1MemoryCapPutTheGroupAtCap() throws IOException {
        List<ProcessSample> p = members("/tmp/hog", 1000, 3, "/", 1000);
        Path memory = Files.createDirectories(cgroups.resolve("memory/sbx-mem"));
        Files.writeString(memory.resolve("memory.limit_in_bytes"), (256L << 20) + "\n");
        Files.writeString(memory.resolve("memory.oom_control"), "oom_kill_disable 0\nunder_oom 0\noom_kill 1\n");
        Path procDir = Files.createDirectories(proc.resolve(Integer.toString(HIGH + 1000)));
        Files.writeString(procDir.resolve("cgroup"), "4:memory:/sbx-mem\n0::/\n");

        at(0, p);
        Files.writeString(memory.resolve("memory.oom_control"), "oom_kill_disable 0\nunder_oom 0\noom_kill 3\n");
        Group hog = group(at(0.5, p), "/tmp/hog");

        assertThat(hog.atCap()).isTrue();
        assertThat(hog.cap()).contains(new GroupCap("memory.limit_in_bytes", 256L << 20));
        assertThat(hog.forksRefused()).as("OOM kills since the last scan").isEqualTo(2);
    }

    @Test
    void aUsersTasksAtTheirRlimitNprocPutTheirLargeGroupAtCap() throws IOException {
        List<ProcessSample> p = members(DRILL, 1000, 199, "/user.slice", 1000);
        Path procDir = Files.createDirectories(proc.resolve(Integer.toString(HIGH + 1000)));
        Files.writeString(procDir.resolve("limits"), "Limit                     Soft Limit           Hard Limit           Units\n"
                + "Max processes             200                  200                  processes\n");

        Group drill = group(at(0, p), DRILL);

        assertThat(drill.atCap()).isTrue();
        assertThat(drill.cap()).contains(new GroupCap("RLIMIT_NPROC", 200));
        assertThat(drill.forksRefused()).as("the kernel keeps no count").isEqualTo(-1);
    }

    @Test
    void aMachineAtPidMaxPutsTheGrowingGroupAtCap() {
        Snapshot last = null;
        for (int i = 0; i <= 10; i++) {
            List<ProcessSample> p = members(DRILL, 1000, 10 + 5 * i, "/user.slice", 1000);
            p.addAll(members("/usr/bin/sleep", 9000, 40, "/user.slice", 1000));
            last = at(0.1 * i, p, 32768, 32760);
        }
        assertThat(group(last, DRILL).atCap()).isTrue();
        assertThat(group(last, DRILL).cap()).contains(new GroupCap("pid_max", 32768));
        assertThat(group(last, "/usr/bin/sleep").atCap()).as("steady beside it").isFalse();
    }

    @Test
    void scanJsonCarriesTheCapFieldsAndTheTargetsWithStartTimes() throws IOException {
        pidsCgroup("sbx", 5, 5, 0);
        Snapshot s = at(0, members(DRILL, 1000, 5, "/sbx", 1000));
        Analyzer.Targeted targeted = analyzer.latestTargeted();

        ObjectNode json = SnapshotJson.of(targeted.snapshot(), targeted.targets());
        var drill = json.path("groups").get(0);
        assertThat(drill.path("command").asText()).isEqualTo(DRILL);
        assertThat(drill.path("atCap").asBoolean()).isTrue();
        assertThat(drill.path("cap").path("limit").asText()).isEqualTo("pids.max");
        assertThat(drill.path("cap").path("value").asLong()).isEqualTo(5);
        assertThat(drill.path("forksRefused").asLong()).isZero();
        assertThat(drill.path("cgroup").asText()).isEqualTo("/sbx");
        assertThat(drill.path("self").asBoolean()).isFalse();
        assertThat(drill.path("targets")).hasSize(5);
        assertThat(drill.path("targets").get(0).has("start")).isTrue();
        assertThat(s.groups()).isNotEmpty();
        assertThat(targeted.targets()).containsKey(DRILL);
        assertThat(Map.copyOf(targeted.targets()).get(DRILL)).extracting(id -> id.pid()).contains(HIGH + 1000);
    }
}
