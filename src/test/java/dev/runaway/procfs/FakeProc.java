// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A fake /proc in a temporary folder, for tests: per-process {@code stat}, {@code cmdline},
 * {@code exe} and {@code cgroup}, and the machine-wide files the pulse reads. Nothing here starts
 * a process or touches the real /proc.
 */
public final class FakeProc {
    private final Path root;

    public FakeProc(Path root) {
        this.root = root;
        try {
            Files.createDirectories(root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Path root() {
        return root;
    }

    public ProcReader reader() {
        return new ProcReader(root);
    }

    /** A process to describe; nothing is written until {@link Process#write()}. */
    public Process process(int pid, int ppid, String comm) {
        return new Process(pid, ppid, comm);
    }

    /** Removes a process's directory: the process has exited and been reaped. */
    public FakeProc remove(int pid) {
        deleteTree(root.resolve(Integer.toString(pid)));
        return this;
    }

    /** A process directory without any file in it (listed, but its stat is already gone). */
    public FakeProc emptyDir(int pid) {
        try {
            Files.createDirectories(root.resolve(Integer.toString(pid)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** Deletes one file of a process, leaving its directory listed. */
    public FakeProc removeFile(int pid, String name) {
        try {
            Files.deleteIfExists(root.resolve(pid + "/" + name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    public FakeProc loadavg(String text) {
        return file("loadavg", text);
    }

    /** /proc/stat, the machine-wide one. */
    public FakeProc stat(String text) {
        return file("stat", text);
    }

    /** /proc/pressure/memory. */
    public FakeProc pressure(String text) {
        return file("pressure/memory", text);
    }

    public FakeProc pidMax(int value) {
        return file("sys/kernel/pid_max", value + "\n");
    }

    public FakeProc threadsMax(int value) {
        return file("sys/kernel/threads-max", value + "\n");
    }

    /** Any file below the root. */
    public FakeProc file(String relative, String text) {
        try {
            Path file = root.resolve(relative);
            Files.createDirectories(file.getParent());
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /**
     * The non-process entries a real /proc has at its top: {@code self} and {@code thread-self}
     * symlinks, {@code sys}, {@code acpi}, {@code pressure} folders and plain files such as
     * {@code loadavg}, plus a few names that only look numeric at first.
     */
    public FakeProc nonProcessEntries() {
        try {
            symlink(root.resolve("self"), "4242");
            symlink(root.resolve("thread-self"), "4242/task/4242");
            Files.createDirectories(root.resolve("sys/kernel"));
            Files.createDirectories(root.resolve("acpi"));
            Files.createDirectories(root.resolve("pressure"));
            Files.createDirectories(root.resolve("12abc"));
            Files.createDirectories(root.resolve("-5"));
            Files.createDirectories(root.resolve("0"));
            if (!Files.exists(root.resolve("loadavg"))) loadavg("0.00 0.00 0.00 1/1 1\n");
            Files.writeString(root.resolve("meminfo"), "MemTotal: 1 kB\n");
            Files.writeString(root.resolve("uptime"), "1.00 1.00\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** Every name at the top of the fake /proc, sorted, processes and everything else. */
    List<String> listing() {
        try (Stream<Path> s = Files.list(root)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A full 52-field stat line, numbered as in proc(5): 1 pid, 2 (comm), 3 state, 4 ppid,
     * 5 pgrp, 6 session, 14 utime, 15 stime, 20 num_threads, 22 starttime, 24 rss; the other
     * fields hold realistic, distinct values so an off-by-one shows.
     */
    public static String statLine(int pid, String comm, char state, int ppid, int pgrp, int session, long utime,
                           long stime, int threads, long startTicks, long rssPages) {
        return statLine(pid, comm, state, ppid, pgrp, session, utime, stime, threads, startTicks, rssPages, 4194560L);
    }

    /** The same, with the kernel's PF_* flags (field 9) given. */
    public static String statLine(int pid, String comm, char state, int ppid, int pgrp, int session, long utime,
                           long stime, int threads, long startTicks, long rssPages, long flags) {
        List<String> f = new ArrayList<>(52);
        f.add(Integer.toString(pid));              // 1 pid
        f.add("(" + comm + ")");                   // 2 comm
        f.add(Character.toString(state));          // 3 state
        f.add(Integer.toString(ppid));             // 4 ppid
        f.add(Integer.toString(pgrp));             // 5 pgrp
        f.add(Integer.toString(session));          // 6 session
        f.add("34817");                            // 7 tty_nr
        f.add("-1");                               // 8 tpgid
        f.add(Long.toString(flags));               // 9 flags
        f.add("1811");                             // 10 minflt
        f.add("0");                                // 11 cminflt
        f.add("3");                                // 12 majflt
        f.add("0");                                // 13 cmajflt
        f.add(Long.toString(utime));               // 14 utime
        f.add(Long.toString(stime));               // 15 stime
        f.add("9");                                // 16 cutime
        f.add("8");                                // 17 cstime
        f.add("20");                               // 18 priority
        f.add("0");                                // 19 nice
        f.add(Integer.toString(threads));          // 20 num_threads
        f.add("0");                                // 21 itrealvalue
        f.add(Long.toString(startTicks));          // 22 starttime
        f.add("987654321");                        // 23 vsize
        f.add(Long.toString(rssPages));            // 24 rss
        f.add("18446744073709551615");             // 25 rsslim
        f.add("94567796215808");                   // 26 startcode
        f.add("94567796235689");                   // 27 endcode
        f.add("140737120236160");                  // 28 startstack
        f.add("0");                                // 29 kstkesp
        f.add("0");                                // 30 kstkeip
        f.add("0");                                // 31 signal
        f.add("65536");                            // 32 blocked
        f.add("3670020");                          // 33 sigignore
        f.add("1266777851");                       // 34 sigcatch
        f.add("1");                                // 35 wchan
        f.add("0");                                // 36 nswap
        f.add("0");                                // 37 cnswap
        f.add("17");                               // 38 exit_signal
        f.add("2");                                // 39 processor
        f.add("0");                                // 40 rt_priority
        f.add("0");                                // 41 policy
        f.add("0");                                // 42 delayacct_blkio_ticks
        f.add("0");                                // 43 guest_time
        f.add("0");                                // 44 cguest_time
        f.add("94567796251696");                   // 45 start_data
        f.add("94567796253312");                   // 46 end_data
        f.add("94568142004224");                   // 47 start_brk
        f.add("140737120238287");                  // 48 arg_start
        f.add("140737120238307");                  // 49 arg_end
        f.add("140737120238307");                  // 50 env_start
        f.add("140737120239595");                  // 51 env_end
        f.add("0");                                // 52 exit_code
        if (f.size() != 52) throw new IllegalStateException("stat line has " + f.size() + " fields");
        return String.join(" ", f) + "\n";
    }

    /** One process's files; change the fields and call {@link #write()} again to rewrite them. */
    public final class Process {
        private final int pid;
        private int ppid;
        private String comm;
        private int pgrp;
        private int session;
        private long startTicks;
        private long flags = 4194560L;
        private int threads = 1;
        private long rssPages = 100;
        private long utime = 5;
        private long stime = 2;
        private char state = 'S';
        private List<String> cmdline = List.of();
        private String exe;
        private String cgroup = "/";

        private Process(int pid, int ppid, String comm) {
            this.pid = pid;
            this.ppid = ppid;
            this.comm = comm;
            this.pgrp = pid;
            this.session = pid;
            this.startTicks = 1000L + pid;
        }

        int pid() {
            return pid;
        }

        public Process ppid(int value) {
            ppid = value;
            return this;
        }

        /** Forked and not exec'd since (PF_FORKNOEXEC in stat's flags), or exec'd. */
        public Process forkNoExec(boolean value) {
            flags = value ? flags | 0x40 : flags & ~0x40L;
            return this;
        }

        public Process comm(String value) {
            comm = value;
            return this;
        }

        public Process session(int value) {
            session = value;
            return this;
        }

        public Process pgrp(int value) {
            pgrp = value;
            return this;
        }

        public Process start(long ticks) {
            startTicks = ticks;
            return this;
        }

        public Process threads(int value) {
            threads = value;
            return this;
        }

        public Process rssPages(long value) {
            rssPages = value;
            return this;
        }

        public Process cpu(long user, long system) {
            utime = user;
            stime = system;
            return this;
        }

        public Process state(char value) {
            state = value;
            return this;
        }

        /** Written NUL-separated with a trailing NUL, as the kernel does; none: a kernel thread. */
        public Process cmdline(String... args) {
            cmdline = List.of(args);
            return this;
        }

        /** The target of the exe symlink (need not exist); null: no link (unreadable). */
        public Process exe(String target) {
            exe = target;
            return this;
        }

        /** The v2 path, written as {@code 0::PATH}. */
        public Process cgroup(String v2Path) {
            cgroup = v2Path;
            return this;
        }

        String statLine() {
            return FakeProc.statLine(pid, comm, state, ppid, pgrp, session, utime, stime, threads, startTicks, rssPages, flags);
        }

        /** Writes (or rewrites) stat, cmdline, exe and cgroup. */
        public Process write() {
            try {
                Path dir = root.resolve(Integer.toString(pid));
                Files.createDirectories(dir);
                Files.writeString(dir.resolve("stat"), statLine(), StandardCharsets.ISO_8859_1);
                StringBuilder args = new StringBuilder();
                for (String a : cmdline) args.append(a).append('\0');
                Files.writeString(dir.resolve("cmdline"), args, StandardCharsets.UTF_8);
                Path link = dir.resolve("exe");
                Files.deleteIfExists(link);
                if (exe != null) symlink(link, exe);
                Files.writeString(dir.resolve("cgroup"), "0::" + cgroup + "\n", StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return this;
        }
    }

    private static void symlink(Path link, String target) throws IOException {
        if (Files.exists(link, LinkOption.NOFOLLOW_LINKS)) Files.delete(link);
        Files.createSymbolicLink(link, Path.of(target));
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) return;
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
