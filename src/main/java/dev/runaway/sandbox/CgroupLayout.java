// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sandbox;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Where this machine keeps its cgroups. A pure v2 host mounts the unified tree at
 * /sys/fs/cgroup; a hybrid host (like the one this was written on) mounts it at
 * /sys/fs/cgroup/unified with no controllers, beside v1 hierarchies such as {@code pids}.
 * The v1 memory hierarchy is used only for a sandbox that asks for a memory cap, and then only
 * through a child cgroup the sandbox creates: its root and every cgroup above ours belong to
 * the host.
 *
 * @param unified   the v2 tree (membership, cgroup.freeze, cgroup.kill), if mounted
 * @param v1Pids    the v1 pids hierarchy, used for pids.max when v2 has no pids controller
 * @param v1Memory  the v1 memory hierarchy, used for a memory cap when v2 has no memory controller
 */
public record CgroupLayout(Optional<Path> unified, Optional<Path> v1Pids, Optional<Path> v1Memory) {

    public static final Path SYS_FS_CGROUP = Path.of("/sys/fs/cgroup");

    public static CgroupLayout detect() {
        return detect(SYS_FS_CGROUP);
    }

    /** Reads the layout below {@code root} (a parameter so tests can use a fake tree). */
    public static CgroupLayout detect(Path root) {
        Optional<Path> unified = Optional.empty();
        if (Files.exists(root.resolve("cgroup.controllers"))) unified = Optional.of(root);
        else if (Files.exists(root.resolve("unified/cgroup.controllers"))) unified = Optional.of(root.resolve("unified"));
        Optional<Path> v1Memory = v1(root, "memory").filter(dir -> Files.exists(dir.resolve("memory.limit_in_bytes")));
        return new CgroupLayout(unified, v1(root, "pids"), v1Memory);
    }

    /** A v1 hierarchy at root/NAME: it has cgroup.procs and no v2 marker (a v2 child may share the name). */
    private static Optional<Path> v1(Path root, String name) {
        Path dir = root.resolve(name);
        return Files.exists(dir.resolve("cgroup.procs")) && !Files.exists(dir.resolve("cgroup.controllers"))
                ? Optional.of(dir) : Optional.empty();
    }

    public boolean unifiedHas(String controller) {
        return unified.map(u -> controllers(u).contains(" " + controller + " ")).orElse(false);
    }

    private static String controllers(Path dir) {
        try {
            return " " + Files.readString(dir.resolve("cgroup.controllers")).trim() + " ";
        } catch (IOException e) {
            return " ";
        }
    }

    /**
     * The cgroup this process is in within a hierarchy, from /proc/self/cgroup: the v2 line
     * is {@code 0::/path}, a v1 line {@code N:pids:/path}.
     */
    public static Optional<String> ownCgroup(String procSelfCgroup, String v1Controller) {
        for (String line : procSelfCgroup.split("\n")) {
            String[] parts = line.split(":", 3);
            if (parts.length < 3) continue;
            boolean match = v1Controller == null
                    ? parts[0].equals("0") && parts[1].isEmpty()
                    : java.util.Arrays.asList(parts[1].split(",")).contains(v1Controller);
            if (match) return Optional.of(parts[2]);
        }
        return Optional.empty();
    }
}
