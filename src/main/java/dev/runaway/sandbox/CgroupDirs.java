// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sandbox;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One sandbox's directories: the v2 cgroup (may be null on a v1-only host), the v1 pids
 * cgroup (null when the v2 one has a pids controller of its own), and the v1 memory cgroup
 * (null unless a memory cap was asked for on a host whose v2 tree has no memory controller).
 */
public record CgroupDirs(Path unified, Path pids, Path memory) {
    public CgroupDirs {
        if (unified == null && pids == null && memory == null) throw new IllegalArgumentException("a sandbox needs a cgroup");
    }

    public CgroupDirs(Path unified, Path pids) {
        this(unified, pids, null);
    }

    /** Where membership is read: the v2 cgroup when there is one. */
    public Path memberDir() {
        return unified != null ? unified : pids != null ? pids : memory;
    }

    /** Where pids.max lives (a memory-only leftover of a crashed teardown has none: reads fall back). */
    public Path capDir() {
        return pids != null ? pids : unified != null ? unified : memory;
    }

    public List<Path> all() {
        List<Path> all = new ArrayList<>(3);
        if (unified != null) all.add(unified);
        if (pids != null) all.add(pids);
        if (memory != null) all.add(memory);
        return all;
    }

    public CgroupDirs withMemory(Path dir) {
        return new CgroupDirs(unified, pids, dir);
    }
}
