// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which v2 cgroup each process is in, from the hierarchy's {@code cgroup.procs} files: one read
 * per cgroup instead of one /proc/PID/cgroup per process. The kernel formats that file under a
 * lock that all readers share, one line per hierarchy (14 on a hybrid host): about 15 µs a
 * process, and two threads reading it were slower than one (5,000 processes: 75 ms alone, 113 ms
 * with two). The walk took 3.5 ms for the same processes.
 *
 * <p>A pid answers only for a process that had started before the walk began (its start time,
 * in clock ticks since boot, against /proc/uptime read first): a pid reused since belongs to a
 * process the walk never saw. A pid listed twice (it moved during the walk) does not answer. The
 * walk is used only when it places this process where /proc/self/cgroup does (a cgroup
 * namespace or another mount would make its paths differ from the kernel's per-process ones).
 */
final class CgroupMembers {
    /** Below this many new processes a scan reads their cgroup files: the walk costs a few ms. */
    static final int WORTH_IT = 64;

    /**
     * Whether a walk is cheaper than reading the new processes' cgroup files: it costs about
     * 0.7 µs for every process on the machine (3.5 ms for 5,000), a file 15 µs for each new one,
     * so at 50,000 processes a scan with a few hundred new ones (a fire's every scan) reads them.
     */
    static boolean worthIt(int fresh, int processes) {
        return fresh >= Math.max(WORTH_IT, processes / 16);
    }
    private static final int TICKS_PER_SECOND = 100; // USER_HZ, as in StartClock

    private final Map<Integer, String> cgroupOf;
    private final long walkStartTicks;

    private CgroupMembers(Map<Integer, String> cgroupOf, long walkStartTicks) {
        this.cgroupOf = cgroupOf;
        this.walkStartTicks = walkStartTicks;
    }

    /**
     * The cgroup (as /proc/PID/cgroup's {@code 0::} line names it) of the process with this pid
     * and start time; empty when the walk cannot say (started since, listed twice, not listed).
     */
    Optional<String> of(int pid, long startTicks) {
        if (startTicks >= walkStartTicks - 1) return Optional.empty(); // a tick of margin: uptime is rounded
        return Optional.ofNullable(cgroupOf.get(pid));
    }

    /** The walk of the v2 hierarchy that the /proc at {@code reader}'s root sees; empty when there is none to trust. */
    static Optional<CgroupMembers> walk(ProcReader reader) {
        try {
            Optional<Path> mount = v2Mount(reader);
            if (mount.isEmpty()) return Optional.empty();
            Optional<String> uptime = reader.text("uptime");
            if (uptime.isEmpty()) return Optional.empty();
            long startTicks = (long) (Double.parseDouble(uptime.get().trim().split("\\s+")[0]) * TICKS_PER_SECOND);
            Map<Integer, String> cgroupOf = new HashMap<>();
            Set<Integer> twice = new HashSet<>();
            walk(mount.get(), "", cgroupOf, twice);
            cgroupOf.keySet().removeAll(twice);
            CgroupMembers members = new CgroupMembers(cgroupOf, startTicks);
            int self = (int) ProcessHandle.current().pid();
            String own = ownCgroup(reader);
            if (!reader.root().equals(Path.of("/proc")) || own.isEmpty() || !own.equals(cgroupOf.get(self))) return Optional.empty();
            return Optional.of(members);
        } catch (IOException | RuntimeException unreadable) {
            return Optional.empty();
        }
    }

    private static void walk(Path dir, String path, Map<Integer, String> cgroupOf, Set<Integer> twice) throws IOException {
        String name = path.isEmpty() ? "/" : path;
        byte[] procs;
        try {
            procs = Files.readAllBytes(dir.resolve("cgroup.procs"));
        } catch (IOException gone) {
            return; // removed during the walk: its processes, if any, are read one by one
        }
        int pid = 0;
        boolean digits = false;
        for (byte b : procs) {
            if (b >= '0' && b <= '9') {
                pid = pid * 10 + (b - '0');
                digits = true;
            } else if (digits) {
                if (cgroupOf.putIfAbsent(pid, name) != null) twice.add(pid);
                pid = 0;
                digits = false;
            }
        }
        if (digits && cgroupOf.putIfAbsent(pid, name) != null) twice.add(pid);
        try (DirectoryStream<Path> children = Files.newDirectoryStream(dir, Files::isDirectory)) {
            for (Path child : children) walk(child, path + "/" + child.getFileName(), cgroupOf, twice);
        } catch (IOException gone) {
            // removed during the walk
        }
    }

    /** Where the cgroup2 file system is mounted, from this /proc's mountinfo. */
    private static Optional<Path> v2Mount(ProcReader reader) {
        Optional<String> mountinfo = reader.text("self/mountinfo");
        if (mountinfo.isEmpty()) return Optional.empty();
        for (String line : mountinfo.get().split("\n")) {
            int dash = line.indexOf(" - ");
            if (dash < 0 || !line.startsWith("cgroup2 ", dash + 3)) continue;
            String[] f = line.substring(0, dash).split(" ");
            if (f.length >= 5 && f[3].equals("/")) return Optional.of(Path.of(f[4])); // the hierarchy's root, not a bind of a subtree
        }
        return Optional.empty();
    }

    private static String ownCgroup(ProcReader reader) {
        return reader.cgroup((int) ProcessHandle.current().pid());
    }
}
