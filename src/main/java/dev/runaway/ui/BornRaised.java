// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import dev.runaway.model.ProcessIdentity;
import dev.runaway.sys.AllThreadsRaise;
import dev.runaway.sys.Sched;

import java.util.Optional;

/**
 * A console started ahead of ordinary tasks: as root, the package's launcher (runaway-rt) starts
 * the console's JVM real-time, as it does a scan or a stop, so that a console opened during a
 * fire paints and names the runaway without waiting its turn behind every runnable task of it
 * (at 20,000 pressing tasks an ordinary console named it after 13-102 s, or not at all). Its X
 * server is raised from the start too: the toolkit's first round trips wait on it. Neither stays
 * so: at the window's first scan status the threads that inherited the start's policy and the X
 * server go back to ordinary (the scans' threads keep the raise they take as root anyway), and
 * {@link OverloadRaise} raises them again only while the machine is overloaded.
 */
final class BornRaised {
    private static boolean born;
    private static AllThreadsRaise display;

    private BornRaised() {
    }

    /** Before the toolkit starts: whether this process was started real-time; if so the X server is raised with it. */
    static synchronized boolean atStart(Optional<ProcessIdentity> server) {
        born = System.getenv("RUNAWAY_REALTIME_AT") != null && !Sched.ordinary(0);
        if (born) display = server.map(id -> AllThreadsRaise.ofProcess(id.pid(), () -> DisplayServer.stillRuns(id))).orElse(null);
        return born;
    }

    /** Once, on the JavaFX thread: a console started real-time lowers itself and its X server; true when it was. */
    static synchronized boolean handOver() {
        if (!born) return false;
        born = false;
        int lowered = AllThreadsRaise.lowerInherited();
        boolean server = display != null && display.changedAny();
        if (display != null) display.close();
        display = null;
        System.err.printf("runaway console: started ahead of ordinary tasks; ordinary from its first scan on (%d threads%s lowered)%n",
                lowered, server ? " and its X server" : "");
        return true;
    }
}
