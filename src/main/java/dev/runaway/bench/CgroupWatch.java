// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.bench;

import dev.runaway.procfs.ProcReader;
import dev.runaway.sandbox.Sandbox;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * A stop measured from outside, by the kernel's own counts for the runaway's cgroup, whatever
 * stops it: growth has stopped from the last moment a new member appeared; the pressure has
 * ended from the last fork the cap refused (with pids.max 0 the runaway still tries, and is
 * refused, until the freeze reaches every task: growth stopped, pressure not yet ended); zero
 * is the first moment the cgroup is empty. Also the highest load average seen meanwhile. Polls
 * on its own thread.
 */
final class CgroupWatch implements AutoCloseable {
    private static final long POLL_MILLIS = 20;

    private final Path procs;
    private final Sandbox sandbox;
    private final long startNanos;
    private final Thread thread;
    private final ProcReader proc = new ProcReader(Path.of("/proc"));
    private volatile boolean running = true;
    private volatile long lastGrowthNanos;
    private volatile long lastRefusedNanos;
    private volatile long zeroNanos = -1;
    private volatile double loadMax;

    /** Watching starts now; times are from {@code startNanos} (System.nanoTime of the stop's start). */
    CgroupWatch(Sandbox sandbox, Path memberDir, long startNanos) {
        this.sandbox = sandbox;
        this.procs = memberDir.resolve("cgroup.procs");
        this.startNanos = startNanos;
        this.lastGrowthNanos = startNanos;
        this.lastRefusedNanos = startNanos;
        this.thread = new Thread(this::watch, "runaway-bench-watch");
        thread.setDaemon(true);
        // Started real-time, as its parent for the moment: a thread's start waits until the new
        // thread has run, and an ordinary one waited minutes at load 19,000 (the bench's clocks
        // had started: the guided CLI's launcher "started 357-768 s after its spawn").
        try (var raised = dev.runaway.sys.Sched.raisedWithChildren()) {
            thread.start();
        }
    }

    private void watch() {
        Set<Integer> seen = new HashSet<>(members());
        long refused = sandbox.failedForks();
        while (running) {
            long now = System.nanoTime();
            Set<Integer> members = members();
            long refusedNow = sandbox.failedForks();
            boolean grew = false;
            for (int pid : members) grew |= seen.add(pid);
            if (refusedNow > refused) lastRefusedNanos = now;
            refused = refusedNow;
            if (grew) lastGrowthNanos = now;
            if (members.isEmpty() && zeroNanos < 0) zeroNanos = now;
            if (!members.isEmpty()) zeroNanos = -1;
            loadMax = Math.max(loadMax, load1());
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private Set<Integer> members() {
        Set<Integer> out = new HashSet<>();
        try {
            for (String line : Files.readAllLines(procs)) if (!line.isBlank()) out.add(Integer.parseInt(line.trim()));
        } catch (IOException | RuntimeException gone) {
            // the cgroup was removed: nobody is left in it
        }
        return out;
    }

    private double load1() {
        String text = proc.text("loadavg").orElse("0");
        try {
            return Double.parseDouble(text.trim().split("\\s+")[0]);
        } catch (RuntimeException e) {
            return 0;
        }
    }

    /** Waits up to {@code millis} for the cgroup to be empty; whether it is. */
    boolean awaitZero(long millis) throws InterruptedException {
        long deadline = System.nanoTime() + millis * 1_000_000;
        while (zeroNanos < 0 && System.nanoTime() < deadline) Thread.sleep(POLL_MILLIS);
        return zeroNanos >= 0;
    }

    /** Milliseconds from the start to the last new member seen. */
    long millisToGrowthStopped() {
        return (lastGrowthNanos - startNanos) / 1_000_000;
    }

    /** Milliseconds from the start to the last fork the cap refused. */
    long millisToPressureEnded() {
        return (lastRefusedNanos - startNanos) / 1_000_000;
    }

    /** Milliseconds from the start to an empty cgroup; -1 when it never was. */
    long millisToZero() {
        long z = zeroNanos;
        return z < 0 ? -1 : (z - startNanos) / 1_000_000;
    }

    double loadMax() {
        return loadMax;
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.interrupt();
        thread.join(2000);
    }
}
