// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import dev.runaway.analysis.ScanStatus;
import dev.runaway.model.ProcessIdentity;
import dev.runaway.sys.AllThreadsRaise;

import java.util.Optional;
import java.util.function.Supplier;

/**
 * While the machine is overloaded the window's threads are raised as for a stop (real-time as
 * root): at 20,000 tasks pressing on a cap an ordinary JavaFX thread waited up to 669 ms between
 * frames (bench ui), and STOP itself reaches the window through those threads. So is the local
 * X server, whose replies the JavaFX thread waits for (see {@link DisplayServer}). Called with
 * each scan status on the JavaFX thread; {@link #close} lowers everything again.
 */
final class OverloadRaise implements AutoCloseable {
    private static final long SWEEP_NANOS = 500_000_000L;
    private final Supplier<Optional<ProcessIdentity>> displayServer;
    private ToolkitThreads.Raised toolkit;
    /** The rest of the console's threads, raised with the toolkit's; swept for new ones. */
    private AllThreadsRaise all;
    /** The local X server's threads (null: none found, or not raised). */
    private AllThreadsRaise display;
    private long sweptNanos;

    OverloadRaise(Supplier<Optional<ProcessIdentity>> displayServer) {
        this.displayServer = displayServer;
    }

    void follow(ScanStatus s) {
        BornRaised.handOver(); // a console started real-time is ordinary from here unless overloaded
        boolean overloaded = s.overloaded(toolkit != null);
        if (overloaded && toolkit == null) {
            toolkit = ToolkitThreads.raised(); // first, so that the stop's share keeps them
            all = AllThreadsRaise.start();
            display = raiseDisplayServer();
            sweptNanos = System.nanoTime();
            System.err.println("runaway console: the machine is overloaded; the window's threads raised ahead of ordinary tasks"
                    + (display != null && display.changedAny() ? ", and its X server" : ""));
        } else if (overloaded && System.nanoTime() - sweptNanos > SWEEP_NANOS) {
            all.sweep();
            if (display != null) display.sweep();
            else display = raiseDisplayServer(); // one started (or found) since
            sweptNanos = System.nanoTime();
        }
        if (!overloaded && toolkit != null) {
            close();
            System.err.println("runaway console: the overload is over; the window's threads are ordinary again");
        }
    }

    private AllThreadsRaise raiseDisplayServer() {
        return displayServer.get().map(id -> AllThreadsRaise.ofProcess(id.pid(), () -> DisplayServer.stillRuns(id))).orElse(null);
    }

    /** What the X server's threads got while overloaded ("" when this window changed none of them). */
    String displayWords() {
        return display == null || !display.changedAny() ? "" : display.words();
    }

    boolean raised() {
        return toolkit != null;
    }

    @Override
    public void close() {
        if (all != null) all.close();
        if (display != null) display.close();
        if (toolkit != null) toolkit.close();
        all = null;
        display = null;
        toolkit = null;
    }
}
