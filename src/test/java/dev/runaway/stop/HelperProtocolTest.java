// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.stop.target.TargetRescan;
import dev.runaway.stop.act.Actuator;
import dev.runaway.stop.helper.HelperBinding;
import dev.runaway.stop.plan.Disposable;
import dev.runaway.stop.plan.Planner;
import dev.runaway.stop.plan.StopPlan;
import dev.runaway.procfs.ProcStat;
import dev.runaway.sandbox.CgroupLayout;
import dev.runaway.sandbox.CgroupSandbox;
import dev.runaway.sandbox.NativeBinaries;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The privileged helper against its protocol (docs/helper-protocol.md), as root. Safety: every
 * process started here (the helper and the sleepers) runs in a sandbox this test owns; the
 * helper lives in one sandbox and its targets in a second one, because the helper's own cgroup
 * is one it must refuse. Refusals against processes the test did not start use only signal 18
 * (SIGCONT), so that a helper bug would be harmless; REVOKE refusals never point at a real
 * system file.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("process")
class HelperProtocolTest {
    private static final Path PROC = Path.of("/proc");
    private static final String QUARANTINE = "runaway-quarantine.";

    @TempDir
    Path tmp;

    @Test
    void helloNamesTheHelperAndItsUid() throws Exception {
        try (Sandbox helperBox = Sandboxes.create(SandboxSpec.of("test-helper", 32));
             HelperLine helper = HelperLine.start(helperBox, config())) {
            assertThat(helper.ask("HELLO")).isEqualTo("OK runaway-helper 2 uid=0");
            assertThat(helper.finish()).as("exit code once stdin closes").isZero();
        }
    }

    @Test
    void signalKillsASleeperButNotWithAWrongStartTime() throws Exception {
        try (Sandbox helperBox = Sandboxes.create(SandboxSpec.of("test-helper", 32));
             Sandbox targets = Sandboxes.create(SandboxSpec.of("test-helper-targets", 32));
             HelperLine helper = HelperLine.start(helperBox, config())) {
            Process sleeper = sleeper(targets);
            long ticks = ticks(sleeper.pid());
            assertThat(helper.ask("SIGNAL " + sleeper.pid() + " " + ticks + " 18")).as("no confirmed stop yet").startsWith("ERR refused");
            helper.bind("-", sleeper.pid());

            assertThat(helper.ask("SIGNAL " + sleeper.pid() + " " + (ticks + 1) + " 9")).startsWith("ERR gone");
            assertThat(sleeper.waitFor(300, TimeUnit.MILLISECONDS)).as("the sleeper survives a wrong start time").isFalse();

            assertThat(helper.ask("SIGNAL " + sleeper.pid() + " " + ticks + " 9")).isEqualTo("OK");
            assertThat(sleeper.waitFor(10, TimeUnit.SECONDS)).as("the sleeper died").isTrue();
            assertThat(sleeper.exitValue()).isEqualTo(128 + 9);
            assertThat(helper.ask("SIGNAL " + sleeper.pid() + " " + ticks + " 9")).startsWith("ERR gone");
        }
    }

    @Test
    void refusesPidOneKernelThreadsItselfAndItsParentChain() throws Exception {
        try (Sandbox helperBox = Sandboxes.create(SandboxSpec.of("test-helper", 32));
             HelperLine helper = HelperLine.start(helperBox, config())) {
            long kernelThread = anyKernelThread();
            // Signal 18 (SIGCONT) only: should a check be missing, nothing is harmed.
            for (long pid : List.of(1L, 2L, kernelThread, ProcessHandle.current().pid(), helper.pid())) {
                assertThat(helper.ask("SIGNAL " + pid + " " + ticks(pid) + " 18")).as("pid " + pid).startsWith("ERR refused");
            }
            assertThat(helper.ask("SIGNAL 0 0 18")).startsWith("ERR refused");
            assertThat(helper.ask("SIGNAL -5 0 18")).startsWith("ERR refused");
            assertThat(helper.ask("HELLO")).startsWith("OK");
        }
    }

