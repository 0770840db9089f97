// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import dev.runaway.model.PulseSample;
import dev.runaway.model.ScanSample;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Runs the pulse and the scans on two daemon threads, so the pulse keeps its pace whatever a
 * scan costs. Scans pace themselves against a CPU budget: after a scan that took {@code d}, the
 * thread rests so that scanning uses at most the budget (half a core when calm, a whole one
 * during an incident), but never rests so long that the chains are older than a second
 * while the scan itself fits in that second. Listeners run on the sampling threads.
 */
public final class Sampler implements AutoCloseable {
    public static final Duration PULSE_PERIOD = Duration.ofMillis(100);
    public static final Duration MIN_SCAN_PERIOD = Duration.ofMillis(100);
    public static final double CALM_BUDGET_CORES = 0.5;
    public static final double INCIDENT_BUDGET_CORES = 1.0;
    /** How often resting scans look whether their rest is over. */
    private static final long REST_POLL_NANOS = Duration.ofMillis(20).toNanos();
    /** Forks per second, measured by the pulse, above which the sampler counts an incident. */
    public static final double INCIDENT_FORKS_PER_SECOND = 50;

    private final PulseReader pulse;
    private final ProcessTable table;
    private final List<Consumer<PulseSample>> pulseListeners = new CopyOnWriteArrayList<>();
    private final List<Consumer<ScanSample>> scanListeners = new CopyOnWriteArrayList<>();
    private final AtomicBoolean running = new AtomicBoolean();
    private final java.util.concurrent.atomic.AtomicInteger resting = new java.util.concurrent.atomic.AtomicInteger();
    private volatile boolean incident;
    private volatile PulseSample lastPulse;
    private volatile long calmScanPeriodNanos = MIN_SCAN_PERIOD.toNanos();
    private volatile long scanStartedNanos; // 0 between scans
    private Thread pulseThread;
    private Thread scanThread;

    public Sampler(PulseReader pulse, ProcessTable table) {
        this.pulse = pulse;
        this.table = table;
    }

    public void onPulse(Consumer<PulseSample> listener) {
        pulseListeners.add(listener);
    }

    public void onScan(Consumer<ScanSample> listener) {
        scanListeners.add(listener);
    }

    /** How long the scan in progress (with its listeners) has run; 0 between scans. */
    public long scanRunningNanos() {
        long started = scanStartedNanos;
        return started == 0 ? 0 : System.nanoTime() - started;
    }

    public boolean incident() {
        return incident;
    }

    /**
     * Scans at most this often while calm (an exporter scraped every 15 s needs no ten scans a
     * second); during an incident the pace is the budget's again, so a cap reached is seen soon.
     */
    public Sampler calmScanPeriod(Duration period) {
        calmScanPeriodNanos = Math.max(MIN_SCAN_PERIOD.toNanos(), period.toNanos());
        return this;
    }


    /** A rest of the scans, held until closed. */
    public interface Rest extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Scans rest until the returned rest is closed (pulses go on): while a stop kills thousands of
     * processes each exit waits for a CPU, and a real-time scan of them takes it. The console's
     * stop from Enter to zero took 1.7-2.6x the fire's own cgroup.kill with its scans running.
     */
    public Rest rest() {
        resting.incrementAndGet();
        java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();
        return () -> {
            if (closed.compareAndSet(false, true)) resting.decrementAndGet();
        };
    }

    public synchronized Sampler start() {
        if (!running.compareAndSet(false, true)) return this;
        pulseThread = daemon("runaway-pulse", this::pulseLoop);
        scanThread = daemon("runaway-scan", this::scanLoop);
        return this;
    }

    private static Thread daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** How the sampling threads are scheduled ("SCHED_RR 1", "nice -20", or "" for the ordinary policy). */
    public String priority() {
        return priority;
    }

    private volatile String priority = "";

