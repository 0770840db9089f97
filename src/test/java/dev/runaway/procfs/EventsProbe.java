// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Run by {@link ProcEventsNamespaceTest} inside a pid namespace of its own: whether this process
 * follows the kernel's process events, and if it does, whether they name a child it starts by the
 * pid the child has here. Prints "events none", or "events child-named yes|no".
 */
public final class EventsProbe {
    private EventsProbe() {
    }

    public static void main(String[] args) throws Exception {
        Optional<ProcEvents> opened = ProcEvents.open();
        if (opened.isEmpty()) {
            System.out.println("events none");
            return;
        }
        try (ProcEvents events = opened.get()) {
            Process child = new ProcessBuilder("sleep", "0.5").start();
            int pid = (int) child.pid();
            Set<Integer> forked = new HashSet<>();
            long deadline = System.nanoTime() + 3_000_000_000L;
            while (System.nanoTime() < deadline && !forked.contains(pid)) {
                events.drain(new ProcEvents.Sink() {
                    @Override
                    public void forked(int tgid) {
                        forked.add(tgid);
                    }

                    @Override
                    public void exited(int tgid) {
                    }
                });
                Thread.sleep(20);
            }
            child.waitFor();
            System.out.println("events child-named " + (forked.contains(pid) ? "yes" : "no"));
        }
    }
}