    @Test
    void freezesCapsListsAndKillsTheTargetSandboxCgroup() throws Exception {
        try (Sandbox helperBox = Sandboxes.create(SandboxSpec.of("test-helper", 32));
             Sandbox targets = Sandboxes.create(SandboxSpec.of("test-helper-targets", 32));
             HelperLine helper = HelperLine.start(helperBox, config())) {
            assumeCgroups(helperBox, targets);
            Path dir = ((CgroupSandbox) targets).dirs().unified();
            Path capFile = ((CgroupSandbox) targets).dirs().capDir().resolve("pids.max");
            String cgroup = relative(dir);
            Process first = sleeper(targets);
            Process second = sleeper(targets);
            helper.bind(cgroup);

            assertThat(helper.ask("MEMBERS " + cgroup)).startsWith("OK ")
                    .contains(" " + first.pid()).contains(" " + second.pid());

            assertThat(helper.ask("FREEZE " + cgroup)).isEqualTo("OK");
            awaitTrue(() -> read(dir.resolve("cgroup.events")).contains("frozen 1"), "the cgroup froze");
            assertThat(helper.ask("THAW " + cgroup)).isEqualTo("OK");
            awaitTrue(() -> read(dir.resolve("cgroup.events")).contains("frozen 0"), "the cgroup thawed");

            assertThat(helper.ask("PIDSMAX " + cgroup + " 16")).isEqualTo("OK 32");
            assertThat(read(capFile).trim()).isEqualTo("16");
            assertThat(helper.ask("PIDSMAX " + cgroup + " max")).isEqualTo("OK 16");
            assertThat(helper.ask("PIDSMAX " + cgroup + " 32")).isEqualTo("OK max");

            assertThat(helper.ask("KILLCG " + cgroup)).isEqualTo("OK");
            assertThat(first.waitFor(10, TimeUnit.SECONDS)).as("first sleeper killed").isTrue();
            assertThat(second.waitFor(10, TimeUnit.SECONDS)).as("second sleeper killed").isTrue();
            awaitTrue(() -> helperAsk(helper, "MEMBERS " + cgroup).equals("OK"), "the cgroup is empty");
        }
    }

    @Test
    void aConsoleThatGoesAwayMidStopLeavesNothingFrozen() throws Exception {
        try (Sandbox helperBox = Sandboxes.create(SandboxSpec.of("test-helper", 32));
             Sandbox targets = Sandboxes.create(SandboxSpec.of("test-helper-targets", 32));
             Sandbox bystanders = Sandboxes.create(SandboxSpec.of("test-helper-bystanders", 32));
             HelperLine helper = HelperLine.start(helperBox, config())) {
            assumeCgroups(helperBox, targets, bystanders);
            Path dir = ((CgroupSandbox) targets).dirs().unified();
            Process frozen = sleeper(targets);
            Process stopped = sleeper(bystanders);
            // Another command line: the same executable, owner and script would make it the same kind as a target.
            Process bystander = bystanders.start(new ProcessBuilder("sleep", "301").redirectErrorStream(true));
            helper.bind(relative(dir), stopped.pid());
            assertThat(helper.ask("FREEZE " + relative(dir))).isEqualTo("OK");
            assertThat(helper.ask("SIGNAL " + stopped.pid() + " " + ticks(stopped.pid()) + " 19")).isEqualTo("OK");
            assertThat(helper.ask("SIGNAL " + bystander.pid() + " " + ticks(bystander.pid()) + " 19")).as("not in the stop").startsWith("ERR refused");

            assertThat(helper.finish()).as("the helper exits once it finished the stop").isZero();
            assertThat(frozen.waitFor(10, TimeUnit.SECONDS)).as("the frozen target was killed").isTrue();
            assertThat(stopped.waitFor(10, TimeUnit.SECONDS)).as("the stopped target was killed").isTrue();
            assertThat(stopped.exitValue()).isEqualTo(128 + 9);
            assertThat(bystander.isAlive()).as("a process outside the stop is left alone").isTrue();
        }
    }

