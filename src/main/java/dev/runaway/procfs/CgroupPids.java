// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * How many more tasks a cgroup may start before its pids.max refuses a fork. Looks in the v2
 * tree, then at the same path in the v1 pids hierarchy (a hybrid host keeps both in step).
 */
public final class CgroupPids {
    private final Path sysFsCgroup;

    public CgroupPids(Path sysFsCgroup) {
        this.sysFsCgroup = sysFsCgroup;
    }

    public static CgroupPids live() {
        return new CgroupPids(Path.of("/sys/fs/cgroup"));
    }

    /**
     * A cgroup's pids.max, how many more tasks it allows, and how many forks it has refused
     * since it was made (the {@code max} line of pids.events, v1 and v2 alike; -1 when unreadable).
     */
    public record Cap(long max, long room, long refusedTotal) {
        public Cap(long max, long room) {
            this(max, room, -1);
        }
    }

    /** The cap of the cgroup at this v2 path; empty when it has none. */
    public Optional<Cap> cap(String v2Path) {
        if (v2Path.isEmpty() || v2Path.equals("/")) return Optional.empty();
        String relative = v2Path.substring(1);
        for (Path dir : new Path[] {sysFsCgroup.resolve(relative), sysFsCgroup.resolve("unified").resolve(relative),
                sysFsCgroup.resolve("pids").resolve(relative)}) {
            OptionalLong max = number(dir.resolve("pids.max"));
            OptionalLong current = number(dir.resolve("pids.current"));
            if (max.isPresent() && current.isPresent()) {
                return Optional.of(new Cap(max.getAsLong(), Math.max(0, max.getAsLong() - current.getAsLong()),
                        keyed(dir.resolve("pids.events"), "max").orElse(-1)));
            }
        }
        return Optional.empty();
    }

    /** Tasks left under the cap of the cgroup at this v2 path; empty when it has no cap. */
    public OptionalLong remaining(String v2Path) {
        return cap(v2Path).map(c -> OptionalLong.of(c.room())).orElse(OptionalLong.empty());
    }

    /** The number after {@code key} in a "key value" file such as pids.events or memory.events. */
    static OptionalLong keyed(Path file, String key) {
        try {
            for (String line : Files.readAllLines(file)) {
                String[] parts = line.trim().split("\\s+");
                if (parts.length == 2 && parts[0].equals(key)) return OptionalLong.of(Long.parseLong(parts[1]));
            }
        } catch (IOException | NumberFormatException e) {
            // gone or unreadable: no value
        }
        return OptionalLong.empty();
    }

    static OptionalLong number(Path file) {
        try {
            String text = Files.readString(file).trim();
            return text.equals("max") ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(text));
        } catch (IOException | NumberFormatException e) {
            return OptionalLong.empty();
        }
    }
}