    private void pulseLoop() {
        dev.runaway.sys.Sched.aheadOfOrdinaryTasks(); // the pulse keeps its 10 Hz whatever runs beside it
        long next = System.nanoTime();
        while (running.get()) {
            PulseSample sample = pulse.read();
            PulseSample previous = lastPulse;
            lastPulse = sample;
            if (previous != null) incident = forksPerSecond(previous, sample) > INCIDENT_FORKS_PER_SECOND;
            for (Consumer<PulseSample> l : pulseListeners) safely(() -> l.accept(sample));
            next += PULSE_PERIOD.toNanos();
            if (!sleepUntil(next)) return;
        }
    }

    private void scanLoop() {
        priority = dev.runaway.sys.Sched.aheadOfOrdinaryTasks(); // scans keep answering under a runaway's load
        int scans = 0;
        while (running.get()) {
            if (resting.get() > 0) {
                if (!sleepUntil(System.nanoTime() + REST_POLL_NANOS)) return;
                continue;
            }
            ProcessTable.Depth depth = depthOf(scans++);
            long started = System.nanoTime();
            scanStartedNanos = started;
            try {
                ScanSample sample = table.scan(depth);
                for (Consumer<ScanSample> l : scanListeners) safely(() -> l.accept(sample));
            } catch (RuntimeException | OutOfMemoryError e) {
                // At a task cap no thread can start: a scan that needed one is lost, the next is tried.
                if (running.get()) System.err.println("runaway: a scan failed: " + e); // not when closing
            }
            scanStartedNanos = 0;
            // The budget covers the listeners too: analysing a scan costs as much as taking it.
            long work = System.nanoTime() - started;
            long rest = restAfter(work, incident, calmScanPeriodNanos);
            if (!sleepUntil(System.nanoTime() + rest)) return;
        }
    }

    /**
     * The first scan reads everything; then every ROUND_ROBIN_SHARE-th lists /proc and the rest
     * follow process events. None re-reads every stat again: the round-robin share covers the
     * table in as many scans, and a complete re-read of 20,000 stats on real-time readers held
     * both cores for hundreds of milliseconds (the window froze waiting for its display server).
     */
    static ProcessTable.Depth depthOf(int scan) {
        if (scan == 0) return ProcessTable.Depth.COMPLETE;
        return scan % ProcessTable.ROUND_ROBIN_SHARE == 0 ? ProcessTable.Depth.LISTED : ProcessTable.Depth.INCREMENTAL;
    }

    /** The rest after a scan: the budget's, and while calm at least what fills the calm period. */
    static long restAfter(long workNanos, boolean incident, long calmScanPeriodNanos) {
        long rest = restAfter(workNanos, incident ? INCIDENT_BUDGET_CORES : CALM_BUDGET_CORES);
        return incident ? rest : Math.max(rest, calmScanPeriodNanos - workNanos);
    }

    /** How long to rest after {@code workNanos} of scanning and analysis to stay within {@code budgetCores}. */
    static long restAfter(long workNanos, double budgetCores) {
        long forBudget = (long) (workNanos / budgetCores) - workNanos;
        long minimum = MIN_SCAN_PERIOD.toNanos() - workNanos;
        long fresh = Duration.ofSeconds(1).toNanos() - workNanos; // a rest past this makes chains stale
        long rest = Math.max(forBudget, minimum);
        if (fresh > 0) rest = Math.min(rest, Math.max(fresh, minimum));
        return Math.max(0, rest);
    }

    public static double forksPerSecond(PulseSample previous, PulseSample current) {
        double seconds = (current.monotonicNanos() - previous.monotonicNanos()) / 1e9;
        if (seconds <= 0 || previous.forksSinceBoot() < 0 || current.forksSinceBoot() < 0) return 0;
        return (current.forksSinceBoot() - previous.forksSinceBoot()) / seconds;
    }

    private static boolean sleepUntil(long deadlineNanos) {
        long wait = deadlineNanos - System.nanoTime();
        if (wait <= 0) return true;
        try {
            Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static void safely(Runnable r) {
        try {
            r.run();
        } catch (RuntimeException e) {
            System.err.println("runaway: a sampling listener failed: " + e);
        }
    }

    @Override
    public synchronized void close() {
        running.set(false);
        if (pulseThread != null) pulseThread.interrupt();
        if (scanThread != null) scanThread.interrupt();
    }
}