    @Test
    void refusesTheRootDotDotAndTheCgroupsOfItsOwnChain() throws Exception {
        try (Sandbox helperBox = Sandboxes.create(SandboxSpec.of("test-helper", 32));
             HelperLine helper = HelperLine.start(helperBox, config())) {
            assumeCgroups(helperBox);
            Path own = ((CgroupSandbox) helperBox).dirs().unified();
            assertThat(helper.ask("FREEZE /")).startsWith("ERR refused");
            assertThat(helper.ask("KILLCG /")).startsWith("ERR refused");
            assertThat(helper.ask("MEMBERS /")).startsWith("ERR refused");
            assertThat(helper.ask("FREEZE /../x")).startsWith("ERR refused");
            assertThat(helper.ask("FREEZE relative/path")).startsWith("ERR refused");
            // Verbs that could hurt nothing but the helper itself, should a check be missing.
            for (String verb : List.of("THAW", "MEMBERS", "KILLCG")) {
                assertThat(helper.ask(verb + " " + relative(own))).as(verb + " own cgroup").startsWith("ERR refused");
            }
            // The cgroup above the helper's holds the test JVM (or is the root): refused too.
            assertThat(helper.ask("THAW " + relative(own.getParent()))).startsWith("ERR refused");
            Optional<String> jvmCgroup = CgroupLayout.ownCgroup(Files.readString(Path.of("/proc/self/cgroup")), null);
            if (jvmCgroup.isPresent()) assertThat(helper.ask("THAW " + jvmCgroup.get())).startsWith("ERR refused");
            assertThat(helper.ask("MEMBERS /runaway-helper-test-no-such-cgroup")).startsWith("ERR gone");
            assertThat(helper.ask("HELLO")).startsWith("OK");
        }
    }

    @Test
    void quarantinesASleeperAndReleasesTheEmptyQuarantine() throws Exception {
        String name = "test-" + randomSuffix();
        String cgroup = "/" + QUARANTINE + name;
        Path quarantine = v2Root().resolve(QUARANTINE + name);
        try (Sandbox helperBox = Sandboxes.create(SandboxSpec.of("test-helper", 32));
             Sandbox targets = Sandboxes.create(SandboxSpec.of("test-helper-targets", 32));
             HelperLine helper = HelperLine.start(helperBox, config())) {
            assumeCgroups(helperBox, targets);
            Process sleeper = sleeper(targets);
            long pid = sleeper.pid();
            long ticks = ticks(pid);
            helper.bind("-", pid);

            assertThat(helper.ask("QUARANTINE " + name)).isEqualTo("OK " + cgroup);
            assertThat(read(quarantine.resolve("cgroup.freeze")).trim()).isEqualTo("1");
            assertThat(helper.ask("QUARANTINE bad.name")).startsWith("ERR usage");

            String targetCgroup = relative(((CgroupSandbox) targets).dirs().unified());
            assertThat(helper.ask("MOVE " + targetCgroup + " " + pid + " " + ticks)).as("not a quarantine").startsWith("ERR refused");
            assertThat(helper.ask("MOVE " + cgroup + " " + pid + " " + (ticks + 1))).startsWith("ERR gone");
            assertThat(helper.ask("MOVE " + cgroup + " " + pid + " " + ticks)).isEqualTo("OK");
            assertThat(helper.ask("MEMBERS " + cgroup)).isEqualTo("OK " + pid);
            awaitTrue(() -> read(quarantine.resolve("cgroup.events")).contains("frozen 1"), "the moved sleeper is frozen");

            assertThat(helper.ask("RELEASE " + cgroup)).as("not empty").startsWith("ERR failed");
            assertThat(read(quarantine.resolve("cgroup.freeze")).trim()).as("still frozen").isEqualTo("1");

            assertThat(helper.ask("SIGNAL " + pid + " " + ticks + " 9")).isEqualTo("OK");
            assertThat(sleeper.waitFor(10, TimeUnit.SECONDS)).as("the frozen sleeper died").isTrue();
            awaitTrue(() -> helperAsk(helper, "RELEASE " + cgroup).equals("OK"), "the quarantine was released");
            assertThat(quarantine).doesNotExist();
            assertThat(helper.ask("RELEASE " + cgroup)).startsWith("ERR gone");
        } finally {
            removeQuarantine(quarantine);
        }
    }

