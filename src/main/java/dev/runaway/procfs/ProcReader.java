// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import dev.runaway.sys.Errno;
import dev.runaway.sys.ProcCalls;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Reads /proc below a root given to the constructor (tests pass a small fake tree). One
 * reader belongs to one thread: it reuses its buffer, so a scan of 50,000 stat files allocates
 * nothing but the records it returns. A process that vanishes mid-read is simply absent.
 */
public final class ProcReader {
    private static final int BUFFER_BYTES = 64 * 1024;

    private final Path root;
    private final String rootText;
    private final byte[] buffer = new byte[BUFFER_BYTES];
    private final PidLister pids;
    private static final int PATH_BYTES = 4096;

    /**
     * open, read, close, readlink and stat straight through libc, directly mapped, into native
     * buffers this reader keeps ({@link ProcCalls}); null where there is no libc. At 50,000 new
     * processes a second NIO's readSymbolicLink and getAttribute cost more than the system calls
     * themselves, and so did a FileInputStream per file in a cold JVM.
     */
    private final ProcCalls calls;

    public ProcReader(Path root) {
        this.root = root;
        this.rootText = root.toString();
        this.pids = new PidLister(rootText);
        this.calls = ProcCalls.AVAILABLE ? new ProcCalls(BUFFER_BYTES) : null;
    }

    public Path root() {
        return root;
    }

    /** Every pid now, from one directory read, in ascending order. */
    public int[] pids() {
        return pids.list();
    }

    /**
     * /proc/PID/stat, parsed; empty when the process is gone. A process whose leader exited while
     * other threads live reads as its live thread ({@link LiveThreads}): alive, in that state.
     */
    public Optional<ProcStat> stat(int pid) {
        Optional<ProcStat> stat = statAt(rootText + "/" + pid + "/stat");
        if (stat.isEmpty() || !stat.get().mayHaveLiveThreads()) return stat;
        return Optional.of(liveThread(pid).map(stat.get()::livingAs).orElse(stat.get()));
    }

    private Optional<ProcStat> statAt(String path) {
        int length = readInto(path);
        if (length <= 0) return Optional.empty();
        try {
            return Optional.of(ProcStat.parse(buffer, length));
        } catch (IllegalArgumentException torn) {
            return Optional.empty();
        }
    }

    /** A live thread's stat of a process whose leader exited; empty when none lives (or the leader does). */
    private Optional<ProcStat> liveThread(int pid) {
        return LiveThreads.of(rootText, pid, tid -> statAt(rootText + "/" + pid + "/task/" + tid + "/stat"));
    }

    /**
     * Where a process's memory map is read from: /proc/PID, or the task directory of a live thread
     * when the leader exited (its own exe and cmdline read empty). Asked only after an empty read.
     */
    private Optional<String> liveThreadDir(int pid) {
        Optional<ProcStat> stat = statAt(rootText + "/" + pid + "/stat");
        if (stat.isEmpty() || !stat.get().mayHaveLiveThreads()) return Optional.empty();
        return liveThread(pid).map(t -> rootText + "/" + pid + "/task/" + t.pid());
    }

