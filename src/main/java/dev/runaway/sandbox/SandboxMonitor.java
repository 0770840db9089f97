// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sandbox;

import dev.runaway.procfs.ProcStat;
import dev.runaway.sys.LibC;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Samples one sandbox at a fixed pace on its own daemon thread and hands each sample to its
 * listeners on that thread (chart data sets must be written from outside the JavaFX thread).
 * Keeps a bounded history so a long drill cannot grow the console's memory.
 */
public final class SandboxMonitor implements AutoCloseable {
    public static final int HISTORY_LIMIT = 36_000; // an hour at 10 Hz

    private static final Path PROC = Path.of("/proc");
    private static final long PAGE_BYTES = LibC.INSTANCE.getpagesize();

    private final Sandbox sandbox;
    private final long startNanos = System.nanoTime();
    private final ArrayDeque<SandboxSample> history = new ArrayDeque<>();
    private final List<Consumer<SandboxSample>> listeners = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "runaway-sandbox-monitor");
        t.setDaemon(true);
        return t;
    });

    public SandboxMonitor(Sandbox sandbox) {
        this.sandbox = sandbox;
    }

    public SandboxMonitor start(Duration period) {
        timer.scheduleAtFixedRate(this::sampleSafely, 0, period.toMillis(), TimeUnit.MILLISECONDS);
        return this;
    }

    public void addListener(Consumer<SandboxSample> listener) {
        listeners.add(listener);
    }

    /** Takes one sample now (also what the timer runs). */
    public SandboxSample sample() {
        Set<Integer> members = sandbox.memberPids();
        long rss = 0;
        for (int pid : members) rss += ProcStat.read(PROC, pid).map(ProcStat::rssPages).orElse(0L) * PAGE_BYTES;
        SandboxSample sample = new SandboxSample(Instant.now(), (System.nanoTime() - startNanos) / 1e9,
                sandbox.taskCount(), members.size(), rss, sandbox.failedForks());
        synchronized (history) {
            if (history.size() == HISTORY_LIMIT) history.removeFirst();
            history.addLast(sample);
        }
        return sample;
    }

    public List<SandboxSample> history() {
        synchronized (history) {
            return List.copyOf(history);
        }
    }

    /** Highest task count and memory seen so far. */
    public SandboxSample peak() {
        int tasks = 0;
        long rss = 0;
        SandboxSample last = null;
        for (SandboxSample s : history()) {
            tasks = Math.max(tasks, s.tasks());
            rss = Math.max(rss, s.rssBytes());
            last = s;
        }
        return last == null ? null : new SandboxSample(last.time(), last.secondsSinceStart(), tasks, 0, rss, last.failedForks());
    }

    private void sampleSafely() {
        try {
            SandboxSample sample = sample();
            for (Consumer<SandboxSample> listener : listeners) listener.accept(sample);
        } catch (RuntimeException e) {
            // a torn-down sandbox reads as empty; anything else must not kill the timer
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
