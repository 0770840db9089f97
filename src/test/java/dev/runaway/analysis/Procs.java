// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import dev.runaway.model.ProcessIdentity;
import dev.runaway.model.ProcessSample;
import dev.runaway.model.PulseSample;
import dev.runaway.model.ScanSample;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Hand-built samples for analysis tests: processes, scans and pulses at chosen times. */
final class Procs {
    static final long GIB = 1024L * 1024 * 1024;
    static final long MIB = 1024L * 1024;
    static final int PID_MAX = 32768;
    static final int THREADS_MAX = 100000;

    private Procs() {
    }

    static Builder proc(int pid, int ppid) {
        return new Builder(pid, ppid);
    }

    /** init, kthreadd and two kernel threads. */
    static List<ProcessSample> system() {
        List<ProcessSample> list = new ArrayList<>();
        list.add(proc(1, 0).exe("/usr/lib/systemd/systemd").args("/sbin/init", "splash").session(1).build());
        list.add(proc(2, 0).comm("kthreadd").session(0).build());
        list.add(proc(3, 2).comm("kworker/0:1").session(0).build());
        list.add(proc(4, 2).comm("ksoftirqd/0").session(0).build());
        return list;
    }

    /** The system, plus the given processes. */
    static List<ProcessSample> with(List<ProcessSample> more) {
        List<ProcessSample> list = system();
        list.addAll(more);
        return list;
    }

    static long nanos(double seconds) {
        return Math.round(seconds * 1e9);
    }

    static ScanSample scan(double seconds, List<ProcessSample> processes) {
        long nanos = nanos(seconds);
        return new ScanSample(Instant.EPOCH.plusNanos(nanos), nanos, List.copyOf(processes), true, 1_000_000);
    }

    static PulseSample pulse(double seconds, int tasks, long forks) {
        return pulse(seconds, tasks, forks, PID_MAX, THREADS_MAX, 8 * GIB);
    }

    static PulseSample pulse(double seconds, int tasks, long forks, int pidMax, int threadsMax, long availableBytes) {
        long nanos = nanos(seconds);
        return new PulseSample(Instant.EPOCH.plusNanos(nanos), nanos, tasks, forks, 16 * GIB, availableBytes,
                0, 0, Optional.empty(), pidMax, threadsMax);
    }

    static final class Builder {
        private final int pid;
        private final int ppid;
        private int pgrp;
        private int session;
        private long start;
        private char state = 'S';
        private String comm;
        private int threads = 1;
        private long rss = 4 * MIB;
        private List<String> cmdline = List.of();
        private String exe = "";
        private String cgroup = "/user.slice";
        private int uid;
        private boolean forkNoExec;

        private Builder(int pid, int ppid) {
            this.pid = pid;
            this.ppid = ppid;
            this.pgrp = pid;
            this.session = pid;
            this.start = 10_000L + pid;
        }

        Builder exe(String value) {
            exe = value;
            return this;
        }

        Builder args(String... values) {
            cmdline = List.of(values);
            return this;
        }

        /** A binary run by its path: exe and cmdline[0] both {@code path}. */
        Builder binary(String path, String... more) {
            exe = path;
            List<String> all = new ArrayList<>();
            all.add(path);
            all.addAll(List.of(more));
            cmdline = List.copyOf(all);
            return this;
        }

        Builder comm(String value) {
            comm = value;
            return this;
        }

        Builder session(int value) {
            session = value;
            return this;
        }

        Builder pgrp(int value) {
            pgrp = value;
            return this;
        }

        Builder start(long ticks) {
            start = ticks;
            return this;
        }

        Builder threads(int value) {
            threads = value;
            return this;
        }

        Builder rss(long bytes) {
            rss = bytes;
            return this;
        }

        Builder cgroup(String value) {
            cgroup = value;
            return this;
        }

        Builder state(char value) {
            state = value;
            return this;
        }

        /** Forked and not exec'd since (the kernel's PF_FORKNOEXEC). */
        Builder forkNoExec() {
            forkNoExec = true;
            return this;
        }

        Builder uid(int value) {
            uid = value;
            return this;
        }

        ProcessSample build() {
            String name = comm != null ? comm
                    : CommandKeys.baseName(!exe.isEmpty() ? exe : cmdline.isEmpty() ? "?" : cmdline.get(0));
            if (cmdline.isEmpty() && exe.isEmpty()) rss = 0;
            return new ProcessSample(new ProcessIdentity(pid, start), ppid, pgrp, session, state, name, threads, rss,
                    0, uid, cmdline, exe, cmdline.isEmpty() && exe.isEmpty() ? "/" : cgroup, false, forkNoExec);
        }
    }
}