    /**
     * The arguments, split at NULs, bounded as {@link dev.runaway.model.Argv} keeps them (a long
     * line cut, and marked so); empty for kernel threads, zombies and vanished processes. A
     * process whose leader exited has them read through a live thread.
     */
    public List<String> cmdline(int pid) {
        int length = readInto(rootText + "/" + pid + "/cmdline");
        if (length == 0) length = liveThreadDir(pid).map(dir -> readInto(dir + "/cmdline")).orElse(0);
        if (length <= 0) return List.of();
        List<String> args = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < length; i++) {
            if (buffer[i] == 0) {
                args.add(new String(buffer, start, i - start, StandardCharsets.UTF_8));
                start = i + 1;
            }
        }
        if (start < length) args.add(new String(buffer, start, length - start, StandardCharsets.UTF_8));
        return dev.runaway.model.Argv.bounded(List.copyOf(args), dev.runaway.model.Argv.KEPT_CHARS);
    }

    /**
     * The executable's path (the target of /proc/PID/exe); empty when unreadable. A process whose
     * leader exited has it read through a live thread (looked for only when the link is missing,
     * ENOENT, not when it is denied: another user's process as an unprivileged scan reads it).
     */
    public String exe(int pid) {
        String dir = rootText + "/" + pid;
        String exe = exeAt(dir);
        if (!exe.isEmpty() || calls != null && ProcCalls.errno() != Errno.ENOENT) return exe;
        return liveThreadDir(pid).map(this::exeAt).orElse("");
    }

    /** The exe link in {@code dir} (a process's or a task's directory); empty when unreadable. */
    private String exeAt(String dir) {
        if (calls != null) {
            int n = calls.readlink(dir + "/exe", buffer, PATH_BYTES);
            if (n <= 0) return "";
            String target = new String(buffer, 0, n, StandardCharsets.UTF_8);
            return target.endsWith(" (deleted)") ? target.substring(0, target.length() - 10) : target;
        }
        try {
            String target = Files.readSymbolicLink(Path.of(dir, "exe")).toString();
            // A binary replaced or deleted while running reads "path (deleted)": keep the path.
            return target.endsWith(" (deleted)") ? target.substring(0, target.length() - 10) : target;
        } catch (IOException | UnsupportedOperationException e) {
            return "";
        }
    }

    /**
     * A process's parent from /proc/PID/status, -1 when gone: unlike stat, status is not held by
     * an exec under way (the kernel takes exec_update_lock for stat), and a runaway's young
     * processes are the ones exec'ing. From stat where there is no status (a test's /proc).
     */
    public int ppid(int pid) {
        int length = readInto(rootText + "/" + pid + "/status");
        if (length > 0) {
            String status = new String(buffer, 0, length, StandardCharsets.UTF_8);
            int at = status.indexOf("\nPPid:");
            if (at >= 0) {
                int end = status.indexOf('\n', at + 1);
                try {
                    return Integer.parseInt(status.substring(at + 6, end < 0 ? status.length() : end).trim());
                } catch (NumberFormatException torn) {
                    return -1;
                }
            }
        }
        return stat(pid).map(ProcStat::ppid).orElse(-1);
    }

    /**
     * The real uid of a process, from the first field of {@code Uid:} in /proc/PID/status; -1
     * when gone or unreadable. Unlike the owner of /proc/PID ({@link #uid}), which reads root for
     * a process that made itself non-dumpable and the euid of a setuid program, this is who ran
     * it, and no unprivileged process can make it another user's.
     */
    public int realUid(int pid) {
        int length = readInto(rootText + "/" + pid + "/status");
        if (length <= 0) return -1;
        String status = new String(buffer, 0, length, StandardCharsets.UTF_8);
        int at = status.indexOf("\nUid:");
        if (at < 0) return -1;
        int from = at + 5;
        while (from < status.length() && (status.charAt(from) == '\t' || status.charAt(from) == ' ')) from++;
        int to = from;
        while (to < status.length() && Character.isDigit(status.charAt(to))) to++;
        try {
            return Integer.parseInt(status.substring(from, to));
        } catch (NumberFormatException torn) {
            return -1;
        }
    }

    /** The v2 cgroup path from /proc/PID/cgroup (the {@code 0::} line); empty when unknown. */
    public String cgroup(int pid) {
        int length = readInto(rootText + "/" + pid + "/cgroup");
        if (length <= 0) return "";
        String text = new String(buffer, 0, length, StandardCharsets.UTF_8);
        for (String line : text.split("\n")) {
            if (line.startsWith("0::")) return line.substring(3);
        }
        return "";
    }

    /** The owner of /proc/PID, which is the process's effective uid; -1 when gone. */
    public int uid(int pid) {
        if (calls != null && ProcCalls.ownerKnown()) return calls.ownerUid(rootText + "/" + pid);
        try {
            return (Integer) Files.getAttribute(root.resolve(Integer.toString(pid)), "unix:uid");
        } catch (IOException | UnsupportedOperationException | ClassCastException e) {
            return -1;
        }
    }

    /** A whole small file as text (loadavg, meminfo, pressure); empty when absent. */
    public Optional<String> text(String relative) {
        int length = readInto(rootText + "/" + relative);
        return length < 0 ? Optional.empty() : Optional.of(new String(buffer, 0, length, StandardCharsets.UTF_8));
    }

    /** Reads a file into the buffer; its length, or -1 when it cannot be read (gone). */
    private int readInto(String path) {
        if (calls != null) return calls.read(path, buffer);
        try (FileInputStream in = new FileInputStream(path)) {
            int total = 0;
            int got;
            while (total < buffer.length && (got = in.read(buffer, total, buffer.length - total)) > 0) total += got;
            return total;
        } catch (IOException gone) {
            return -1;
        }
    }
}
