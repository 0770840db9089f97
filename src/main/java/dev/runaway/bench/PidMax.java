// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.runaway.procfs.ProcReader;

/**
 * Raises kernel.pid_max for a bench or drill that needs more pids than the default 32,768, and
 * puts the old value back on close, and from a shutdown hook if the JVM ends first.
 */
public final class PidMax implements AutoCloseable {
    private static final Path FILE = Path.of("/proc/sys/kernel/pid_max");
    /** The kernel refuses less; a smaller reading means the read went wrong. */
    private static final int MIN_PID_MAX = 301;

    private final int original;
    private final boolean raised;
    private final Thread hook;
    private final PrintWriter progress;

    private PidMax(int original, boolean raised, PrintWriter progress) {
        this.original = original;
        this.raised = raised;
        this.progress = progress;
        this.hook = new Thread(this::restore, "runaway-pid-max-restore");
        if (raised) Runtime.getRuntime().addShutdownHook(hook);
    }

    public static PidMax atLeast(int wanted, PrintWriter progress) throws IOException {
        // Not Files.readString: on JDK 17 it returns "3" for this file (a sysctl reports size 0).
        int now = new ProcReader(Path.of("/proc")).text("sys/kernel/pid_max").map(String::trim)
                .map(Integer::parseInt).orElseThrow(() -> new IOException("cannot read " + FILE));
        if (now < MIN_PID_MAX) throw new IOException("kernel.pid_max read as " + now + ": refusing to touch it");
        if (now >= wanted) return new PidMax(now, false, progress);
        try {
            Files.writeString(FILE, Integer.toString(wanted));
        } catch (IOException e) {
            throw new IOException("this bench needs kernel.pid_max >= " + wanted + " (it is " + now
                    + "); run it as root, or ask for fewer processes", e);
        }
        progress.printf("raised kernel.pid_max from %d to %d (put back at the end)%n", now, wanted);
        return new PidMax(now, true, progress);
    }

    private void restore() {
        try {
            Files.writeString(FILE, Integer.toString(original));
        } catch (IOException e) {
            System.err.println("runaway: could not put kernel.pid_max back to " + original + ": " + e.getMessage());
        }
    }

    @Override
    public void close() {
        if (!raised) return;
        restore();
        progress.printf("kernel.pid_max put back to %d%n", original);
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook restores it
        }
    }
}
