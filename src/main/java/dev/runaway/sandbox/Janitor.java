// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sandbox;

import dev.runaway.model.ProcessIdentity;
import dev.runaway.procfs.ProcStat;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Finds sandboxes by the marker in their cgroup name and tears down the orphaned ones: those
 * whose owner (pid and start time) is gone, and those past their deadline. A sandbox whose
 * owner lives (another test run, another console, a parallel working copy) is never touched.
 */
final class Janitor {
    private static final int MAX_DEPTH = 8;

    private Janitor() {
    }

    static List<TeardownReport> reapOrphans(CgroupLayout layout) {
        List<TeardownReport> reports = new ArrayList<>();
        for (CgroupSandbox sandbox : all(layout)) {
            if (isOrphan(sandbox.name(), Path.of("/proc"), Instant.now())) reports.add(sandbox.teardown());
        }
        return reports;
    }

    static boolean isOrphan(SandboxName name, Path procRoot, Instant now) {
        if (now.getEpochSecond() >= name.deadlineEpochSecond()) return true;
        Optional<ProcessIdentity> owner = name.owner();
        if (owner.isEmpty()) return false;
        return ProcStat.read(procRoot, owner.get().pid())
                .map(stat -> stat.startTicks() != owner.get().startTicks() || stat.isZombie())
                .orElse(true);
    }

    /** Every sandbox below the hierarchy roots, outermost first, paired across hierarchies by name. */
    static List<CgroupSandbox> all(CgroupLayout layout) {
        Map<String, Path> unified = new LinkedHashMap<>();
        Map<String, Path> pids = new LinkedHashMap<>();
        Map<String, Path> memory = new LinkedHashMap<>();
        layout.unified().ifPresent(root -> find(root, 0, unified));
        layout.v1Pids().ifPresent(root -> find(root, 0, pids));
        layout.v1Memory().ifPresent(root -> find(root, 0, memory));
        Map<String, CgroupDirs> byName = new LinkedHashMap<>();
        unified.forEach((name, dir) -> byName.put(name, new CgroupDirs(dir, pids.remove(name), memory.remove(name))));
        pids.forEach((name, dir) -> byName.put(name, new CgroupDirs(null, dir, memory.remove(name))));
        memory.forEach((name, dir) -> byName.put(name, new CgroupDirs(null, null, dir))); // left by a torn teardown
        List<CgroupSandbox> found = new ArrayList<>();
        byName.forEach((name, dirs) -> found.add(CgroupSandbox.attach(SandboxName.parse(name).orElseThrow(), dirs)));
        return found;
    }

    private static void find(Path dir, int depth, Map<String, Path> into) {
        if (depth > MAX_DEPTH) return;
        try (DirectoryStream<Path> children = Files.newDirectoryStream(dir, Files::isDirectory)) {
            for (Path child : children) {
                String name = child.getFileName().toString();
                if (SandboxName.parse(name).isPresent()) into.put(name, child);
                find(child, depth + 1, into);
            }
        } catch (IOException e) {
            // unreadable or removed while walking: nothing of ours can be there
        }
    }
}
