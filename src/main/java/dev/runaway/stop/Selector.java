// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.model.ProcessIdentity;

/**
 * What a stop takes, by definition, kept live until zero is confirmed (docs/guided-stop.md):
 * a command key's group as {@code scan} shows it, a process or a chain's top with every
 * descendant (followed through parents that exited), or a cgroup and its subtree.
 */
public sealed interface Selector {
    /** Words for the plan's title: "/tmp/x/tool", "pid 4242", "cgroup /a/b". */
    String label();

    /**
     * Every process of this command key, and all below them; with a uid, only those whose real
     * uid it is (a guard's hold: one user's runaway, never another user's process of a shared
     * tool). A person who asks for a key gets every user's ({@code runaway stop --command}).
     */
    record Command(String key, java.util.OptionalInt uid) implements Selector {
        /** Every user's processes of this key. */
        public Command(String key) {
            this(key, java.util.OptionalInt.empty());
        }

        /** Only the processes of this key (and below them) whose real uid is UID. */
        public static Command ofUser(String key, int uid) {
            return new Command(key, java.util.OptionalInt.of(uid));
        }

        public String label() {
            return key;
        }

        /** Whether a process of this real uid may be a member. */
        public boolean admits(int realUid) {
            return uid.isEmpty() || uid.getAsInt() == realUid;
        }
    }

    /** This process (by pid and start time) and every descendant. */
    record Process(ProcessIdentity root) implements Selector {
        public String label() {
            return "pid " + root.pid();
        }
    }

    /** The chain whose top is this process: it and every descendant. */
    record Chain(ProcessIdentity top) implements Selector {
        public String label() {
            return "chain of pid " + top.pid();
        }
    }

    /** Every process in this v2 cgroup (as /proc/PID/cgroup prints it) and its subtree. */
    record Cgroup(String path) implements Selector {
        public String label() {
            return "cgroup " + path;
        }

        public boolean holds(String cgroup) {
            return cgroup.equals(path) || cgroup.startsWith(path + "/");
        }
    }

    /** The root of a process or chain selector, or null. */
    default ProcessIdentity rootProcess() {
        return this instanceof Process p ? p.root() : this instanceof Chain c ? c.top() : null;
    }
}
