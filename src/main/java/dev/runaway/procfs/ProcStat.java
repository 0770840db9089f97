package dev.runaway.procfs;

import dev.runaway.model.ProcessIdentity;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The fields of /proc/PID/stat that Runaway uses, numbered as in proc(5). The command name
 * (field 2) may hold spaces and parentheses, so the line is split at the last ')'.
 */
public record ProcStat(int pid, String comm, char state, int ppid, int pgrp, int session,
                       int numThreads, long startTicks, long rssPages) {

    public ProcessIdentity identity() {
        return new ProcessIdentity(pid, startTicks);
    }

    public boolean isZombie() {
        return state == 'Z' || state == 'X';
    }

    /** Reads one process's stat; empty when the process is gone (or never was). */
    public static Optional<ProcStat> read(Path procRoot, int pid) {
        try {
            byte[] bytes = Files.readAllBytes(procRoot.resolve(Integer.toString(pid)).resolve("stat"));
            return Optional.of(parse(new String(bytes, StandardCharsets.ISO_8859_1)));
        } catch (IOException | IllegalArgumentException gone) {
            return Optional.empty();
        }
    }

    public static ProcStat parse(String line) {
        int open = line.indexOf('(');
        int close = line.lastIndexOf(')');
        if (open < 0 || close < open || close + 2 > line.length()) {
            throw new IllegalArgumentException("not a stat line: " + line);
        }
        int pid = Integer.parseInt(line.substring(0, open).trim());
        String comm = line.substring(open + 1, close);
        // After ") " the fields start at number 3 (state); index i holds field i + 3.
        String[] f = line.substring(close + 2).trim().split(" ");
        if (f.length < 22) throw new IllegalArgumentException("short stat line: " + line);
        return new ProcStat(pid, comm, f[0].charAt(0), Integer.parseInt(f[1]), Integer.parseInt(f[2]),
                Integer.parseInt(f[3]), Integer.parseInt(f[17]), Long.parseLong(f[19]), Long.parseLong(f[21]));
    }
}
