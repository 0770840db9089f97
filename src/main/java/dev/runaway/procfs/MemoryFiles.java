// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * What a group's memory really is, from the kernel's own accounting: a cgroup's charge (v2
 * {@code memory.current}, or on a hybrid host the v1 memory cgroup's {@code memory.usage_in_bytes})
 * less its inactive file cache, or a process's PSS from {@code /proc/PID/smaps_rollup}. A PSS read
 * walks the process's mappings in the kernel: callers read it for a few groups, never the table.
 * Roots are parameters so tests use fake trees.
 */
public final class MemoryFiles {
    private final Path procRoot;
    private final Path sysFsCgroup;

    public MemoryFiles(Path procRoot, Path sysFsCgroup) {
        this.procRoot = procRoot;
        this.sysFsCgroup = sysFsCgroup;
    }

    public static MemoryFiles live() {
        return new MemoryFiles(Path.of("/proc"), Path.of("/sys/fs/cgroup"));
    }

    /** Reads nothing: for analyses of recorded or synthetic processes. */
    public static MemoryFiles none() {
        return new MemoryFiles(Path.of("/nonexistent/proc"), Path.of("/nonexistent/cgroup"));
    }

    /**
     * A cgroup's charge: bytes, and the file they come from ({@code memory.current} or
     * {@code memory.usage_in_bytes}).
     */
    public record Charge(long bytes, String file) {
    }

    /**
     * The PSS of one process in bytes: 0 when it is gone or holds no memory (a zombie, a kernel
     * thread); empty when it is not ours to read (another user's, without root).
     */
    public OptionalLong pss(int pid) {
        OptionalLong own = pssIn(procRoot.resolve(Integer.toString(pid)));
        // A process whose main thread ended has no memory map of its own: its live thread's is the process's.
        if (own.isPresent() && own.getAsLong() == 0) return LiveThreads.taskDir(procRoot, pid).map(this::pssIn).orElse(own);
        return own;
    }

    /** The PSS in the smaps_rollup of {@code dir} (a process's or a task's directory), as {@link #pss}. */
    private OptionalLong pssIn(Path dir) {
        // smaps_rollup is one short file: "Pss:" is its third line, in kB.
        try {
            for (String line : Files.readAllLines(dir.resolve("smaps_rollup"))) {
                if (!line.startsWith("Pss:")) continue;
                String[] f = line.substring(4).trim().split("\\s+");
                return OptionalLong.of(Long.parseLong(f[0]) * 1024);
            }
        } catch (java.nio.file.AccessDeniedException notOurs) {
            return OptionalLong.empty();
        } catch (IOException | RuntimeException gone) {
            // exited between the scan and this read: it holds nothing now
        }
        return OptionalLong.of(0);
    }

    /**
     * The charge of the cgroup holding a group, when that cgroup (with every cgroup below it) holds
     * no process but the group's: the v2 cgroup at {@code v2Path} where it accounts memory, else
     * the v1 memory cgroup {@code firstPid} is in. {@code atLeast} of the group's {@code pids}
     * must be found there (its zombies may have left the cgroup already).
     */
    public Optional<Charge> exclusiveCharge(String v2Path, int firstPid, Set<Integer> pids, int atLeast) {
        if (v2Path.isEmpty() || v2Path.equals("/")) return Optional.empty();
        String relative = v2Path.substring(1);
        for (Path dir : new Path[] {sysFsCgroup.resolve(relative), sysFsCgroup.resolve("unified").resolve(relative)}) {
            OptionalLong current = CgroupPids.number(dir.resolve("memory.current"));
            if (current.isPresent()) {
                return charge(dir, current.getAsLong(), "inactive_file", "memory.current", pids, atLeast);
            }
        }
        Optional<String> v1 = new ProcessCaps(procRoot, sysFsCgroup).v1Cgroup(firstPid, "memory");
        if (v1.isEmpty() || v1.get().equals("/") || !v1.get().startsWith("/")) return Optional.empty();
        Path dir = sysFsCgroup.resolve("memory").resolve(v1.get().substring(1));
        OptionalLong usage = CgroupPids.number(dir.resolve("memory.usage_in_bytes"));
        if (usage.isEmpty()) return Optional.empty();
        return charge(dir, usage.getAsLong(), "total_inactive_file", "memory.usage_in_bytes", pids, atLeast);
    }

    private Optional<Charge> charge(Path dir, long usage, String inactiveKey, String file, Set<Integer> pids, int atLeast) {
        int found = exclusiveMembers(dir, pids);
        if (found < atLeast) return Optional.empty();
        // The charge includes page cache the kernel will drop at need (the machine counts it as
        // available, not used): the working set, as container runtimes report it.
        long inactive = CgroupPids.keyed(dir.resolve("memory.stat"), inactiveKey).orElse(0);
        return Optional.of(new Charge(Math.max(0, usage - inactive), file));
    }

    /** How many of PIDS the cgroup subtree at DIR holds; -1 when it holds any other process. */
    private static int exclusiveMembers(Path dir, Set<Integer> pids) {
        int found = 0;
        Deque<Path> todo = new ArrayDeque<>();
        todo.add(dir);
        try {
            while (!todo.isEmpty()) {
                Path d = todo.poll();
                for (String line : Files.readAllLines(d.resolve("cgroup.procs"))) {
                    if (line.isBlank()) continue;
                    if (!pids.contains(Integer.parseInt(line.trim()))) return -1;
                    found++;
                }
                try (DirectoryStream<Path> children = Files.newDirectoryStream(d, Files::isDirectory)) {
                    for (Path c : children) todo.add(c);
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1; // removed while read, or not readable: no claim
        }
        return found;
    }
}
