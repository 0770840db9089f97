// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.bench;

import dev.runaway.sys.LibC;

import java.io.PrintWriter;

/**
 * Before a bench starts a fire: every dirty page written back. A checkout just built has its
 * binaries and jars in dirty pages, and the kernel's writeback worker, an ordinary task, locks
 * each page while it starts writing it; preempted there by thousands of runnable tasks, it held
 * one for minutes, and a real-time tool that faulted on that page waited with it (a guided stop
 * stuck 180 s in filemap_fault at 20,000 pressing tasks). An installed Runaway's pages are
 * clean, so this is the bench's artefact, not the user's: removed here, not measured.
 */
final class CleanPages {
    private CleanPages() {
    }

    static void beforeFire(PrintWriter progress) {
        long start = System.nanoTime();
        LibC.INSTANCE.sync();
        progress.printf("wrote back dirty pages before the fire (%d ms)%n", (System.nanoTime() - start) / 1_000_000);
        progress.flush();
    }
}