    @Test
    void setsOomScoreAdjOfASleeper() throws Exception {
        try (Sandbox helperBox = Sandboxes.create(SandboxSpec.of("test-helper", 32));
             Sandbox targets = Sandboxes.create(SandboxSpec.of("test-helper-targets", 32));
             HelperLine helper = HelperLine.start(helperBox, config())) {
            Process sleeper = sleeper(targets);
            long ticks = ticks(sleeper.pid());
            Path adj = PROC.resolve(Long.toString(sleeper.pid())).resolve("oom_score_adj");
            helper.bind("-", sleeper.pid());
            assertThat(helper.ask("OOMADJ " + sleeper.pid() + " " + ticks + " 500")).isEqualTo("OK");
            assertThat(read(adj).trim()).isEqualTo("500");
            assertThat(helper.ask("OOMADJ " + sleeper.pid() + " " + (ticks + 1) + " 100")).startsWith("ERR gone");
            assertThat(helper.ask("OOMADJ " + sleeper.pid() + " " + ticks + " 1001")).startsWith("ERR usage");
            assertThat(helper.ask("OOMADJ " + sleeper.pid() + " " + ticks + " -1000")).as("never shields a stop's process").startsWith("ERR refused");
            assertThat(helper.ask("OOMADJ " + sleeper.pid() + " " + ticks + " -1")).startsWith("ERR refused");
            assertThat(read(adj).trim()).isEqualTo("500");
        }
    }

    /** The console (here this JVM, the helper's parent) may lower its own score, named with its own start time. */
    @Test
    void theConsoleLowersOnlyItsOwnScoreAndNoFurtherThanMinus800() throws Exception {
        long self = ProcessHandle.current().pid();
        Path adj = PROC.resolve(Long.toString(self)).resolve("oom_score_adj");
        String before = read(adj).trim();
        try (Sandbox helperBox = Sandboxes.create(SandboxSpec.of("test-helper", 32));
             HelperLine helper = HelperLine.start(helperBox, config())) {
            assertThat(helper.ask("OOMADJ " + self + " " + (ticks(self) + 1) + " -800")).as("not the console's start time")
                    .startsWith("ERR refused");
            assertThat(helper.ask("OOMADJ " + self + " " + ticks(self) + " -801")).startsWith("ERR refused");
            assertThat(read(adj).trim()).isEqualTo(before);
            if (OomShieldTest.hasSysResource()) {
                assertThat(helper.ask("OOMADJ " + self + " " + ticks(self) + " -800")).isEqualTo("OK");
                assertThat(read(adj).trim()).isEqualTo("-800");
            } else { // every check passed; the kernel refuses a lower score without CAP_SYS_RESOURCE
                assertThat(helper.ask("OOMADJ " + self + " " + ticks(self) + " -800")).isEqualTo("ERR failed oom_score_adj: Permission denied");
            }
        } finally {
            if (OomShieldTest.hasSysResource()) Files.writeString(adj, before);
        }
    }

    @Test
    void revokesAndRestoresExecuteBitsOfADisposableFile() throws Exception {
        Path file = copyOf("/bin/sleep", tmp.resolve("tool"));
        try (Sandbox helperBox = Sandboxes.create(SandboxSpec.of("test-helper", 32));
             Sandbox targets = Sandboxes.create(SandboxSpec.of("test-helper-targets", 32));
             HelperLine helper = HelperLine.start(helperBox, config())) {
            assertThat(helper.ask("RESTORE " + file + " 755")).as("took nothing yet").startsWith("ERR refused");
            Process target = running(targets, file, file.toString(), "300");
            helper.bind("-", target.pid());
            assertThat(helper.ask("REVOKE " + file)).isEqualTo("OK 755");
            assertThat(mode(file)).isEqualTo(0644);
            assertThat(helper.ask("RESTORE " + file + " 666")).as("adds a write bit").startsWith("ERR refused");
            assertThat(helper.ask("RESTORE " + file + " 4755")).as("adds setuid").startsWith("ERR refused");
            assertThat(helper.ask("RESTORE " + file + " 600")).as("takes bits away").startsWith("ERR refused");
            assertThat(helper.ask("RESTORE " + file + " 9")).startsWith("ERR usage");
            assertThat(mode(file)).isEqualTo(0644);
            // RESTORE comes once the stop confirmed zero: nothing runs the file any more.
            target.destroyForcibly().waitFor();
            assertThat(helper.ask("RESTORE " + file + " 755")).isEqualTo("OK");
            assertThat(mode(file)).isEqualTo(0755);
            assertThat(helper.ask("RESTORE " + file + " 755")).as("gave everything back already").startsWith("ERR refused");
        }
    }

