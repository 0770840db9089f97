// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sandbox;

import dev.runaway.model.ProcessIdentity;
import dev.runaway.procfs.ProcStat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Makes sandboxes with the strongest containment this process can have: cgroups when it can
 * write the hierarchies, else a process session with RLIMIT_NPROC. The first sandbox made in
 * a JVM first tears down sandboxes orphaned by a crash, and every sandbox that is not detached
 * is torn down by a shutdown hook when the JVM exits.
 */
public final class Sandboxes {
    /** Set to {@code session} to force the unprivileged containment (tests of that path). */
    public static final String FORCE_PROPERTY = "runaway.sandbox";

    private static final Set<Sandbox> OPEN = ConcurrentHashMap.newKeySet();
    private static final AtomicBoolean STARTED = new AtomicBoolean();

    private Sandboxes() {
    }

    public static Sandbox create(SandboxSpec spec) throws IOException {
        CgroupLayout layout = CgroupLayout.detect();
        if (STARTED.compareAndSet(false, true)) {
            Janitor.reapOrphans(layout);
            Runtime.getRuntime().addShutdownHook(new Thread(Sandboxes::closeAll, "runaway-sandbox-teardown"));
        }
        Sandbox sandbox = canUseCgroups(layout)
                ? CgroupSandbox.create(spec, layout, self())
                : SessionSandbox.create(spec);
        if (!spec.detached()) OPEN.add(sandbox);
        return sandbox;
    }

    /** Finds a live sandbox by its id (the cgroup name) or by its label. */
    public static Optional<CgroupSandbox> find(String idOrLabel) {
        return Janitor.all(CgroupLayout.detect()).stream()
                .filter(s -> s.id().equals(idOrLabel) || s.name().label().equals(idOrLabel))
                .findFirst();
    }

    /** Every cgroup sandbox on the machine, live or not. */
    public static List<CgroupSandbox> list() {
        return new ArrayList<>(Janitor.all(CgroupLayout.detect()));
    }

    static void forget(Sandbox sandbox) {
        OPEN.remove(sandbox);
    }

    private static void closeAll() {
        for (Sandbox sandbox : List.copyOf(OPEN)) sandbox.teardown();
    }

    private static boolean canUseCgroups(CgroupLayout layout) {
        if ("session".equals(System.getProperty(FORCE_PROPERTY))) return false;
        Optional<Path> writable = layout.unified().isPresent() ? layout.unified() : layout.v1Pids();
        return writable.isPresent() && Files.isWritable(writable.get())
                && (layout.unifiedHas("pids") || layout.v1Pids().map(Files::isWritable).orElse(false));
    }

    static Optional<ProcessIdentity> self() {
        int pid = (int) ProcessHandle.current().pid();
        return ProcStat.read(Path.of("/proc"), pid).map(ProcStat::identity);
    }
}
