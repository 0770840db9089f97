// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import dev.runaway.model.ProcessIdentity;
import dev.runaway.model.ProcessSample;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The fields of /proc/PID/stat that Runaway uses, numbered as in proc(5). The command name
 * (field 2) may hold spaces and parentheses, so the line is split at the last ')'.
 *
 * @param cpuTicks utime + stime (fields 14 and 15)
 * @param flags    the kernel's PF_* flags (field 9)
 * @param leaderExited the main thread ended while other threads live ({@link LiveThreads}): state,
 *                 flags and resident pages are a live thread's, and the process is alive
 */
public record ProcStat(int pid, String comm, char state, int ppid, int pgrp, int session,
                       int numThreads, long startTicks, long rssPages, long cpuTicks, long flags, boolean leaderExited) {

    /** A stat as the file says it, of a process whose leader is alive or that is wholly gone. */
    public ProcStat(int pid, String comm, char state, int ppid, int pgrp, int session,
                    int numThreads, long startTicks, long rssPages, long cpuTicks, long flags) {
        this(pid, comm, state, ppid, pgrp, session, numThreads, startTicks, rssPages, cpuTicks, flags, false);
    }
    /** PF_EXITING: the process is on its way out (its memory may be gone before it is a zombie). */
    private static final long PF_EXITING = 0x4;
    /** PF_FORKNOEXEC: forked and not exec'd since: the process still runs its parent's program. */
    private static final long PF_FORKNOEXEC = 0x40;

    public ProcessIdentity identity() {
        return new ProcessIdentity(pid, startTicks);
    }

    public boolean isZombie() {
        return ProcessSample.zombieState(state);
    }

    /**
     * The stat says Z with threads besides the leader: the main thread may have ended while others
     * run (a zombie leader), which only /proc/PID/task tells. A true zombie counts one thread.
     */
    boolean mayHaveLiveThreads() {
        return state == 'Z' && numThreads > 1;
    }

    /** This process as its live thread {@code thread} shows it: alive, in that thread's state. */
    ProcStat livingAs(ProcStat thread) {
        return new ProcStat(pid, comm, thread.state, ppid, pgrp, session, numThreads, startTicks, thread.rssPages, cpuTicks,
                thread.flags, true);
    }

    public boolean isExiting() {
        return (flags & PF_EXITING) != 0;
    }

    public boolean isForkNoExec() {
        return (flags & PF_FORKNOEXEC) != 0;
    }

    /**
     * Reads one process's stat; empty when the process is gone (or never was). A process whose
     * leader exited reads as its live thread ({@link LiveThreads}).
     */
    public static Optional<ProcStat> read(Path procRoot, int pid) {
        Optional<ProcStat> stat = readFile(procRoot.resolve(Integer.toString(pid)).resolve("stat"));
        if (stat.isEmpty() || !stat.get().mayHaveLiveThreads()) return stat;
        return Optional.of(LiveThreads.of(procRoot, pid).map(stat.get()::livingAs).orElse(stat.get()));
    }

    static Optional<ProcStat> readFile(Path file) {
        try {
            byte[] bytes = Files.readAllBytes(file);
            return Optional.of(parse(bytes, bytes.length));
        } catch (IOException | IllegalArgumentException gone) {
            return Optional.empty();
        }
    }

    public static ProcStat parse(String line) {
        byte[] bytes = line.getBytes(StandardCharsets.ISO_8859_1);
        return parse(bytes, bytes.length);
    }

    /**
     * Parses the first {@code length} bytes of a stat line without splitting it into strings:
     * the scanner reads this for every process, tens of thousands of times a second.
     */
    public static ProcStat parse(byte[] line, int length) {
        int open = indexOf(line, length, (byte) '(');
        int close = lastIndexOf(line, length, (byte) ')');
        if (open < 1 || close < open || close + 2 >= length) throw new IllegalArgumentException("not a stat line");
        FieldCursor c = new FieldCursor(line, length, close + 2);
        int pid = (int) parseLong(line, 0, open - 1);
        String comm = new String(line, open + 1, close - open - 1, StandardCharsets.ISO_8859_1);
        char state = (char) line[c.start(3)];
        int ppid = (int) c.number(4);
        int pgrp = (int) c.number(5);
        int session = (int) c.number(6);
        long flags = c.number(9);
        long cpu = c.number(14) + c.number(15);
        int threads = (int) c.number(20);
        long start = c.number(22);
        long rss = c.number(24);
        return new ProcStat(pid, comm, state, ppid, pgrp, session, threads, start, rss, cpu, flags);
    }

    private static int indexOf(byte[] b, int length, byte x) {
        for (int i = 0; i < length; i++) if (b[i] == x) return i;
        return -1;
    }

    private static int lastIndexOf(byte[] b, int length, byte x) {
        for (int i = length - 1; i >= 0; i--) if (b[i] == x) return i;
        return -1;
    }

    /** A whole signed decimal in [from, to); anything else is not a stat line. */
    static long parseLong(byte[] b, int from, int to) {
        int i = from;
        boolean negative = i < to && b[i] == '-';
        if (negative) i++;
        if (i >= to) throw new IllegalArgumentException("empty number");
        long value = 0;
        for (; i < to; i++) {
            int digit = b[i] - '0';
            if (digit < 0 || digit > 9) throw new IllegalArgumentException("not a number");
            value = value * 10 + digit;
        }
        return negative ? -value : value;
    }

    /** Walks the space-separated fields after the name, forward only, by proc(5) number. */
    private static final class FieldCursor {
        private final byte[] b;
        private final int length;
        private int field = 3;
        private int pos;

        FieldCursor(byte[] b, int length, int firstFieldStart) {
            this.b = b;
            this.length = length;
            this.pos = firstFieldStart;
        }

        int start(int wanted) {
            while (field < wanted) {
                while (pos < length && b[pos] != ' ') pos++;
                if (pos >= length) throw new IllegalArgumentException("short stat line");
                pos++;
                field++;
            }
            if (pos >= length) throw new IllegalArgumentException("short stat line");
            return pos;
        }

        long number(int wanted) {
            int from = start(wanted);
            int to = from;
            while (to < length && b[to] != ' ' && b[to] != '\n') to++;
            return parseLong(b, from, to);
        }
    }
}
