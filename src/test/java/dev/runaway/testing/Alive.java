// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.testing;

import dev.runaway.model.ProcessIdentity;
import dev.runaway.procfs.ProcStat;

import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Whether a process a test started still runs, read from /proc one way for every test. A
 * process that ended stays in /proc as a zombie until its parent (here often init, slowly)
 * reaps it, so a zombie counts as gone; a process whose leader exited while a thread runs
 * reads as that thread ({@link ProcStat#read}), so it counts as running; and given an
 * identity, a pid since reused by another process is not it.
 */
public final class Alive {
    private static final Path PROC = Path.of("/proc");

    private Alive() {
    }

    /** The process's stat while it runs; empty when it is gone or a zombie. */
    public static Optional<ProcStat> stat(int pid) {
        return ProcStat.read(PROC, pid).filter(s -> !s.isZombie());
    }

    /** This very process's stat while it runs (the pid with the same start time); empty when gone or a zombie. */
    public static Optional<ProcStat> stat(ProcessIdentity id) {
        return stat(id.pid()).filter(s -> s.startTicks() == id.startTicks());
    }

    public static boolean is(int pid) {
        return stat(pid).isPresent();
    }

    public static boolean is(ProcessIdentity id) {
        return stat(id).isPresent();
    }

    /** Those of {@code ids} that still run, in their order. */
    public static List<ProcessIdentity> of(Collection<ProcessIdentity> ids) {
        return ids.stream().filter(Alive::is).toList();
    }
}
