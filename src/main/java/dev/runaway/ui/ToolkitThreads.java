// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import dev.runaway.sys.Sched;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * JavaFX's own threads, raised together for a stop: the JavaFX thread (it handles Enter and
 * shows the plan), its renderer ("QuantumRenderer-0", which the JavaFX thread waits for before
 * each frame) and, with the GTK toolkit, "InvokeLaterDispatcher", through which every
 * {@code Platform.runLater} passes (the finished plan reaches the window that way). Seen at
 * 20,000 pressing tasks (bench ui, load 12,000): with the JavaFX thread alone real-time, the
 * dispatcher sat runnable at the ordinary policy; once, Enter took 48 s to reach the stop. They
 * run one real-time priority above the rest of the console ({@link Sched#raisedForDisplay}).
 * Call on the JavaFX thread; close on it too.
 */
final class ToolkitThreads {
    /** Prefixes of the toolkit threads' names as the kernel holds them (15 characters at most). */
    private static final List<String> TOOLKIT = List.of("QuantumRenderer", "InvokeLaterDisp");

    /**
     * The raise, shared: a stop and an overloaded machine each hold it; the threads go back to
     * the ordinary policy when the last holder lets go (a stop ending mid-fire leaves them raised).
     */
    private static List<Sched.Raised> held = List.of();
    private static int holders;

    /** One holder's share of the raise. */
    static final class Raised implements AutoCloseable {
        private boolean closed;

        private Raised() {
        }

        /** What each thread got, in words. */
        String words() {
            synchronized (ToolkitThreads.class) {
                return String.join(", ", held.stream().map(Sched.Raised::words).toList());
            }
        }

        @Override
        public void close() {
            synchronized (ToolkitThreads.class) {
                if (closed) return;
                closed = true;
                if (--holders > 0) return;
                for (Sched.Raised r : held) r.close();
                held = List.of();
            }
        }
    }

    private ToolkitThreads() {
    }

    /** Raises the calling (JavaFX) thread and the toolkit's other threads of this process, unless a holder has already. */
    static Raised raised() {
        synchronized (ToolkitThreads.class) {
            if (holders++ == 0) {
                List<Sched.Raised> raised = new ArrayList<>();
                raised.add(Sched.raisedForDisplay(0));
                for (int tid : others()) raised.add(Sched.raisedForDisplay(tid));
                held = raised;
            }
            return new Raised();
        }
    }

    /** Whether any holder holds the raise (tests). */
    static synchronized boolean held() {
        return holders > 0;
    }

    /** Thread ids of the toolkit's other threads, from /proc/self/task (empty when it cannot be read). */
    static List<Integer> others() {
        List<Integer> out = new ArrayList<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : tasks.toList()) {
                String comm;
                try {
                    comm = Files.readString(task.resolve("comm")).strip();
                } catch (IOException gone) {
                    continue;
                }
                if (TOOLKIT.stream().anyMatch(comm::startsWith)) out.add(Integer.parseInt(task.getFileName().toString()));
            }
        } catch (IOException | RuntimeException unreadable) {
            // none found: the JavaFX thread alone is raised
        }
        return out;
    }
}