    /** Issue 32: REVOKE takes execute bits only off a file a process the stop names runs now. */
    @Test
    void revokeTakesOnlyAFileANamedTargetRunsNow() throws Exception {
        Path tool = copyOf("/bin/sleep", tmp.resolve("tool"));
        Path idle = copyOf("/bin/sleep", tmp.resolve("idle"));
        Path shell = script(tmp.resolve("run.sh"), "sleep 300\n");
        Path python = script(tmp.resolve("run.py"), "import sys, time\nopen(sys.argv[1], 'w').close()\ntime.sleep(300)\n");
        Path pythonRuns = tmp.resolve("python-runs");
        try (Sandbox helperBox = Sandboxes.create(SandboxSpec.of("test-helper", 32));
             Sandbox targets = Sandboxes.create(SandboxSpec.of("test-helper-targets", 32));
             HelperLine helper = HelperLine.start(helperBox, config())) {
            Process runsTool = running(targets, tool, tool.toString(), "300");
            Process runsShell = running(targets, shell, "/bin/bash", shell.toString());
            Process runsPython = running(targets, Path.of("/usr/bin/python3").toRealPath(), "/usr/bin/python3", python.toString(),
                    pythonRuns.toString());
            awaitTrue(() -> Files.exists(pythonRuns), "python3 runs its script (read and closed by then)");
            Process unnamed = running(targets, idle, idle.toString(), "300"); // runs idle, but the stop does not name it
            helper.bind("-", runsTool.pid(), runsShell.pid(), runsPython.pid());
            String notRun = "ERR refused no process the confirmed stop names runs that file now";

            assertThat(helper.ask("REVOKE " + idle)).as("a process outside the stop runs it").startsWith(notRun);
            assertThat(mode(idle)).isEqualTo(0755);
            // bash holds the script it runs open (fd 255), so the kernel vouches for it: no argv is read.
            assertThat(helper.ask("REVOKE " + shell)).isEqualTo("OK 755");
            assertThat(helper.ask("RESTORE " + shell + " 755")).isEqualTo("OK");
            // python3 reads its script and closes it: nothing the kernel shows ties the process to it.
            assertThat(helper.ask("REVOKE " + python)).startsWith(notRun);
            assertThat(mode(python)).isEqualTo(0755);
            assertThat(helper.ask("REVOKE " + tool)).isEqualTo("OK 755");
            assertThat(helper.ask("RESTORE " + tool + " 755")).isEqualTo("OK");
            runsTool.destroyForcibly().waitFor();
            assertThat(helper.ask("REVOKE " + tool)).as("its target exited").startsWith(notRun);
            assertThat(mode(tool)).isEqualTo(0755);
            assertThat(unnamed.isAlive()).isTrue();
        }
    }

    /** Issue 32: for a user (PKEXEC_UID), the helper changes only that user's files. */
    @Test
    void forAUserRevokeTakesOnlyThatUsersFiles() throws Exception {
        int nobody = 65534;
        Path tool = copyOf("/bin/sleep", tmp.resolve("tool"));
        try (Sandbox helperBox = Sandboxes.create(SandboxSpec.of("test-helper", 32));
             Sandbox targets = Sandboxes.create(SandboxSpec.of("test-helper-targets", 32));
             HelperLine helper = HelperLine.startFor(helperBox, nobody)) {
            helper.bind("-", running(targets, tool, tool.toString(), "300").pid());
            assertThat(helper.ask("REVOKE " + tool)).as("root's file, run by the stop")
                    .isEqualTo("ERR refused the file is not the caller's: for a user the helper changes only that user's files");
            assertThat(mode(tool)).isEqualTo(0755);
            Files.setAttribute(tool, "unix:uid", nobody);
            assertThat(helper.ask("REVOKE " + tool)).isEqualTo("OK 755");
            Files.setAttribute(tool, "unix:uid", 0); // an inode the user no longer owns: nothing is put back
            assertThat(helper.ask("RESTORE " + tool + " 755")).startsWith("ERR refused the file is not the caller's");
            Files.setAttribute(tool, "unix:uid", nobody);
            assertThat(helper.ask("RESTORE " + tool + " 755")).isEqualTo("OK");
            assertThat(mode(tool)).isEqualTo(0755);
        }
    }

