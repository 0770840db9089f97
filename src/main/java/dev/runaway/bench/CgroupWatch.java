// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.bench;

import dev.runaway.procfs.ProcReader;
import dev.runaway.sandbox.Sandbox;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

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
    /** Run once, on this thread, when the cgroup is first seen empty (what else was true at zero). */
    private volatile Runnable atZero = () -> { };

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
        java.util.BitSet seen = new java.util.BitSet();
        members(seen);
        long refused = sandbox.failedForks();
        while (running) {
            long now = System.nanoTime();
            int before = seen.cardinality();
            int members = members(seen);
            long refusedNow = sandbox.failedForks();
            if (refusedNow > refused) lastRefusedNanos = now;
            refused = refusedNow;
            if (seen.cardinality() > before) lastGrowthNanos = now;
            if (members == 0 && zeroNanos < 0) {
                zeroNanos = now;
                atZero.run();
                atZero = () -> { };
            }
            if (members != 0) zeroNanos = -1;
            loadMax = Math.max(loadMax, load1());
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** {@code action} runs once when the cgroup is first seen empty. */
    void atZero(Runnable action) {
        atZero = action;
    }

    /**
     * The members now, each added to SEEN; how many. Read as bytes into a bit set: this thread is
     * real-time, and at 20,000 members a list of strings and a hash set every 20 ms took a share of
     * a CPU the stop it measures runs beside at the same priority.
     */
    private int members(java.util.BitSet seen) {
        byte[] text;
        try {
            text = Files.readAllBytes(procs);
        } catch (IOException gone) {
            return 0; // the cgroup was removed: nobody is left in it
        }
        int count = 0;
        int pid = -1;
        for (byte b : text) {
            if (b >= '0' && b <= '9') {
                pid = (pid < 0 ? 0 : pid * 10) + (b - '0');
            } else if (pid >= 0) {
                seen.set(pid);
                count++;
                pid = -1;
            }
        }
        if (pid >= 0) {
            seen.set(pid);
            count++;
        }
        return count;
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
