// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.guard;

import dev.runaway.procfs.Users;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * When the guard holds a group (docs/guard.md, "The policy"): the file {@code
 * /etc/runaway/guard.conf}, root's, {@code key = value} lines; what it leaves out keeps the
 * default. The defaults hold the runaways behind Runaway (a command recurring along one line and
 * still deepening; a group refused at its cap for 10 s; memory, pids or its cap gone within 5
 * minutes at its rate, for 10 s running) and leave a {@code make -j}, a browser, a test suite or
 * a burst of short-lived processes alone (tests prove it: docs/guard.md, "Never held").
 *
 * @param recursionDepth   a recursive group is held once one invocation of its key (the same command line in the
 *                         same directory) occurs more often than this along one line...
 * @param deepRecursionDepth ...or its key, whatever its arguments, more often than this: deeper than builds go
 * @param recursionWindow  ...and that line deepened within this window (wrappers nest, but do not keep nesting)
 * @param atCapFor         a group at its cap with forks refused this long, without a break
 * @param exhaustionWithin a group whose rate exhausts memory, pid_max, threads-max or its cgroup's cap this soon...
 * @param exhaustionFor    ...for this long without a break
 * @param minTasks         the at-cap and exhaustion rules ignore groups with fewer tasks (recursion has no minimum)
 * @param allowKeys        command keys never held
 * @param allowCgroups     cgroups (and their subtrees) never held
 * @param allowUsers       users (by uid) whose groups are never held
 * @param killAfter        a hold nobody answered for this long is stopped (killed to zero); empty: held until a person decides
 * @param notifyOwner      desktop notifications to the group's owner
 * @param watchCgroups     when not empty, only groups in these cgroups (and their subtrees) are ever held
 */
