// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.act;

import dev.runaway.stop.StopException;
import dev.runaway.stop.helper.HelperBinding;
import dev.runaway.model.ProcessIdentity;

import java.util.Set;

/**
 * What the engine can do to processes and cgroups: the {@link Actuator} on a real machine (as
 * the user first, the helper on EPERM), a fake in the engine's unit tests. Every action that
 * cannot be done throws {@link StopException} with the reason.
 */
public interface Actions {
    Pidfd.Result signal(ProcessIdentity id, int signal) throws StopException;

    void freeze(String cgroup, boolean frozen) throws StopException;

    boolean isFrozen(String cgroup);

    void killCgroup(String cgroup) throws StopException;

    /** Members of a cgroup and its children, from the kernel. */
    Set<Integer> members(String cgroup);

    /** Whether the cgroup or a child holds any process: cheaper than {@link #members} where the kernel keeps the flag. */
    default boolean populated(String cgroup) {
        return !members(cgroup).isEmpty();
    }

    /** Makes a frozen quarantine cgroup; returns its path. */
    String quarantine(String name) throws StopException;

    /** Moves one process (checked by start time) into the quarantine; false when it is gone. */
    boolean move(String quarantine, ProcessIdentity id) throws StopException;

    void release(String quarantine) throws StopException;

    /**
     * Sets pids.max to 0 on the pids cgroup of this cgroup (v2, or the v1 pids hierarchy's) when
     * that holds nothing but this cgroup's members: from then no fork in it succeeds, at once,
     * whereas a freeze waits for every task to be scheduled once. Returns false when there is no
     * such pids cgroup or it cannot be written (no helper verb does this: as you only).
     */
    default boolean capPids(String cgroup) {
        return false;
    }

    /**
     * Takes over a pids.max set to 0 before this process started (runaway-rt's first lever):
     * {@link #uncapPids} then puts OLD back into FILE.
     */
    default void adoptPidsCap(String cgroup, String file, String old) {
    }

    /** Puts back the pids.max {@link #capPids} changed. */
    default void uncapPids(String cgroup) {
    }

    /** Takes the execute bits off; returns the old mode. */
    int revoke(String file) throws StopException;

    void restore(String file, int mode) throws StopException;

    /** The stop the user confirmed: a helper, when one is asked, acts on this set only (docs/helper-protocol.md, BIND). */
    default void bind(HelperBinding confirmed) {
    }

    /** The stop is over: the helper forgets its set. */
    default void unbind() {
    }
}
