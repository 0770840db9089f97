// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import dev.runaway.model.ProcessIdentity;

import java.util.List;

/**
 * A chain: a maximal linear run of processes, each the only child of the one before, where a
 * link may run through a parent that has exited (remembered by {@link Lineage}); or the
 * processes of a session whose leader exited, when nothing else links them (order unknown).
 *
 * @param root      its topmost living process
 * @param depth     living processes in it
 * @param tasks     tasks (threads) of those processes
 * @param commands  the command keys in it, from the top
 * @param pids      every living member, from the top
 */
public record Chain(ProcessIdentity root, int depth, int tasks, List<String> commands, List<Integer> pids) {
    public int rootPid() {
        return root.pid();
    }
}