    /**
     * The guided stop's own binding (HelperBinding, as the Actuator sends it before its first
     * helper lever) names processes that run the drill's disposable binary when REVOKE comes.
     */
    @Test
    void theGuidedStopsBindingLetsTheHelperRevokeTheDrillsBinary() throws Exception {
        try (Sandbox helperBox = Sandboxes.create(SandboxSpec.of("test-helper", 32));
             dev.runaway.drill.Drill drill = dev.runaway.drill.Drills.start(dev.runaway.drill.Scenario.ORPHANS, 40,
                     java.time.Duration.ofMinutes(3), false);
             HelperLine helper = HelperLine.start(helperBox, config())) {
            dev.runaway.sandbox.Caps.awaitRefusedFork(drill.sandbox(), 40);
            String tool = drill.folder().resolve("cache/tool").toString();
            StopPlan plan = new Planner(Disposable.forThisUser(), true)
                    .plan(TargetRescan.ofCommand(PROC, tool, dev.runaway.procfs.PulseReader.live()).get());
            assertThat(plan.binaries()).as(String.join("\n", plan.describe())).containsExactly(tool);
            List<String> binding = plan.binding().requests();
            for (String line : binding.subList(0, binding.size() - 1)) helper.ask(line); // a target may exit meanwhile: ERR gone
            assertThat(helper.ask("CONFIRM")).startsWith("OK ");
            assertThat(helper.ask("REVOKE " + tool)).isEqualTo("OK 755");
            assertThat(helper.ask("RESTORE " + tool + " 755")).isEqualTo("OK");
            assertThat(mode(Path.of(tool))).isEqualTo(0755);
        }
    }

    @Test
    void refusesFilesThatAreNotDisposableRegularFiles() throws Exception {
        Path setuid = Files.createFile(tmp.resolve("setuid"));
        Files.setAttribute(setuid, "unix:mode", 04755);
        Path subdir = Files.createDirectory(tmp.resolve("dir"));
        Path outside = Path.of("/var/lib/runaway-helper-test-" + randomSuffix());
        try (Sandbox helperBox = Sandboxes.create(SandboxSpec.of("test-helper", 32));
             Sandbox targets = Sandboxes.create(SandboxSpec.of("test-helper-targets", 32));
             HelperLine helper = HelperLine.start(helperBox, config())) {
            helper.bind("-", sleeper(targets).pid());
            Files.createDirectory(outside);
            Path target = Files.createFile(outside.resolve("file"));
            Files.setAttribute(target, "unix:mode", 0755);
            Path link = Files.createSymbolicLink(tmp.resolve("link"), target);

            for (String path : List.of("/usr/bin/runaway-no-such-file", "tmp/relative", tmp + "/../" + tmp.getFileName() + "/setuid",
                    setuid.toString(), link.toString(), target.toString(), subdir.toString(), tmp.toString(), "/tmp")) {
                assertThat(helper.ask("REVOKE " + path)).as("REVOKE " + path).startsWith("ERR refused");
                assertThat(helper.ask("RESTORE " + path + " 755")).as("RESTORE " + path).startsWith("ERR refused");
            }
            assertThat(mode(setuid)).isEqualTo(04755);
            assertThat(mode(target)).as("the symlink's target is untouched").isEqualTo(0755);

            // A hard link in a disposable root could be a system binary by another name.
            Path original = Files.createFile(tmp.resolve("original"));
            Files.setAttribute(original, "unix:mode", 0755);
            Path twin = Files.createLink(tmp.resolve("twin"), original);
            assertThat(helper.ask("REVOKE " + twin)).as("REVOKE a hard link").startsWith("ERR refused");
            assertThat(mode(original)).isEqualTo(0755);
            assertThat(helper.ask("REVOKE " + tmp.resolve("no-such-file"))).startsWith("ERR failed");
        } finally {
            Files.deleteIfExists(tmp.resolve("link"));
            Files.deleteIfExists(outside.resolve("file"));
            Files.deleteIfExists(outside);
        }
    }

