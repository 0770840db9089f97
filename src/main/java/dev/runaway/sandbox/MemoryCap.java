// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sandbox;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A sandbox's memory cap. Where the v2 tree has a memory controller, {@code memory.max} (and
 * {@code memory.swap.max} 0) on the sandbox's own v2 cgroup. On a hybrid host whose v2 tree has
 * none (as here), a v1 memory cgroup of the sandbox's name, created below our own memory
 * cgroup, with {@code memory.limit_in_bytes} and {@code memory.memsw.limit_in_bytes} set to
 * the cap so swap cannot absorb it. Nesting below our own cgroup keeps the host's accounting
 * (and any limit it set on us) covering the sandbox; nothing is ever written to a cgroup this
 * class did not create.
 */
final class MemoryCap {
    static final String V1_LIMIT = "memory.limit_in_bytes";
    static final String V1_MEMSW_LIMIT = "memory.memsw.limit_in_bytes";

    /** The directories with the memory cgroup added when one was made, and the cap in words. */
    record Applied(CgroupDirs dirs, String text) {
    }

    private MemoryCap() {
    }

    static Applied apply(SandboxSpec spec, CgroupLayout layout, CgroupDirs dirs, String procSelfCgroup, SandboxName name)
            throws IOException {
        if (spec.memoryMaxBytes().isEmpty()) return new Applied(dirs, "no memory cap asked");
        long bytes = spec.memoryMaxBytes().getAsLong();
        Path memoryMax = dirs.unified() == null ? null : dirs.unified().resolve("memory.max");
        if (memoryMax != null && Files.exists(memoryMax)) {
            CgroupFiles.write(memoryMax, Long.toString(bytes));
            Path swapMax = dirs.unified().resolve("memory.swap.max");
            if (Files.exists(swapMax)) CgroupFiles.write(swapMax, "0");
            return new Applied(dirs, "memory.max " + bytes + " bytes, no swap");
        }
        if (layout.v1Memory().isEmpty()) {
            return new Applied(dirs, "no memory cap (no memory controller in cgroup v2, no v1 memory hierarchy)");
        }
        Path parent = parentFor(layout.v1Memory().get(), procSelfCgroup);
        if (!Files.isWritable(parent)) {
            return new Applied(dirs, "no memory cap (cannot create a cgroup in " + parent + ")");
        }
        Path dir = parent.resolve(name.format());
        Files.createDirectory(dir);
        try {
            CgroupFiles.write(dir.resolve(V1_LIMIT), Long.toString(bytes));
            boolean memsw = Files.exists(dir.resolve(V1_MEMSW_LIMIT));
            if (memsw) CgroupFiles.write(dir.resolve(V1_MEMSW_LIMIT), Long.toString(bytes));
            // A child inherits oom_kill_disable from its parent; with it set, a task at the cap would hang, not die.
            if (CgroupFiles.readKeyed(dir.resolve("memory.oom_control"), "oom_kill_disable").orElse(0L) != 0) {
                CgroupFiles.write(dir.resolve("memory.oom_control"), "0");
            }
            return new Applied(dirs.withMemory(dir), V1_LIMIT + " " + bytes + " bytes in the v1 memory cgroup"
                    + (memsw ? ", memory+swap the same (no swap)" : " (no memsw accounting: swap is not capped)"));
        } catch (IOException | RuntimeException e) {
            CgroupFiles.removeTree(dir);
            throw e;
        }
    }

    /** Our own v1 memory cgroup when it is there to nest in, else the hierarchy's root. */
    static Path parentFor(Path v1Root, String procSelfCgroup) {
        Optional<String> own = CgroupLayout.ownCgroup(procSelfCgroup, "memory");
        if (own.isPresent() && own.get().startsWith("/") && own.get().length() > 1) {
            Path ownDir = v1Root.resolve(own.get().substring(1));
            if (Files.isDirectory(ownDir)) return ownDir;
        }
        return v1Root;
    }

    /** The cap in force: v2 memory.max, else the v1 limit; empty when there is none. */
    static OptionalLong limitBytes(CgroupDirs dirs) {
        if (dirs.memory() != null) return readBytes(dirs.memory().resolve(V1_LIMIT));
        if (dirs.unified() != null) return readBytes(dirs.unified().resolve("memory.max"));
        return OptionalLong.empty();
    }

    /** How many processes the kernel's OOM killer killed in the sandbox; -1 without a memory cgroup. */
    static long oomKills(CgroupDirs dirs) {
        if (dirs.memory() != null) return CgroupFiles.readKeyed(dirs.memory().resolve("memory.oom_control"), "oom_kill").orElse(-1L);
        if (dirs.unified() != null) return CgroupFiles.readKeyed(dirs.unified().resolve("memory.events"), "oom_kill").orElse(-1L);
        return -1;
    }

    private static OptionalLong readBytes(Path file) {
        try {
            String text = Files.readString(file).trim();
            return text.equals("max") ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(text));
        } catch (IOException | NumberFormatException e) {
            return OptionalLong.empty();
        }
    }
}
