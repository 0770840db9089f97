package dev.runaway.procfs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The limits a process's forks and allocations can hit besides its cgroup's pids.max: its
 * RLIMIT_NPROC (from /proc/PID/limits) and its memory cgroup's cap with the OOM kills that cap
 * caused (v2 memory.max and memory.events, or on a hybrid host the v1 memory cgroup the process
 * is in, which need not be at its v2 path). Roots are parameters so tests use fake trees.
 */
public final class ProcessCaps {
    /** v1 reports "no limit" as the largest page-aligned counter; anything this large is no cap. */
    private static final long UNLIMITED_FROM = 1L << 60;
    private final Path procRoot;
    private final Path sysFsCgroup;

    public ProcessCaps(Path procRoot, Path sysFsCgroup) {
        this.procRoot = procRoot;
        this.sysFsCgroup = sysFsCgroup;
    }

    public static ProcessCaps live() {
        return new ProcessCaps(Path.of("/proc"), Path.of("/sys/fs/cgroup"));
    }

    /** Reads nothing: for analyses of recorded or synthetic processes. */
    public static ProcessCaps none() {
        return new ProcessCaps(Path.of("/nonexistent/proc"), Path.of("/nonexistent/cgroup"));
    }

    /** A memory cap: which file sets it, its value, and the OOM kills in that cgroup so far. */
    public record MemoryCap(String limit, long bytes, long oomKillsTotal) {
    }

    /** The soft RLIMIT_NPROC of a process; empty when unlimited or unreadable. */
    public OptionalLong maxProcesses(int pid) {
        try {
            for (String line : Files.readAllLines(procRoot.resolve(Integer.toString(pid)).resolve("limits"))) {
                if (!line.startsWith("Max processes")) continue;
                String soft = line.substring("Max processes".length()).trim().split("\\s+")[0];
                return soft.equals("unlimited") ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(soft));
            }
        } catch (IOException | NumberFormatException e) {
            // gone or not ours to read
        }
        return OptionalLong.empty();
    }

    /** The v1 cgroup path of a process in one controller's hierarchy ("N:memory:/path"); empty without one. */
    public Optional<String> v1Cgroup(int pid, String controller) {
        try {
            for (String line : Files.readAllLines(procRoot.resolve(Integer.toString(pid)).resolve("cgroup"))) {
                String[] parts = line.split(":", 3);
                if (parts.length == 3 && java.util.Arrays.asList(parts[1].split(",")).contains(controller)) {
                    return Optional.of(parts[2]);
                }
            }
        } catch (IOException e) {
            // gone
        }
        return Optional.empty();
    }

    /** The memory cap of the v2 cgroup at this path (memory.max, memory.events oom_kill). */
    public Optional<MemoryCap> memoryV2(String v2Path) {
        if (v2Path.isEmpty() || v2Path.equals("/")) return Optional.empty();
        String relative = v2Path.substring(1);
        for (Path dir : new Path[] {sysFsCgroup.resolve(relative), sysFsCgroup.resolve("unified").resolve(relative)}) {
            OptionalLong max = CgroupPids.number(dir.resolve("memory.max"));
            if (max.isPresent()) {
                return Optional.of(new MemoryCap("memory.max", max.getAsLong(),
                        CgroupPids.keyed(dir.resolve("memory.events"), "oom_kill").orElse(-1)));
            }
        }
        return Optional.empty();
    }

    /** The memory cap of the v1 memory cgroup at this path (memory.limit_in_bytes, memory.oom_control oom_kill). */
    public Optional<MemoryCap> memoryV1(String v1Path) {
        if (v1Path.isEmpty() || v1Path.equals("/")) return Optional.empty();
        Path dir = sysFsCgroup.resolve("memory").resolve(v1Path.substring(1));
        OptionalLong limit = CgroupPids.number(dir.resolve("memory.limit_in_bytes"));
        if (limit.isEmpty() || limit.getAsLong() >= UNLIMITED_FROM) return Optional.empty();
        return Optional.of(new MemoryCap("memory.limit_in_bytes", limit.getAsLong(),
                CgroupPids.keyed(dir.resolve("memory.oom_control"), "oom_kill").orElse(-1)));
    }
}
