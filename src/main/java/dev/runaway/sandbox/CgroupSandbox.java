// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sandbox;

import dev.runaway.model.ProcessIdentity;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * A sandbox made of cgroups: a v2 cgroup for membership, freezing and {@code cgroup.kill},
 * and a pids cap from the v2 pids controller or, where v2 has none, a v1 {@code pids}
 * cgroup of the same name; a memory cap where asked ({@link MemoryCap}: v2 memory.max, or a
 * v1 memory cgroup of the same name). Needs write access to the hierarchies (root, or a
 * delegated tree).
 *
 * <p>A sandbox made from inside another sandbox nests under it, so an outer cap (the test
 * suite's) still counts everything an inner one holds.
 */
public final class CgroupSandbox implements Sandbox {
    private static final long JOIN_TIMEOUT_NANOS = 2_000_000_000L;
    private final SandboxSpec spec;
    private final SandboxName name;
    private final CgroupDirs dirs;
    private final String containment;
    private TeardownReport report;
    private int watchdogPid;

    private CgroupSandbox(SandboxSpec spec, SandboxName name, CgroupDirs dirs, String containment) {
        this.spec = spec;
        this.name = name;
        this.dirs = dirs;
        this.containment = containment;
    }

    /** Makes the cgroups, sets the caps and starts the watchdog. */
    static CgroupSandbox create(SandboxSpec spec, CgroupLayout layout, Optional<ProcessIdentity> self) throws IOException {
        Optional<ProcessIdentity> owner = spec.detached() ? Optional.empty() : self;
        long deadline = Instant.now().plus(spec.lifetime()).getEpochSecond();
        SandboxName name = new SandboxName(owner, deadline, spec.label());
        String procSelfCgroup = Files.readString(Path.of("/proc/self/cgroup"));
        Path unified = layout.unified().map(root -> makeDir(root, parentFor(root, procSelfCgroup, null), name)).orElse(null);
        Path pidsDir = null;
        CgroupDirs dirs;
        MemoryCap.Applied memory;
        try {
            if (unified == null || !Files.exists(unified.resolve("pids.max"))) {
                Path v1 = layout.v1Pids().orElseThrow(() -> new IOException("no pids controller in cgroup v2 or v1"));
                pidsDir = makeDir(v1, parentFor(v1, procSelfCgroup, "pids"), name);
            }
            dirs = new CgroupDirs(unified, pidsDir);
            CgroupFiles.write(dirs.capDir().resolve("pids.max"), Integer.toString(spec.tasksMax()));
            memory = MemoryCap.apply(spec, layout, dirs, procSelfCgroup, name);
            dirs = memory.dirs();
        } catch (IOException | RuntimeException e) {
            if (unified != null) CgroupFiles.removeTree(unified);
            if (pidsDir != null) CgroupFiles.removeTree(pidsDir);
            throw e;
        }
        String text = "cgroup " + dirs.memberDir() + " (freeze, kill"
                + (dirs.unified() != null ? "" : " by signal") + "), pids.max " + spec.tasksMax()
                + (dirs.pids() != null ? " from the v1 pids hierarchy" : "") + ", " + memory.text()
                + ", hard lifetime " + spec.lifetime().toSeconds() + " s";
        CgroupSandbox sandbox = new CgroupSandbox(spec, name, dirs, text);
        try {
            sandbox.startWatchdog(owner, deadline);
        } catch (IOException | RuntimeException e) {
            sandbox.teardown();
            throw e;
        }
        return sandbox;
    }

    /** Rebuilds a handle on an existing sandbox (to tear down a detached or orphaned one). */
    static CgroupSandbox attach(SandboxName name, CgroupDirs dirs) {
        SandboxSpec spec = new SandboxSpec(name.label(), Math.max(1, CgroupFiles.readInt(dirs.capDir().resolve("pids.max"), 1)),
                MemoryCap.limitBytes(dirs), java.time.Duration.ofSeconds(1), name.owner().isEmpty());
        return new CgroupSandbox(spec, name, dirs, "cgroup " + dirs.memberDir() + " (attached)");
    }

    /** Nest under our own cgroup when that is a sandbox (so its cap covers us), else at the root. */
    static Path parentFor(Path root, String procSelfCgroup, String v1Controller) {
        Optional<String> own = CgroupLayout.ownCgroup(procSelfCgroup, v1Controller);
        if (own.isPresent() && own.get().startsWith("/") && own.get().length() > 1) {
            Path ownDir = root.resolve(own.get().substring(1));
            boolean insideSandbox = false;
            for (Path part : Path.of(own.get().substring(1))) {
                if (SandboxName.parse(part.toString()).isPresent()) insideSandbox = true;
            }
            if (insideSandbox && Files.isDirectory(ownDir)) return ownDir;
        }
        return root;
    }

    private static Path makeDir(Path root, Path parent, SandboxName name) {
        Path dir = parent.resolve(name.format());
        try {
            Files.createDirectory(dir);
        } catch (IOException e) {
            throw new SandboxException("cannot create cgroup " + dir + ": " + e.getMessage(), e);
        }
        return dir;
    }

    private void startWatchdog(Optional<ProcessIdentity> owner, long deadline) throws IOException {
        List<String> command = new ArrayList<>(List.of(NativeBinaries.find(NativeBinaries.SANDBOX).toString(),
                "watch", "--deadline", Long.toString(deadline)));
        owner.ifPresent(o -> command.addAll(List.of("--owner", o.pid() + ":" + o.startTicks())));
        for (Path dir : dirs.all()) command.addAll(List.of("--cgroup", dir.toString()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String pid = out.readLine();
            int status = process.waitFor();
            if (status != 0 || pid == null || !pid.matches("\\d+")) {
                throw new IOException("the sandbox watchdog did not start (exit " + status + "): " + pid);
            }
            watchdogPid = Integer.parseInt(pid);
            Watchdogs.started(watchdogPid);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting the sandbox watchdog", e);
        }
    }

    @Override
    public String id() {
        return name.format();
    }

    public SandboxName name() {
        return name;
    }

    /** The watchdog that tears this sandbox down if its owner dies; 0 when attached. */
    public int watchdogPid() {
        return watchdogPid;
    }

    public CgroupDirs dirs() {
        return dirs;
    }

    /** The memory cap in force (v2 memory.max or the v1 limit), empty when there is none. */
    public OptionalLong memoryCapBytes() {
        return MemoryCap.limitBytes(dirs);
    }

    /** Processes the kernel's OOM killer killed in this sandbox so far; -1 without a memory cgroup. */
    public long oomKills() {
        return MemoryCap.oomKills(dirs);
    }

    @Override
    public SandboxSpec spec() {
        return spec;
    }

    @Override
    public String containment() {
        return containment;
    }

    @Override
    public Process start(ProcessBuilder builder) throws IOException {
        return start(builder, false);
    }

    @Override
    public Process startInOwnSession(ProcessBuilder builder) throws IOException {
        return start(builder, true);
    }

    private Process start(ProcessBuilder builder, boolean ownSession) throws IOException {
        if (report != null) throw new IllegalStateException("sandbox " + id() + " is torn down");
        List<String> options = new ArrayList<>();
        for (Path dir : dirs.all()) options.addAll(List.of("--cgroup", dir.toString()));
        if (ownSession) options.add("--setsid");
        Process process = Enter.start(builder, options);
        awaitJoined(process);
        return process;
    }

    /**
     * Returns once the new process is a member of every cgroup of the sandbox (enter joins them one
     * after another), so callers never count before it joined.
     */
    private void awaitJoined(Process process) {
        long deadline = System.nanoTime() + JOIN_TIMEOUT_NANOS;
        int pid = (int) process.pid();
        while (process.isAlive() && System.nanoTime() < deadline) {
            if (dirs.all().stream().allMatch(dir -> CgroupFiles.membersRecursive(dir).contains(pid))) return;
            Thread.onSpinWait();
        }
    }

    @Override
    public Set<Integer> memberPids() {
        return CgroupFiles.membersRecursive(dirs.memberDir());
    }

    @Override
    public int taskCount() {
        return CgroupFiles.readInt(dirs.capDir().resolve("pids.current"), memberPids().size());
    }

    @Override
    public long failedForks() {
        return CgroupFiles.readKeyed(dirs.capDir().resolve("pids.events"), "max").orElse(-1L);
    }

    @Override
    public synchronized TeardownReport teardown() {
        if (report == null || !report.zeroConfirmed()) { // a failed teardown may be tried again
            report = CgroupTeardown.run(dirs);
            Sandboxes.forget(this);
        }
        return report;
    }

    @Override
    public String toString() {
        return id();
    }
}
