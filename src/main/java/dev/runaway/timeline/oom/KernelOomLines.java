// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline.oom;

import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The kernel's OOM report, line by line (mm/oom_kill.c, mm/memcontrol.c). One kill prints, in
 * this order: "COMM invoked oom-killer: gfp_mask=...", a stack, for a memory cgroup
 * "memory: usage 65536kB, limit 65536kB, failcnt 0", the task table, then (4.19 and later)
 * "oom-kill:constraint=CONSTRAINT_MEMCG,...,oom_memcg=/a,task_memcg=/a,task=COMM,pid=1234,uid=0"
 * and last "Memory cgroup out of memory: Killed process 1234 (COMM) total-vm:...kB, ...". The
 * header up to the oom-kill line is rate-limited, so in a storm (1,392 kills in four hours)
 * many kills print only the "Killed process" line: that line alone makes an event.
 *
 * <p>COMM may hold spaces, commas and parentheses ("Web Content", "(sd-pam)"), so it is cut at
 * the last ") total-vm:" and at the last ",pid=", not at the first delimiter.
 */
final class KernelOomLines {
    private static final Pattern KILLED = Pattern.compile(
            "(?:(Memory cgroup out of memory|Out of memory(?: \\([a-z_]+\\))?): )?Killed process (\\d{1,10}) \\((.*)", Pattern.DOTALL);
    private static final Pattern FIELD = Pattern.compile("(total-vm|anon-rss|file-rss|shmem-rss):(\\d{1,15})kB");
    private static final Pattern SUMMARY_END = Pattern.compile(",pid=(\\d{1,10}),uid=(\\d{1,10})\\s*$");
    private static final Pattern OLD_MEMCG = Pattern.compile("Task in (\\S+) killed as a result of limit of (\\S+)\\s*");
    private static final Pattern MEMCG_USAGE = Pattern.compile("memory: usage (\\d{1,15})kB, limit (\\d{1,15})kB, failcnt \\d+\\s*");
    /** Limits above this are "no limit" (v1 prints 9007199254740988kB). */
    private static final long NO_LIMIT_KB = 1L << 50;

    /** "[REASON: ]Killed process PID (COMM) total-vm:..." */
    record Killed(String reason, int pid, String command, long totalVmBytes, long anonRssBytes, long fileRssBytes,
                  long shmemRssBytes) {
    }

    /** The oom-kill summary line (or, before 4.19, "Task in A killed as a result of limit of B"). */
    record Summary(String constraint, String limitCgroup, String taskCgroup, String task, int pid) {
    }

    private KernelOomLines() {
    }

    static boolean isReportStart(String text) {
        return text.contains(" invoked oom-killer: ");
    }

    static Optional<Killed> killed(String text) {
        Matcher m = KILLED.matcher(text);
        if (!m.matches()) return Optional.empty();
        String rest = m.group(3);
        int close = rest.lastIndexOf(") total-vm:");
        if (close < 0) close = rest.lastIndexOf(')');
        if (close < 0) return Optional.empty(); // torn inside the name
        long[] kb = {-1, -1, -1, -1};
        Matcher f = FIELD.matcher(rest.substring(close + 1));
        while (f.find()) {
            int at = switch (f.group(1)) {
                case "total-vm" -> 0;
                case "anon-rss" -> 1;
                case "file-rss" -> 2;
                default -> 3;
            };
            kb[at] = Long.parseLong(f.group(2));
        }
        try {
            return Optional.of(new Killed(m.group(1) == null ? "" : m.group(1), Integer.parseInt(m.group(2)),
                    rest.substring(0, close), bytes(kb[0]), bytes(kb[1]), bytes(kb[2]), bytes(kb[3])));
        } catch (NumberFormatException tooBig) {
            return Optional.empty();
        }
    }

    static Optional<Summary> summary(String text) {
        Matcher old = OLD_MEMCG.matcher(text);
        if (old.matches()) return Optional.of(new Summary("CONSTRAINT_MEMCG", old.group(2), old.group(1), "", -1));
        if (!text.startsWith("oom-kill:constraint=")) return Optional.empty();
        Matcher end = SUMMARY_END.matcher(text);
        if (!end.find()) return Optional.empty();
        int pidAt = end.start();
        int comma = text.indexOf(',');
        if (comma < 0 || comma > pidAt) return Optional.empty();
        String constraint = text.substring("oom-kill:constraint=".length(), comma);
        int taskMemcg = text.indexOf(",task_memcg=");
        int taskAt = text.indexOf(",task=", Math.max(0, taskMemcg));
        if (taskAt < 0 || taskAt > pidAt) return Optional.empty();
        int oomMemcg = text.indexOf(",oom_memcg=");
        String limit = oomMemcg < 0 ? "" : text.substring(oomMemcg + ",oom_memcg=".length(), taskMemcg > oomMemcg ? taskMemcg : taskAt);
        String task = taskMemcg < 0 ? "" : text.substring(taskMemcg + ",task_memcg=".length(), taskAt);
        try {
            return Optional.of(new Summary(constraint, limit, task, text.substring(taskAt + ",task=".length(), pidAt),
                    Integer.parseInt(end.group(1))));
        } catch (NumberFormatException tooBig) {
            return Optional.empty();
        }
    }

    /** The memory cgroup's limit from "memory: usage 65536kB, limit 65536kB, failcnt 0". */
    static OptionalLong memcgLimitBytes(String text) {
        Matcher m = MEMCG_USAGE.matcher(text);
        if (!m.matches()) return OptionalLong.empty();
        try {
            long kb = Long.parseLong(m.group(2));
            return kb >= NO_LIMIT_KB ? OptionalLong.empty() : OptionalLong.of(kb * 1024);
        } catch (NumberFormatException tooBig) {
            return OptionalLong.empty();
        }
    }

    private static long bytes(long kb) {
        return kb < 0 ? OomEvent.UNKNOWN : kb * 1024;
    }
}