    @Test
    void aConfigRootMakesItsFilesDisposable() throws Exception {
        Path root = Path.of("/var/lib/runaway-helper-test-" + randomSuffix());
        try {
            Files.createDirectory(root);
            Path file = copyOf("/bin/sleep", root.resolve("tool"));
            Path listed = config("# a disposable root for this test\n" + root + "   # trailing comment\n/usr\n");
            try (Sandbox helperBox = Sandboxes.create(SandboxSpec.of("test-helper", 32));
                 Sandbox targets = Sandboxes.create(SandboxSpec.of("test-helper-targets", 32));
                 HelperLine plain = HelperLine.start(helperBox, config());
                 HelperLine configured = HelperLine.start(helperBox, listed)) {
                long target = running(targets, file, file.toString(), "300").pid();
                plain.bind("-", target);
                configured.bind("-", target);
                assertThat(plain.ask("REVOKE " + file)).startsWith("ERR refused");
                assertThat(configured.ask("REVOKE " + file)).isEqualTo("OK 755");
                assertThat(configured.ask("RESTORE " + file + " 755")).isEqualTo("OK");
                assertThat(configured.ask("REVOKE /usr/bin/runaway-no-such-file")).as("system paths stay refused").startsWith("ERR refused");
            }
        } finally {
            Files.deleteIfExists(root.resolve("tool"));
            Files.deleteIfExists(root);
        }
    }

    @Test
    void malformedLinesGetUsageErrorsAndTheHelperKeepsAnswering() throws Exception {
        try (Sandbox helperBox = Sandboxes.create(SandboxSpec.of("test-helper", 32));
             HelperLine helper = HelperLine.start(helperBox, config())) {
            for (String line : List.of("FOO", "hello", "SIGNAL", "SIGNAL 12 1", "SIGNAL 12 1 9 9", "SIGNAL abc 1 9",
                    "SIGNAL 12 1 9x", "SIGNAL 12 1 +9", "SIGNAL 12 1 1", "SIGNAL 99999999999 1 18", "SIGNAL 12 -1 18",
                    "SIGNAL  12 1 9", "HELLO ", "", "FREEZE", "PIDSMAX /x -1", "PIDSMAX /x 4194305", "OOMADJ 12 1 -1001",
                    "QUARANTINE " + "a".repeat(65), "RESTORE /tmp/x 8",
                    "SIGNAL 012 1 9", "SIGNAL 12 01 9", "SIGNAL -0 1 9", "PIDSMAX /x 016", "RESTORE /tmp/x 0755", "OOMADJ 12 1 -05", "HELLO\tx", "x".repeat(5000))) {
                assertThat(helper.ask(line)).as(line.length() > 40 ? line.length() + " bytes" : line).startsWith("ERR usage");
                assertThat(helper.ask("HELLO")).startsWith("OK runaway-helper");
            }
            assertThat(helper.ask("y".repeat(5000))).isEqualTo("ERR usage line too long");
            assertThat(helper.ask("H".repeat(4095))).as("4,096 bytes with the newline").isEqualTo("ERR usage unknown verb");
            assertThat(helper.ask("HELLO")).startsWith("OK runaway-helper");
        }
    }

    @Test
    void rejectsAConfigFileOthersCanWrite() throws Exception {
        for (String permissions : List.of("rw-rw-rw-", "rw-rw-r--")) {
            Path config = config("/var/tmp\n");
            Files.setPosixFilePermissions(config, PosixFilePermissions.fromString(permissions));
            try (Sandbox helperBox = Sandboxes.create(SandboxSpec.of("test-helper", 32))) {
                Process helper = helperBox.start(new ProcessBuilder(
                        NativeBinaries.find(HelperLine.BINARY).toString(), "--config", config.toString())
                        .redirectError(ProcessBuilder.Redirect.DISCARD));
                assertThat(helper.waitFor(60, TimeUnit.SECONDS)).isTrue();
                assertThat(helper.exitValue()).as(permissions).isEqualTo(2);
            }
        }
    }

