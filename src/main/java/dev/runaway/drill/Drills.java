// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.drill;

import dev.runaway.model.Json;
import dev.runaway.sandbox.CgroupSandbox;
import dev.runaway.sandbox.NativeBinaries;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import dev.runaway.sandbox.TeardownReport;
import oshi.SystemInfo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/** Starts, lists and stops drills. */
public final class Drills {
    public static final String LABEL_PREFIX = "drill-";
    /** Memory per level of the linear drill, from the deploy-loop incident (~16 MiB a level). */
    static final long LINEAR_LEVEL_MIB = 16;
    /** How often each process of the pressing drill tries to fork, from the fire measured in issue 14. */
    public static final long PRESSING_PERIOD_MS = 50;
    /** The linear drill never holds more than this share of the memory available when it starts. */
    static final double LINEAR_MEMORY_SHARE = 0.25;

    private static final java.util.Set<Drill> OPEN = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private static final java.util.concurrent.atomic.AtomicBoolean HOOK_ADDED = new java.util.concurrent.atomic.AtomicBoolean();

    private Drills() {
    }

    public static Drill start(Scenario scenario, int maxTasks, Duration lifetime, boolean detach) throws IOException {
        return start(scenario, maxTasks, 0, lifetime, detach);
    }

    /**
     * A drill whose sandbox also caps memory at {@code memoryMaxBytes} (0: no memory cap), as the
     * 1,500 MiB unit cap of the second incident: the kernel's OOM killer then takes its levels.
     */
    public static Drill start(Scenario scenario, int maxTasks, long memoryMaxBytes, Duration lifetime, boolean detach)
            throws IOException {
        return start(scenario, maxTasks, memoryMaxBytes, lifetime, detach, false);
    }

    /**
     * With {@code ownSession}, the drill leads a session of its own, as a runaway started from
     * another terminal or a CI job does (not the caller's, which may hold a display server).
     */
    public static Drill start(Scenario scenario, int maxTasks, long memoryMaxBytes, Duration lifetime, boolean detach,
                              boolean ownSession) throws IOException {
        cleanStaleFolders();
        String id = LABEL_PREFIX + scenario.key() + "-" + HexFormat.of().toHexDigits((short) ThreadLocalRandom.current().nextInt());
        SandboxSpec spec = SandboxSpec.of(id, maxTasks).withLifetime(lifetime);
        if (memoryMaxBytes > 0) spec = spec.withMemoryMax(memoryMaxBytes);
        if (detach) spec = spec.detach();
        Path folder = folderOf(id);
        Files.createDirectories(folder);
        Sandbox sandbox = Sandboxes.create(spec);
        try {
            long levelMiB = scenario == Scenario.LINEAR ? linearLevelMiB(maxTasks) : 0;
            ProcessBuilder builder = new ProcessBuilder(command(scenario, folder, levelMiB))
                    .directory(folder.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(folder.resolve("drill.log").toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            Process root = ownSession ? sandbox.startInOwnSession(builder) : sandbox.start(builder);
            DrillInfo info = new DrillInfo(id, scenario, sandbox.id(), sandbox.containment(), maxTasks, root.pid(),
                    folder.toString(), levelMiB, Instant.now(), lifetime.toSeconds(), detach);
            Json.STATE_PRETTY.writeValue(folder.resolve("drill.json").toFile(), info);
            Drill drill = new Drill(info, sandbox, root);
            if (!detach) tearDownAtExit(drill);
            return drill;
        } catch (IOException | RuntimeException e) {
            sandbox.teardown();
            DrillFiles.deleteTree(folder);
            throw e;
        }
    }

    /** The sandbox has its own hook; this one also removes the drill's folder. */
    private static void tearDownAtExit(Drill drill) {
        if (HOOK_ADDED.compareAndSet(false, true)) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> OPEN.forEach(Drill::teardown), "runaway-drill-teardown"));
        }
        OPEN.add(drill);
    }

    static void forget(Drill drill) {
        OPEN.remove(drill);
    }

    static List<String> command(Scenario scenario, Path folder, long levelMiB) throws IOException {
        Path worker = NativeBinaries.find(NativeBinaries.DRILL_WORKER);
        return switch (scenario) {
            case LINEAR -> List.of(worker.toString(), "linear", "0", Long.toString(levelMiB), "32");
            case FANOUT -> List.of(worker.toString(), "fanout", "5");
            case ORPHANS -> List.of(DrillFiles.disposableTool(folder, worker).toString(), "orphans-start", "3", "20");
            case RECURSIVE -> List.of("/bin/bash", DrillFiles.recursivePair(folder, DrillFiles.python()).toString());
            case PRESSING -> List.of(DrillFiles.disposableTool(folder, worker).toString(), "pressing",
                    Long.toString(PRESSING_PERIOD_MS));
        };
    }

    /** 16 MiB a level, unless the cap times that would take more than a quarter of what is free. */
    static long linearLevelMiB(int maxTasks) {
        long available = new SystemInfo().getHardware().getMemory().getAvailable();
        long affordable = (long) (available * LINEAR_MEMORY_SHARE) / maxTasks / (1 << 20);
        return Math.max(0, Math.min(LINEAR_LEVEL_MIB, affordable));
    }

    /** Drills running now (this process's or detached ones), by their sandboxes. */
    public static List<RunningDrill> list() {
        List<RunningDrill> drills = new ArrayList<>();
        for (CgroupSandbox sandbox : Sandboxes.list()) {
            String label = sandbox.name().label();
            if (!label.startsWith(LABEL_PREFIX)) continue;
            drills.add(new RunningDrill(sandbox, readInfo(folderOf(label))));
        }
        return drills;
    }

    /** Tears down a drill by id (with or without the {@code drill-} prefix). */
    public static Optional<TeardownReport> stop(String id) {
        String label = id.startsWith(LABEL_PREFIX) ? id : LABEL_PREFIX + id;
        Optional<CgroupSandbox> sandbox = Sandboxes.find(label);
        if (sandbox.isEmpty()) return Optional.empty();
        TeardownReport report = sandbox.get().teardown();
        DrillFiles.deleteTree(folderOf(label));
        return Optional.of(report);
    }

    static Path folderOf(String id) {
        return Path.of(System.getProperty("java.io.tmpdir"), "runaway-" + id);
    }

    private static Optional<DrillInfo> readInfo(Path folder) {
        try {
            return Optional.of(Json.STATE.readValue(folder.resolve("drill.json").toFile(), DrillInfo.class));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Removes folders of drills whose sandbox is gone (torn down by a watchdog after a crash). */
    static void cleanStaleFolders() {
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        List<String> live = Sandboxes.list().stream().map(s -> "runaway-" + s.name().label()).toList();
        try (var entries = Files.newDirectoryStream(tmp, "runaway-" + LABEL_PREFIX + "*")) {
            for (Path folder : entries) {
                if (!live.contains(folder.getFileName().toString())) DrillFiles.deleteTree(folder);
            }
        } catch (IOException | RuntimeException e) {
            // another user's folder, or removed meanwhile: not ours to clean
        }
    }
}
