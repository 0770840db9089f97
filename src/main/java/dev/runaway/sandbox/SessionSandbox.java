// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sandbox;

import dev.runaway.stoporder.StopOrder;
import dev.runaway.stoporder.StopOutcome;
import dev.runaway.stoporder.StopStep;
import dev.runaway.procfs.ProcStat;
import dev.runaway.sys.LibC;
import dev.runaway.sys.Signal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The unprivileged fallback: each workload starts as the leader of a new session, with
 * RLIMIT_NPROC set to the user's current task count plus the cap. Weaker than a cgroup, and
 * {@link #containment()} says how: the limit is per user (a fork fails once the user as a
 * whole reaches it), and a process that starts a session of its own leaves the set.
 */
public final class SessionSandbox implements Sandbox {
    private static final Path PROC = Path.of("/proc");

    private final SandboxSpec spec;
    private final String id;
    private final Set<Integer> sessions = ConcurrentHashMap.newKeySet();
    private final int uid;
    private TeardownReport report;

    private SessionSandbox(SandboxSpec spec, String id, int uid) {
        this.spec = spec;
        this.id = id;
        this.uid = uid;
    }

    static SessionSandbox create(SandboxSpec spec) {
        return new SessionSandbox(spec, "session." + spec.label(), LibC.INSTANCE.geteuid());
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public SandboxSpec spec() {
        return spec;
    }

    @Override
    public String containment() {
        return "process session with RLIMIT_NPROC at the user's current tasks + " + spec.tasksMax()
                + " (no writable cgroup: weaker, the limit counts all of this user's tasks and a"
                + " process that starts its own session escapes teardown), hard lifetime "
                + spec.lifetime().toSeconds() + " s";
    }

    @Override
    public Process startInOwnSession(ProcessBuilder builder) throws IOException {
        return start(builder); // every start here leads a session of its own
    }

    @Override
    public Process start(ProcessBuilder builder) throws IOException {
        if (report != null) throw new IllegalStateException("sandbox " + id + " is torn down");
        int limit = userTasks() + spec.tasksMax();
        Process process = Enter.start(builder, List.of("--setsid", "--nproc", Integer.toString(limit)));
        int session = (int) process.pid(); // setsid makes the leader's pid the session id
        sessions.add(session);
        startWatchdog(session);
        return process;
    }

    private void startWatchdog(int session) throws IOException {
        long deadline = Instant.now().plus(spec.lifetime()).getEpochSecond();
        List<String> command = new ArrayList<>(List.of(NativeBinaries.find(NativeBinaries.SANDBOX).toString(),
                "watch", "--deadline", Long.toString(deadline), "--session", Integer.toString(session)));
        if (!spec.detached()) {
            Sandboxes.self().ifPresent(o -> command.addAll(List.of("--owner", o.pid() + ":" + o.startTicks())));
        }
        Process watchdog = new ProcessBuilder(command).redirectErrorStream(true).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(watchdog.getInputStream(), StandardCharsets.UTF_8))) {
            String pid = out.readLine();
            watchdog.waitFor();
            if (pid != null && pid.matches("\\d+")) Watchdogs.started(Integer.parseInt(pid));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Tasks (threads) this user runs now: RLIMIT_NPROC counts them all. */
    private int userTasks() {
        int tasks = 0;
        for (ProcStat stat : processes()) tasks += stat.numThreads();
        return tasks;
    }

    private List<ProcStat> processes() {
        List<ProcStat> mine = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(PROC, p -> p.getFileName().toString().matches("\\d+"))) {
            for (Path entry : entries) {
                try {
                    if ((int) Files.getAttribute(entry, "unix:uid") != uid) continue;
                } catch (IOException | UnsupportedOperationException gone) {
                    continue;
                }
                ProcStat.read(PROC, Integer.parseInt(entry.getFileName().toString())).ifPresent(mine::add);
            }
        } catch (IOException e) {
            throw new SandboxException("cannot read /proc: " + e.getMessage(), e);
        }
        return mine;
    }

    private List<ProcStat> members() {
        List<ProcStat> members = new ArrayList<>();
        for (ProcStat stat : processes()) {
            if (sessions.contains(stat.session()) && !stat.isZombie()) members.add(stat);
        }
        return members;
    }

    @Override
    public Set<Integer> memberPids() {
        Set<Integer> pids = new HashSet<>();
        for (ProcStat stat : members()) pids.add(stat.pid());
        return pids;
    }

    @Override
    public int taskCount() {
        int tasks = 0;
        for (ProcStat stat : members()) tasks += stat.numThreads();
        return tasks;
    }

    @Override
    public long failedForks() {
        return -1;
    }

    /** Through the one stop order: SIGSTOP sweeps until one finds nobody new, then SIGKILL, then confirm. */
    @Override
    public synchronized TeardownReport teardown() {
        if (report != null && report.zeroConfirmed()) return report; // a failed one may be tried again
        long started = System.nanoTime();
        StopOutcome outcome = new StopOrder(Duration.ZERO, Duration.ofSeconds(10), 20).run(new StopOrder.Target() {
            @Override
            public List<StopOrder.Growth> growthLevers() {
                return List.of(new StopOrder.Growth() {
                    @Override
                    public StopStep.Action action() {
                        return StopStep.Action.SIGSTOP;
                    }

                    @Override
                    public StopOrder.Pulled pull() {
                        Set<Integer> stopped = new HashSet<>();
                        int sweeps = 0;
                        while (true) {
                            sweeps++;
                            int before = stopped.size();
                            for (ProcStat member : members()) {
                                if (LibC.INSTANCE.kill(member.pid(), Signal.SIGSTOP) == 0) stopped.add(member.pid());
                            }
                            if (stopped.size() == before && sweeps > 1) break;
                        }
                        return new StopOrder.Pulled(stopped.size(), sweeps + " sweeps");
                    }
                });
            }

            @Override
            public void kill(StopOrder.Growth held, StopOrder.Log log) {
                long t = System.nanoTime();
                int killed = 0;
                for (ProcStat member : members()) if (LibC.INSTANCE.kill(member.pid(), Signal.SIGKILL) == 0) killed++;
                log.step(StopStep.Phase.KILL, StopStep.Action.SIGKILL, killed, StopStep.Result.DONE, "to each member", t);
            }

            @Override
            public StopOrder.Census census() {
                return StopOrder.Census.of(members().stream().map(ProcStat::pid).toList());
            }

            @Override
            public void killStragglers(StopOrder.Census census, StopOrder.Log log) {
                for (ProcStat member : members()) LibC.INSTANCE.kill(member.pid(), Signal.SIGKILL);
            }

            @Override
            public void restore(StopOrder.Log log) {
                // nothing was changed: signals only
            }
        }, s -> { });
        report = new TeardownReport(outcome, outcome.zeroConfirmed() ? 0 : Math.max(1, outcome.survivors().size()),
                Duration.ofNanos(System.nanoTime() - started));
        Sandboxes.forget(this);
        return report;
    }

    @Override
    public String toString() {
        return id;
    }
}