public record GuardPolicy(int recursionDepth, int deepRecursionDepth, Duration recursionWindow, Duration atCapFor, Duration exhaustionWithin,
                          Duration exhaustionFor, int minTasks, Set<String> allowKeys, List<String> allowCgroups,
                          Set<Integer> allowUsers, Optional<Duration> killAfter, boolean notifyOwner, List<String> watchCgroups) {
    public static final Path DEFAULT_FILE = Path.of("/etc/runaway/guard.conf");

    public static final GuardPolicy DEFAULTS = new GuardPolicy(5, dev.runaway.analysis.Analyzer.DEEPER_THAN_BUILDS, Duration.ofSeconds(10), Duration.ofSeconds(10),
            Duration.ofMinutes(5), Duration.ofSeconds(10), 100, Set.of(), List.of(), Set.of(), Optional.empty(), true, List.of());

    /** A line of the file that is not a setting of ours, with its number. */
    public static final class Invalid extends Exception {
        Invalid(String message) {
            super(message);
        }
    }

    /** The policy of a file: DEFAULTS when there is none; refused when another user than root could have written it. */
    public static GuardPolicy load(Path file) throws IOException, Invalid {
        PosixFileAttributes a;
        try {
            a = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException none) {
            return DEFAULTS;
        }
        Set<PosixFilePermission> p = a.permissions();
        if (!a.isRegularFile() || !a.owner().getName().equals("root") || p.contains(PosixFilePermission.GROUP_WRITE)
                || p.contains(PosixFilePermission.OTHERS_WRITE)) {
            throw new Invalid(file + " must be a regular file of root's that only root may write: it decides what is held");
        }
        return parse(Files.readAllLines(file));
    }

    /** Parses {@code key = value} lines; # starts a comment. */
    public static GuardPolicy parse(List<String> lines) throws Invalid {
        GuardPolicy g = DEFAULTS;
        Set<String> keys = new HashSet<>();
        List<String> cgroups = new ArrayList<>();
        List<String> watched = new ArrayList<>();
        Set<Integer> users = new HashSet<>();
        int n = 0;
        for (String raw : lines) {
            n++;
            String line = raw.contains("#") ? raw.substring(0, raw.indexOf('#')) : raw;
            if (line.isBlank()) continue;
            int eq = line.indexOf('=');
            if (eq < 0) throw new Invalid("line " + n + ": not 'key = value': " + raw.trim());
            String key = line.substring(0, eq).trim(), value = line.substring(eq + 1).trim();
            try {
                g = switch (key) {
                    case "recursion-depth" -> g.with(positive(value), null, null, null, null, -1);
                    case "deep-recursion-depth" -> new GuardPolicy(g.recursionDepth, positive(value), g.recursionWindow, g.atCapFor,
                            g.exhaustionWithin, g.exhaustionFor, g.minTasks, g.allowKeys, g.allowCgroups, g.allowUsers, g.killAfter,
                            g.notifyOwner, g.watchCgroups);
                    case "recursion-window" -> g.with(-1, duration(value), null, null, null, -1);
                    case "at-cap-for" -> g.with(-1, null, duration(value), null, null, -1);
                    case "exhaustion-within" -> g.with(-1, null, null, duration(value), null, -1);
                    case "exhaustion-for" -> g.with(-1, null, null, null, duration(value), -1);
                    case "min-tasks" -> g.with(-1, null, null, null, null, positive(value));
                    case "allow-key" -> {
                        keys.add(value);
                        yield g;
                    }
                    case "allow-cgroup" -> {
                        if (!value.startsWith("/")) throw new Invalid("a cgroup is written as /proc/PID/cgroup prints it: " + value);
                        cgroups.add(value);
                        yield g;
                    }
                    case "watch-cgroup" -> {
                        if (!value.startsWith("/")) throw new Invalid("a cgroup is written as /proc/PID/cgroup prints it: " + value);
                        watched.add(value);
                        yield g;
                    }
                    case "allow-user" -> {
                        users.add(uid(value));
                        yield g;
                    }
                    case "kill-after" -> new GuardPolicy(g.recursionDepth, g.deepRecursionDepth, g.recursionWindow, g.atCapFor, g.exhaustionWithin,
                            g.exhaustionFor, g.minTasks, g.allowKeys, g.allowCgroups, g.allowUsers,
                            value.equals("off") ? Optional.empty() : Optional.of(duration(value)), g.notifyOwner, g.watchCgroups);
                    case "notify" -> new GuardPolicy(g.recursionDepth, g.deepRecursionDepth, g.recursionWindow, g.atCapFor, g.exhaustionWithin,
                            g.exhaustionFor, g.minTasks, g.allowKeys, g.allowCgroups, g.allowUsers, g.killAfter, yesNo(value), g.watchCgroups);
                    default -> throw new Invalid("no setting '" + key + "'");
                };
            } catch (Invalid e) {
                throw new Invalid("line " + n + ": " + e.getMessage());
            }
        }
        return new GuardPolicy(g.recursionDepth, g.deepRecursionDepth, g.recursionWindow, g.atCapFor, g.exhaustionWithin, g.exhaustionFor, g.minTasks,
                Set.copyOf(keys), List.copyOf(cgroups), Set.copyOf(users), g.killAfter, g.notifyOwner, List.copyOf(watched));
    }

    private GuardPolicy with(int depth, Duration window, Duration atCap, Duration within, Duration forLong, int min) {
        return new GuardPolicy(depth < 0 ? recursionDepth : depth, deepRecursionDepth, window == null ? recursionWindow : window,
                atCap == null ? atCapFor : atCap, within == null ? exhaustionWithin : within,
                forLong == null ? exhaustionFor : forLong, min < 0 ? minTasks : min, allowKeys, allowCgroups, allowUsers,
                killAfter, notifyOwner, watchCgroups);
    }

    /** The same policy, holding only groups in these cgroups (tests: only their own sandboxes). */
    public GuardPolicy watchingOnly(List<String> cgroups) {
        return new GuardPolicy(recursionDepth, deepRecursionDepth, recursionWindow, atCapFor, exhaustionWithin, exhaustionFor, minTasks, allowKeys,
                allowCgroups, allowUsers, killAfter, notifyOwner, List.copyOf(cgroups));
    }

    /** Whether a group of this key, cgroup and owner is never held. */
    public boolean allows(String key, String cgroup, int uid) {
        if (allowKeys.contains(key) || allowUsers.contains(uid)) return true;
        for (String c : allowCgroups) if (within(cgroup, c)) return true;
        if (watchCgroups.isEmpty()) return false;
        for (String c : watchCgroups) if (within(cgroup, c)) return false;
        return true; // outside what it watches
    }

    private static boolean within(String cgroup, String c) {
        return cgroup.equals(c) || cgroup.startsWith(c.endsWith("/") ? c : c + "/");
    }

    /** The policy in words, one rule a line (for {@code --dry-run} and {@code --status}). */
    public List<String> describe() {
        List<String> out = new ArrayList<>();
        out.add("hold a group whose command recurs with the same arguments and directory more than " + recursionDepth
                + " times along one line, or with any more than " + deepRecursionDepth + ", and deepened in the last "
                + recursionWindow.toSeconds() + " s");
        out.add("hold a group of " + minTasks + "+ tasks refused at its cap for " + atCapFor.toSeconds() + " s");
        out.add("hold a group of " + minTasks + "+ tasks that exhausts memory, pid_max, threads-max or its cap within "
                + exhaustionWithin.toMinutes() + " min, for " + exhaustionFor.toSeconds() + " s");
        out.add("never: init, kernel threads, the guard and this console, the desktop and its login, sessions' services"
                + (allowKeys.isEmpty() ? "" : ", " + String.join(", ", allowKeys))
                + (allowCgroups.isEmpty() ? "" : ", cgroups " + String.join(", ", allowCgroups))
                + (allowUsers.isEmpty() ? "" : ", users " + allowUsers)
                + (watchCgroups.isEmpty() ? "" : "; and nothing outside cgroups " + String.join(", ", watchCgroups)));
        out.add("a hold is reversible (freeze or SIGSTOP, never a kill) and lasts until a person decides"
                + killAfter.map(d -> ", or " + words(d) + "; then it is stopped to zero").orElse(""));
        return out;
    }

    /** A duration as the policy's reader writes it: 3 s, 30 min, 2 h (90 s stays 90 s). */
    static String words(Duration d) {
        long s = d.toSeconds();
        if (s == 0 || d.toMillis() % 1000 != 0) return d.toMillis() + " ms";
        if (s % 3600 == 0) return s / 3600 + " h";
        if (s % 60 == 0) return s / 60 + " min";
        return s + " s";
    }

    private static int positive(String v) throws Invalid {
        try {
            int n = Integer.parseInt(v);
            if (n < 1) throw new NumberFormatException();
            return n;
        } catch (NumberFormatException e) {
            throw new Invalid("not a whole number above 0: " + v);
        }
    }

    /** 10s, 5m, 2h. */
    static Duration duration(String v) throws Invalid {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)\\s*(ms|s|m|h)").matcher(v);
        if (!m.matches()) throw new Invalid("not a duration (10s, 5m, 2h): " + v);
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            default -> Duration.ofHours(n);
        };
    }

    private static boolean yesNo(String v) throws Invalid {
        return switch (v) {
            case "yes", "true", "on" -> true;
            case "no", "false", "off" -> false;
            default -> throw new Invalid("yes or no: " + v);
        };
    }

    private static int uid(String v) throws Invalid {
        return Users.uidOf(v).orElseThrow(() -> new Invalid("no user " + v));
    }
}
