package dev.runaway.sandbox;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One sandbox's directories: the v2 cgroup (may be null on a v1-only host) and the v1 pids
 * cgroup (null when the v2 one has a pids controller of its own).
 */
public record CgroupDirs(Path unified, Path pids) {
    public CgroupDirs {
        if (unified == null && pids == null) throw new IllegalArgumentException("a sandbox needs a cgroup");
    }

    /** Where membership is read: the v2 cgroup when there is one. */
    public Path memberDir() {
        return unified != null ? unified : pids;
    }

    /** Where pids.max lives. */
    public Path capDir() {
        return pids != null ? pids : unified;
    }

    public List<Path> all() {
        List<Path> all = new ArrayList<>(2);
        if (unified != null) all.add(unified);
        if (pids != null) all.add(pids);
        return all;
    }
}