    // ---- helpers ----

    private Path config() throws IOException {
        return config("# no disposable roots beyond the built-in ones\n");
    }

    private Path config(String text) throws IOException {
        Path file = Files.createTempFile(tmp, "disposable-roots", ".conf");
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        return file;
    }

    private static String randomSuffix() {
        return Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffffffL);
    }

    private static Process sleeper(Sandbox box) throws IOException {
        return box.start(new ProcessBuilder("sleep", "300").redirectErrorStream(true));
    }

    /** A copy of SOURCE at FILE, mode 0755: one name, so a disposable binary. */
    private static Path copyOf(String source, Path file) throws IOException {
        Files.copy(Path.of(source), file);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }

    private static Path script(Path file, String text) throws IOException {
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }

    /**
     * Starts COMMAND in BOX and returns once the process runs FILE (its executable, or a file it
     * holds open): the sandbox's launcher execs the command a moment after it starts.
     */
    private static Process running(Sandbox box, Path file, String... command) throws Exception {
        Process p = box.start(new ProcessBuilder(command).redirectErrorStream(true));
        Path proc = PROC.resolve(Long.toString(p.pid()));
        awaitTrue(() -> links(proc).contains(file), p.pid() + " runs " + file);
        return p;
    }

    /** Where /proc/PID/exe and /proc/PID/fd/* point; empty once the process is gone. */
    private static List<Path> links(Path proc) {
        List<Path> to = new java.util.ArrayList<>();
        try (Stream<Path> fds = Files.list(proc.resolve("fd"))) {
            to.add(Files.readSymbolicLink(proc.resolve("exe")));
            for (Path fd : fds.toList()) to.add(Files.readSymbolicLink(fd));
        } catch (IOException | RuntimeException gone) {
            // exited, or between launcher and exec: not yet
        }
        return to;
    }

    private static long ticks(long pid) {
        return ProcStat.read(PROC, (int) pid).orElseThrow(() -> new AssertionError("no process " + pid)).startTicks();
    }

    private static long anyKernelThread() throws IOException {
        try (Stream<Path> entries = Files.list(PROC)) {
            return entries.map(p -> p.getFileName().toString())
                    .filter(name -> name.matches("\\d+") && !name.equals("2"))
                    .map(name -> ProcStat.read(PROC, Integer.parseInt(name)))
                    .flatMap(Optional::stream)
                    .filter(stat -> stat.ppid() == 2)
                    .findFirst().orElseThrow(() -> new AssertionError("no kernel thread found")).pid();
        }
    }

    private static Path v2Root() {
        return CgroupLayout.detect().unified().orElseThrow(() -> new AssertionError("no cgroup v2 tree"));
    }

    /** A cgroup directory as the protocol names it: relative to the v2 root, with a leading slash. */
    private static String relative(Path dir) {
        return "/" + v2Root().relativize(dir);
    }

    private static void assumeCgroups(Sandbox... boxes) {
        for (Sandbox box : boxes) {
            assumeTrue(box instanceof CgroupSandbox cgroups && cgroups.dirs().unified() != null, "needs cgroup v2 sandboxes");
        }
    }

    private static int mode(Path file) throws IOException {
        return (Integer) Files.getAttribute(file, "unix:mode") & 07777;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "";
        }
    }

    private static String helperAsk(HelperLine helper, String line) {
        try {
            return helper.ask(line);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("timed out waiting: " + what).isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    /**
     * Removes the quarantine cgroup if a failed test left it. Its name is random and only this
     * test moved anything into it, so killing its members kills only the test's sleeper.
     */
    private static void removeQuarantine(Path dir) throws IOException, InterruptedException {
        if (!Files.isDirectory(dir)) return;
        Files.writeString(dir.resolve("cgroup.kill"), "1");
        Files.writeString(dir.resolve("cgroup.freeze"), "0");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!read(dir.resolve("cgroup.events")).contains("populated 0") && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        Files.delete(dir);
    }
}
