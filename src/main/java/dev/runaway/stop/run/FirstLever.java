// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.run;

import dev.runaway.stop.Selector;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What the static launcher step {@code runaway-rt --first-lever} did before this JVM started
 * (src/main/c/runaway-rt.c): for {@code runaway stop --command /KEY --yes} as root (or {@code
 * --pid}, {@code --chain}, {@code --cgroup}) it may have set pids.max 0 on the targets' cgroup
 * and frozen it, so that growth stopped before the JVM faulted in a single page; or it says why
 * it did not. Read from its RUNAWAY_FIRST_LEVER_*
 * variables, and only when they were set for this very process (the pid: runaway-rt, the
 * launcher and the JVM are one process, exec after exec), never a parent's inherited ones.
 *
 * @param cgroup     the frozen v2 cgroup (as /proc/PID/cgroup prints it); empty when refused
 * @param pidsMax    the pids.max file set to 0, empty when none was (the freeze alone then)
 * @param pidsOld    what that file held before
 * @param atMicros   when the freeze was written (CLOCK_REALTIME, microseconds); -1 when refused
 * @param members    the processes in the cgroup when it was frozen
 * @param unknown    members whose exe was not read when it decided (the read had not returned: mid-fork or mid-exec)
 * @param readers    the threads it read exe links on (8, more when reads stalled)
 * @param refused    why nothing was done; empty when frozen
 * @param phaseMillis how long each of its phases took
 * @param selector   the stop it froze for, as it read the arguments: empty when refused
 */
public record FirstLever(String cgroup, String pidsMax, String pidsOld, long atMicros, int members, int unknown, int readers, String refused,
                         Map<String, Long> phaseMillis, Optional<Selector> selector) {
    static final String PREFIX = "RUNAWAY_FIRST_LEVER_";

    public boolean frozen() {
        return refused.isEmpty() && !cgroup.isEmpty();
    }

    /** The lever runaway-rt left for this process, if it ran for it. */
    public static Optional<FirstLever> of(Map<String, String> env, long ownPid) {
        if (!Long.toString(ownPid).equals(env.get(PREFIX + "PID"))) return Optional.empty();
        Map<String, Long> phases = new LinkedHashMap<>();
        for (String pair : env.getOrDefault(PREFIX + "PHASES", "").split(",")) {
            int eq = pair.indexOf('=');
            if (eq > 0 && pair.substring(eq + 1).matches("\\d{1,12}")) phases.put(pair.substring(0, eq), Long.parseLong(pair.substring(eq + 1)));
        }
        String refused = env.getOrDefault(PREFIX + "REFUSED", "");
        String cgroup = env.getOrDefault(PREFIX + "CGROUP", "");
        long at = micros(env.get(PREFIX + "AT"));
        String pidsMax = env.getOrDefault(PREFIX + "PIDS_MAX", "");
        String pidsOld = env.getOrDefault(PREFIX + "PIDS_OLD", "");
        if (refused.isEmpty() && (!cgroup.startsWith("/") || at < 0)) refused = "runaway-rt left no usable record of its lever";
        // Only ever a cgroup's pids.max and a value it takes are written back.
        if (!pidsMax.isEmpty() && !(pidsMax.matches("/sys/fs/cgroup/[^\\n]+/pids\\.max") && !pidsMax.contains("/../")
                && pidsOld.matches("max|\\d{1,9}"))) {
            refused = "runaway-rt left a pids.max record that is not one: " + pidsMax;
        }
        Optional<Selector> selector = selector(env.getOrDefault(PREFIX + "SELECTOR", ""));
        if (refused.isEmpty() && selector.isEmpty()) refused = "runaway-rt did not say which stop it froze for";
        return Optional.of(new FirstLever(refused.isEmpty() ? cgroup : "", pidsMax, pidsOld, refused.isEmpty() ? at : -1, count(env.get(PREFIX + "MEMBERS")),
                count(env.get(PREFIX + "UNKNOWN")), count(env.get(PREFIX + "READERS")), refused, phases, refused.isEmpty() ? selector : Optional.empty()));
    }

    /**
     * The stop runaway-rt froze for: {@code command:/KEY}, {@code cgroup:/PATH}, {@code
     * pid:PID:START} or {@code chain:PID:START} (the root's start time as it read it, so a root
     * that exits before this JVM reads it is still the same root).
     */
    static Optional<Selector> selector(String text) {
        int colon = text.indexOf(':');
        if (colon < 0) return Optional.empty();
        String kind = text.substring(0, colon);
        String rest = text.substring(colon + 1);
        if (kind.equals("command") && rest.startsWith("/")) return Optional.of(new Selector.Command(rest));
        if (kind.equals("cgroup") && rest.startsWith("/")) return Optional.of(new Selector.Cgroup(rest));
        if ((kind.equals("pid") || kind.equals("chain")) && rest.matches("[1-9]\\d{0,8}:\\d{1,19}")) {
            String[] f = rest.split(":");
            var root = new dev.runaway.model.ProcessIdentity(Integer.parseInt(f[0]), Long.parseLong(f[1]));
            return Optional.of(kind.equals("pid") ? new Selector.Process(root) : new Selector.Chain(root));
        }
        return Optional.empty();
    }

    /** seconds.microseconds, as runaway-rt and bash's EPOCHREALTIME write it; -1 when not that. */
    static long micros(String text) {
        if (text == null || !text.matches("\\d{1,12}\\.\\d{6}")) return -1;
        return Long.parseLong(text.substring(0, text.length() - 7)) * 1_000_000 + Long.parseLong(text.substring(text.length() - 6));
    }

    private static int count(String text) {
        return text != null && text.matches("\\d{1,9}") ? Integer.parseInt(text) : 0;
    }
}
