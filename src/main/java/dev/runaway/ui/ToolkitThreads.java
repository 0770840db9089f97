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
 * dispatcher sat runnable at the ordinary policy; once, Enter took 48 s to reach the stop. Call
 * on the JavaFX thread; close on it too.
 */
final class ToolkitThreads {
    /** Prefixes of the toolkit threads' names as the kernel holds them (15 characters at most). */
    private static final List<String> TOOLKIT = List.of("QuantumRenderer", "InvokeLaterDisp");

    /** Every raise held, undone at once. */
    static final class Raised implements AutoCloseable {
        private final List<Sched.Raised> held;

        private Raised(List<Sched.Raised> held) {
            this.held = held;
        }

        /** What each thread got, in words. */
        String words() {
            return String.join(", ", held.stream().map(Sched.Raised::words).toList());
        }

        @Override
        public void close() {
            for (Sched.Raised r : held) r.close();
        }
    }

    private ToolkitThreads() {
    }

    /** Raises the calling (JavaFX) thread and the toolkit's other threads of this process. */
    static Raised raised() {
        List<Sched.Raised> held = new ArrayList<>();
        held.add(Sched.raisedWhile());
        for (int tid : others()) held.add(Sched.raisedWhile(tid));
        return new Raised(held);
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
