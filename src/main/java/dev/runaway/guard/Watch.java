// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.guard;

import dev.runaway.analysis.Group;
import dev.runaway.analysis.Snapshot;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToIntFunction;

/**
 * The policy applied to a stream of snapshots: which groups cross its line now, and why. A state
 * (at a cap, heading for exhaustion) counts once it lasted the policy's time, and a gap of up
 * to {@link #GRACE_SECONDS} does not break it (a runaway that backs off between refused forks
 * is still at its cap). Never a group of init, kernel threads, this process, or the desktop's
 * and login's own programs, nor what the policy allows.
 */
public final class Watch {
    static final double GRACE_SECONDS = 2;
    /** Programs a hold would take the machine's face or its way in from: never held, whatever they do. */
    static final Set<String> NEVER = Set.of("systemd", "init", "Xorg", "Xwayland", "gnome-shell", "kwin_x11", "kwin_wayland",
            "plasmashell", "mutter", "sshd", "login", "agetty", "dbus-daemon", "dbus-broker", "pipewire", "wireplumber",
            "pulseaudio", "gdm", "gdm3", "sddm", "lightdm", "polkitd", "journald", "systemd-journald", "Xvfb", "tmux", "screen");

    /** A group that crossed the line. */
    public record Verdict(Group group, GuardRule rule, String why) {
    }

    private static final class Seen {
        int repeats = -1; // not seen yet: a line found deep at first sight has not been seen deepening
        int identical = -1;
        double deepenedAt = Double.NEGATIVE_INFINITY;
        double atCapSince = Double.NaN, atCapLast = Double.NaN;
        double exhaustingSince = Double.NaN, exhaustingLast = Double.NaN;
    }

    private final GuardPolicy policy;
    private final ToIntFunction<Group> ownerOf;
    private final java.util.function.Function<Group, String> cgroupOf;
    private final Map<String, Seen> seen = new HashMap<>();

    /** @param ownerOf the uid a group's processes run as (-1 unknown) */
    public Watch(GuardPolicy policy, ToIntFunction<Group> ownerOf) {
        this(policy, ownerOf, Group::cgroup);
    }

    /**
     * @param ownerOf  the uid of the runaway a group that crossed the line is (-1 unknown): a key
     *                 of a shared tool spans users, and the policy is asked of its runaway's
     * @param cgroupOf the cgroup that runaway is in ("" when spread)
     */
    public Watch(GuardPolicy policy, ToIntFunction<Group> ownerOf, java.util.function.Function<Group, String> cgroupOf) {
        this.policy = policy;
        this.ownerOf = ownerOf;
        this.cgroupOf = cgroupOf;
    }

    /** The groups of this snapshot that cross the policy's line, worst rule first for each. */
    public List<Verdict> observe(Snapshot snapshot) {
        double now = snapshot.monotonicNanos() / 1e9;
        List<Verdict> out = new ArrayList<>();
        Set<String> present = new HashSet<>();
        for (Group g : snapshot.groups()) {
            present.add(g.command());
            Seen s = seen.computeIfAbsent(g.command(), k -> new Seen());
            if (s.repeats >= 0 && (g.repeats() > s.repeats || g.identicalRepeats() > s.identical)) s.deepenedAt = now;
            s.repeats = g.repeats();
            s.identical = g.identicalRepeats();
            boolean atCap = g.atCap();
            if (atCap) {
                if (Double.isNaN(s.atCapSince) || now - s.atCapLast > GRACE_SECONDS) s.atCapSince = now;
                s.atCapLast = now;
            }
            boolean exhausting = g.secondsToExhaustion().isPresent() && g.secondsToExhaustion().getAsDouble() < policy.exhaustionWithin().toSeconds();
            if (exhausting) {
                if (Double.isNaN(s.exhaustingSince) || now - s.exhaustingLast > GRACE_SECONDS) s.exhaustingSince = now;
                s.exhaustingLast = now;
            }
            if (neverHeld(g)) continue;
            int before = out.size();
            boolean deepening = now - s.deepenedAt <= policy.recursionWindow().toSeconds();
            // The counts are the analysis's (Recursion), the depths the policy's: at the defaults
            // each rule holds only what the console marks recursive (Analyzer#recursive).
            if (deepening && g.identicalRepeats() > policy.recursionDepth()) {
                out.add(new Verdict(g, GuardRule.GROWING_RECURSION, "its command recurs " + g.identicalRepeats()
                        + " times along one line with the same arguments and directory (" + String.join(", ", g.cycle())
                        + ") and is still deepening (policy: more than " + policy.recursionDepth() + ")"));
            } else if (deepening && g.repeats() > policy.deepRecursionDepth()) {
                out.add(new Verdict(g, GuardRule.GROWING_RECURSION, "its command recurs " + g.repeats() + " times along one line ("
                        + String.join(", ", g.cycle()) + "), deeper than builds go, and is still deepening (policy: more than "
                        + policy.deepRecursionDepth() + ")"));
            } else if (g.tasks() >= policy.minTasks() && atCap && now - s.atCapSince >= policy.atCapFor().toSeconds()) {
                out.add(new Verdict(g, GuardRule.AT_CAP, "at its cap" + g.cap().map(c -> " (" + c.limit() + " " + c.value() + ")").orElse("")
                        + " with forks refused for " + Math.round(now - s.atCapSince) + " s (policy: " + policy.atCapFor().toSeconds() + " s)"));
            } else if (g.tasks() >= policy.minTasks() && exhausting && now - s.exhaustingSince >= policy.exhaustionFor().toSeconds()) {
                out.add(new Verdict(g, GuardRule.EXHAUSTION, "at its rate " + g.exhaustedBy() + " runs out in "
                        + Math.round(g.secondsToExhaustion().getAsDouble()) + " s (policy: within " + policy.exhaustionWithin().toMinutes()
                        + " min, for " + policy.exhaustionFor().toSeconds() + " s)"));
            }
            // Asked only of a group that crossed the line: whose runaway it is takes reading.
            if (out.size() > before && policy.allows(g.command(), cgroupOf.apply(g), ownerOf.applyAsInt(g))) out.remove(out.size() - 1);
        }
        seen.keySet().retainAll(present);
        return out;
    }

    private boolean neverHeld(Group g) {
        if (g.self() || g.pids().contains(1) || g.cgroup().equals("/init.scope")) return true;
        String key = g.command();
        String name = key.substring(key.lastIndexOf('/') + 1);
        if (name.contains(" ")) name = name.substring(0, name.indexOf(' '));
        if (NEVER.contains(name) && systemPath(key)) return true;
        return key.startsWith("["); // [kworker] and the like: kernel threads
    }

    /**
     * Where only root installs programs: a name alone is anyone's to take (a user's recursing
     * /tmp/u/tmux or ~/bin/sshd was never held), a file below these directories is not.
     */
    private static boolean systemPath(String key) {
        for (String root : SYSTEM_DIRS) if (key.startsWith(root)) return true;
        return false;
    }

    private static final List<String> SYSTEM_DIRS = List.of("/usr/bin/", "/usr/sbin/", "/usr/lib/", "/usr/libexec/", "/bin/", "/sbin/",
            "/lib/", "/lib64/");
}
