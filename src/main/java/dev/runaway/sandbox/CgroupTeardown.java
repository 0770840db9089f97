// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sandbox;

import dev.runaway.sys.LibC;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Tears a cgroup sandbox down in the stop order. A kill round cannot finish against a set
 * that keeps growing, so growth stops first (freeze, pids.max 0); then the now fixed set is
 * killed ({@code cgroup.kill}, or SIGKILL to every member); then zero is confirmed from the
 * kernel's own count before the cgroups are removed. Needs no new process, so it works when
 * the machine (or our own cgroup) is out of pids.
 */
final class CgroupTeardown {
    static final Duration CONFIRM_TIMEOUT = Duration.ofSeconds(10);

    private CgroupTeardown() {
    }

    static TeardownReport run(CgroupDirs dirs) {
        long started = System.nanoTime();
        List<TeardownReport.Step> steps = new ArrayList<>();
        if (!Files.isDirectory(dirs.memberDir())) {
            steps.add(new TeardownReport.Step("already gone", 0, ""));
            return new TeardownReport(steps, 0, Duration.ofNanos(System.nanoTime() - started));
        }
        steps.add(stopGrowth(dirs));
        steps.add(kill(dirs));
        int remaining = confirmZero(dirs, steps);
        boolean removed = true;
        for (Path dir : dirs.all()) removed &= CgroupFiles.removeTree(dir);
        steps.add(new TeardownReport.Step("remove cgroups", dirs.all().size(), removed ? "" : "some could not be removed"));
        return new TeardownReport(steps, remaining, Duration.ofNanos(System.nanoTime() - started));
    }

    private static TeardownReport.Step stopGrowth(CgroupDirs dirs) {
        List<String> levers = new ArrayList<>();
        if (dirs.unified() != null && CgroupFiles.tryWrite(dirs.unified().resolve("cgroup.freeze"), "1")) levers.add("frozen");
        if (CgroupFiles.tryWrite(dirs.capDir().resolve("pids.max"), "0")) levers.add("pids.max 0");
        int members = CgroupFiles.membersRecursive(dirs.memberDir()).size();
        return new TeardownReport.Step("stop growth", members, levers.isEmpty() ? "no lever worked" : String.join(", ", levers));
    }

    private static TeardownReport.Step kill(CgroupDirs dirs) {
        int members = CgroupFiles.membersRecursive(dirs.memberDir()).size();
        if (dirs.unified() != null && CgroupFiles.tryWrite(dirs.unified().resolve("cgroup.kill"), "1")) {
            return new TeardownReport.Step("kill", members, "cgroup.kill");
        }
        return new TeardownReport.Step("kill", killEach(dirs), "SIGKILL to each member");
    }

    private static int killEach(CgroupDirs dirs) {
        int sent = 0;
        for (Path dir : dirs.all()) {
            for (int pid : CgroupFiles.membersRecursive(dir)) {
                if (pid > 1 && LibC.INSTANCE.kill(pid, LibC.SIGKILL) == 0) sent++;
            }
        }
        return sent;
    }

    /** Polls the kernel's own count until it reads zero; kills stragglers on the way. */
    private static int confirmZero(CgroupDirs dirs, List<TeardownReport.Step> steps) {
        long deadline = System.nanoTime() + CONFIRM_TIMEOUT.toNanos();
        int checks = 0;
        int remaining;
        while (true) {
            checks++;
            remaining = count(dirs);
            if (remaining == 0 || System.nanoTime() > deadline) break;
            if (checks % 10 == 0) killEach(dirs);
            sleep(20);
        }
        steps.add(new TeardownReport.Step("confirm zero", remaining, checks + " checks"));
        return remaining;
    }

    private static int count(CgroupDirs dirs) {
        int most = 0;
        for (Path dir : dirs.all()) {
            Set<Integer> members = CgroupFiles.membersRecursive(dir);
            most = Math.max(most, members.size());
        }
        if (most == 0 && dirs.unified() != null) {
            // cgroup.events says populated 1 while exiting tasks are still being torn down.
            most = (int) CgroupFiles.readKeyed(dirs.unified().resolve("cgroup.events"), "populated").orElse(0L);
        }
        return most;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
