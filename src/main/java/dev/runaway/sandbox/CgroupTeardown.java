// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sandbox;

import dev.runaway.stoporder.StopOrder;
import dev.runaway.stoporder.StopOutcome;
import dev.runaway.stoporder.StopStep.Action;
import dev.runaway.stoporder.StopStep.Phase;
import dev.runaway.stoporder.StopStep.Result;
import dev.runaway.sys.LibC;
import dev.runaway.sys.Signal;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Tears a cgroup sandbox down through the one stop order ({@link StopOrder}): growth stops by
 * freezing the cgroup and setting pids.max 0 (a SIGSTOP sweep when neither can be written);
 * the fixed set is killed by {@code cgroup.kill} (SIGKILL to each member where the kernel lacks
 * it); zero is the kernel's own count; then the cgroups are removed. Needs no new process, so
 * it works when the machine (or our own cgroup) is out of pids.
 */
final class CgroupTeardown implements StopOrder.Target {
    static final Duration CONFIRM_TIMEOUT = Duration.ofSeconds(10);
    private final CgroupDirs dirs;
    private boolean removed = true;

    private CgroupTeardown(CgroupDirs dirs) {
        this.dirs = dirs;
    }

    static TeardownReport run(CgroupDirs dirs) {
        long started = System.nanoTime();
        if (!Files.isDirectory(dirs.memberDir())) return TeardownReport.alreadyGone();
        // The kernel's count is exact and a frozen cgroup at pids.max 0 cannot grow: one zero reading is final.
        StopOutcome outcome = new StopOrder(Duration.ZERO, CONFIRM_TIMEOUT, 20).run(new CgroupTeardown(dirs), s -> { });
        int remaining = outcome.zeroConfirmed() ? 0 : Math.max(1, outcome.survivors().size());
        return new TeardownReport(outcome, remaining, Duration.ofNanos(System.nanoTime() - started));
    }

    @Override
    public List<StopOrder.Growth> growthLevers() {
        return List.of(new StopOrder.Growth() {
            @Override
            public Action action() {
                return Action.FREEZE;
            }

            @Override
            public StopOrder.Pulled pull() throws StopOrder.Failed {
                List<String> levers = new ArrayList<>();
                if (dirs.unified() != null && CgroupFiles.tryWrite(dirs.unified().resolve("cgroup.freeze"), "1")) levers.add("frozen");
                if (CgroupFiles.tryWrite(dirs.capDir().resolve("pids.max"), "0")) levers.add("pids.max 0");
                if (levers.isEmpty()) throw new StopOrder.Failed("neither cgroup.freeze nor pids.max could be written");
                return new StopOrder.Pulled(CgroupFiles.membersRecursive(dirs.memberDir()).size(), String.join(", ", levers));
            }
        }, new StopOrder.Growth() {
            @Override
            public Action action() {
                return Action.SIGSTOP;
            }

            @Override
            public StopOrder.Pulled pull() {
                Set<Integer> stopped = new HashSet<>();
                int sweeps = 0;
                boolean fresh = true;
                while (fresh && sweeps++ < 200) {
                    fresh = false;
                    for (int pid : CgroupFiles.membersRecursive(dirs.memberDir())) {
                        if (pid > 1 && stopped.add(pid)) {
                            LibC.INSTANCE.kill(pid, Signal.SIGSTOP);
                            fresh = true;
                        }
                    }
                }
                return new StopOrder.Pulled(stopped.size(), sweeps + " sweeps");
            }
        });
    }

    @Override
    public void kill(StopOrder.Growth held, StopOrder.Log log) {
        long t = System.nanoTime();
        int members = CgroupFiles.membersRecursive(dirs.memberDir()).size();
        if (dirs.unified() != null && CgroupFiles.tryWrite(dirs.unified().resolve("cgroup.kill"), "1")) {
            log.step(Phase.KILL, Action.CGROUP_KILL, members, Result.DONE, "", t);
            return;
        }
        log.step(Phase.KILL, Action.SIGKILL, killEach(), Result.DONE, "to each member", t);
    }

    private int killEach() {
        int sent = 0;
        for (Path dir : dirs.all()) {
            for (int pid : CgroupFiles.membersRecursive(dir)) {
                if (pid > 1 && LibC.INSTANCE.kill(pid, Signal.SIGKILL) == 0) sent++;
            }
        }
        return sent;
    }

    /** The kernel's own count: members of every directory, then populated (exiting tasks still torn down). */
    @Override
    public StopOrder.Census census() {
        Set<Integer> alive = new HashSet<>();
        for (Path dir : dirs.all()) alive.addAll(CgroupFiles.membersRecursive(dir));
        int lingering = 0;
        if (alive.isEmpty() && dirs.unified() != null) {
            lingering = (int) CgroupFiles.readKeyed(dirs.unified().resolve("cgroup.events"), "populated").orElse(0L);
        }
        return new StopOrder.Census(List.copyOf(alive), lingering, List.of());
    }

    @Override
    public void killStragglers(StopOrder.Census census, StopOrder.Log log) {
        killEach();
    }

    @Override
    public void restore(StopOrder.Log log) {
        long t = System.nanoTime();
        for (Path dir : dirs.all()) removed &= CgroupFiles.removeTree(dir);
        log.step(Phase.RESTORE, Action.REMOVE_CGROUPS, dirs.all().size(), removed ? Result.DONE : Result.FAILED,
                removed ? "" : "some could not be removed", t);
    }
}
