// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.analysis.TargetSet;
import dev.runaway.model.ProcessSample;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Chooses how to stop growth for a target set: freeze their cgroup when it holds only them;
 * else revoke execute on their binaries when every one is disposable and none is a script run
 * by an interpreter (revoking a script does not stop {@code bash deploy.sh}); else move them
 * into a quarantine cgroup (root only); else a SIGSTOP sweep.
 */
public final class Planner {
    private final Disposable disposable;
    private final boolean root;
    private final int uid;

    public Planner(Disposable disposable, boolean root) {
        this(disposable, root, root ? 0 : dev.runaway.sys.LibC.INSTANCE.geteuid());
    }

    /** For a user {@code uid}; root needs no helper for anything. */
    public Planner(Disposable disposable, boolean root, int uid) {
        this.disposable = disposable;
        this.root = root;
        this.uid = uid;
    }

    public StopPlan plan(TargetSet set) {
        Map<Lever, String> applies = new EnumMap<>(Lever.class);
        Map<Lever, String> refused = new EnumMap<>(Lever.class);
        Optional<String> cgroup = set.cgroup().filter(c -> !ownCgroups().contains(c));
        if (cgroup.isPresent()) applies.put(Lever.FREEZE_CGROUP, "the cgroup " + cgroup.get() + " holds only the targets");
        else refused.put(Lever.FREEZE_CGROUP, set.cgroup().isPresent() ? "the cgroup holds this console too"
                : "no cgroup holds only the targets (they share one with other processes)");

        List<String> binaries = new ArrayList<>();
        String why = revokable(set.samples(), binaries);
        if (why == null) applies.put(Lever.REVOKE_EXEC, String.join(", ", binaries) + " disposable");
        else refused.put(Lever.REVOKE_EXEC, why);

        if (root) applies.put(Lever.QUARANTINE, "running as root");
        else refused.put(Lever.QUARANTINE, "needs the helper (root)");
        applies.put(Lever.SIGSTOP_SWEEP, "always possible");

        Lever chosen = Lever.SIGSTOP_SWEEP;
        for (Lever l : Lever.values()) {
            if (applies.containsKey(l)) {
                chosen = l;
                break;
            }
        }
        return new StopPlan(set.command(), set.samples(), cgroup, applies, refused, chosen,
                chosen == Lever.REVOKE_EXEC ? List.copyOf(binaries) : List.of(), privilege(set.samples(), chosen));
    }

    /** Whether the helper is needed: for processes that are not ours, or a cgroup we cannot write. */
    private String privilege(List<ProcessSample> targets, Lever chosen) {
        if (root) return "running as root: no helper needed";
        long others = targets.stream().filter(t -> t.uid() != uid).count();
        if (others > 0) {
            return "the helper is needed (root, through pkexec): " + others + " of the targets belong to other users";
        }
        if (chosen == Lever.FREEZE_CGROUP) return "your own processes; the cgroup is frozen through the helper if it is not writable";
        return "your own processes: no helper needed";
    }

    /** Null when every target's binary may be revoked; else why not (the first reason). */
    private String revokable(List<ProcessSample> targets, List<String> binaries) {
        if (targets.isEmpty()) return "no targets";
        Set<String> seen = new LinkedHashSet<>();
        for (ProcessSample t : targets) {
            // A zombie starts nothing, and its executable can no longer be read (init may be slow to reap it).
            if (t.state() == 'Z' || t.state() == 'X') continue;
            if (t.exe().isEmpty()) return "pid " + t.pid() + ": its executable cannot be read";
            String key = dev.runaway.analysis.CommandKeys.of(t);
            if (!key.equals(t.exe())) {
                return t.exe() + " runs " + key + ": a script started through an interpreter is not stopped by"
                        + " revoking execute on it";
            }
            if (seen.add(t.exe())) {
                Disposable.Verdict v = disposable.check(t.exe());
                if (!v.disposable()) return v.why();
                int owner = ownerOf(t.exe());
                if (!root && owner != uid) return t.exe() + " belongs to uid " + owner + ": changing its mode needs the helper";
            }
        }
        binaries.addAll(seen);
        return null;
    }

    private static int ownerOf(String file) {
        try {
            return (Integer) Files.getAttribute(Path.of(file), "unix:uid");
        } catch (java.io.IOException e) {
            return -1;
        }
    }

    /** This console's own cgroup and its ancestors: never frozen or killed. */
    private static Set<String> ownCgroups() {
        Set<String> own = new LinkedHashSet<>();
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/cgroup"))) {
                if (!line.startsWith("0::")) continue;
                Path p = Path.of(line.substring(3));
                for (Path at = p; at != null; at = at.getParent()) own.add(at.toString());
            }
        } catch (java.io.IOException e) {
            // unknown: nothing is excluded by it, the helper still refuses the console's cgroup
        }
        return own;
    }
}
