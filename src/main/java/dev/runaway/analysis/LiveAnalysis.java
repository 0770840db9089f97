// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import dev.runaway.model.PulseSample;
import dev.runaway.model.ScanSample;
import dev.runaway.procfs.CgroupPids;
import dev.runaway.procfs.MemoryFiles;
import dev.runaway.procfs.ProcEvents;
import dev.runaway.procfs.ProcessCaps;
import dev.runaway.procfs.ProcReader;
import dev.runaway.procfs.ProcessTable;
import dev.runaway.procfs.PulseReader;
import dev.runaway.procfs.Sampler;
import dev.runaway.sys.LibC;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The live machine, analysed: a sampler feeding an analyzer, publishing a snapshot after every
 * scan (on the scan thread) and every pulse to whoever listens.
 */
public final class LiveAnalysis implements AutoCloseable {
    private final Sampler sampler;
    private final Analyzer analyzer;
    private final PulseReader pulseReader;
    private ProcEvents events;
    private dev.runaway.procfs.ForkLog forks; // who forked whom since this analysis began (root only)
    private dev.runaway.procfs.SharedLineage.Published shared;
    private final List<Consumer<Snapshot>> listeners = new CopyOnWriteArrayList<>();
    private volatile PulseSample latestPulse;
    private volatile Snapshot latest;
    private final java.util.concurrent.CountDownLatch firstSnapshot = new java.util.concurrent.CountDownLatch(1);
    private volatile long latestAtNanos;
    private volatile int latestCmdlinesUnread;
    private volatile int latestStatsUnread;
    private final ProcReader loadReader;

    public LiveAnalysis(Path procRoot, PulseReader pulse, CgroupPids cgroupPids) {
        this.pulseReader = pulse;
        this.loadReader = new ProcReader(procRoot);
        ProcessTable table = new ProcessTable(new ProcReader(procRoot), LibC.INSTANCE.getpagesize())
                .readingCommandLinesOnlyWhen(CommandKeys::needsCommandLine);
        // The kernel's fork and exit events spare most scans a listing of /proc (root only).
        // The same events, kept as a fork log, are the analysis's lineage: who forked whom, even
        // when the middle process exited before any scan read it.
        if (procRoot.equals(Path.of("/proc"))) ProcEvents.open().ifPresent(e -> table.following(this.forks = dev.runaway.procfs.ForkLog.over(this.events = e)));
        this.sampler = new Sampler(pulse, table);
        boolean live = procRoot.equals(Path.of("/proc"));
        this.analyzer = new Analyzer(cgroupPids, live ? ProcessCaps.live() : ProcessCaps.none(),
                new dev.runaway.procfs.ProcPaths(procRoot), live ? MemoryFiles.live() : MemoryFiles.none());
        if (forks != null) analyzer.followingForks(forks);
    }

    /**
     * Offers this analysis's fork log to later stops (in this process, and as root to others
     * through {@link dev.runaway.procfs.SharedLineage}'s door): {@code keeper} names this sampler in their plans.
     */
    public LiveAnalysis sharingLineage(dev.runaway.procfs.LineageQuestion.Keeper keeper) {
        if (forks != null && shared == null) shared = dev.runaway.procfs.SharedLineage.publish(forks, keeper);
        return this;
    }

    /** The scans rest until the rest is closed (pulses go on): see {@link Sampler#rest}. */
    public Sampler.Rest restScans() {
        return sampler.rest();
    }

    public static LiveAnalysis live() {
        return new LiveAnalysis(Path.of("/proc"), PulseReader.live(), CgroupPids.live());
    }

    public LiveAnalysis start() {
        latestPulse = pulseReader.read();
        sampler.onPulse(p -> latestPulse = p);
        sampler.onScan(this::onScan);
        sampler.start();
        return this;
    }

    /** Scans at most this often while the machine is calm (see {@link Sampler#calmScanPeriod}). */
    public LiveAnalysis calmScanPeriod(java.time.Duration period) {
        sampler.calmScanPeriod(period);
        return this;
    }

    public void onPulse(Consumer<PulseSample> listener) {
        sampler.onPulse(listener);
    }

    public void onSnapshot(Consumer<Snapshot> listener) {
        listeners.add(listener);
    }

    /** The newest snapshot, waiting for the first scan to end if need be (a one-shot scan prints it the moment it is there). */
    public Snapshot awaitLatest() throws InterruptedException {
        firstSnapshot.await();
        return latest;
    }

    /** The newest snapshot, or null before the first scan. */
    public Snapshot latest() {
        return latest;
    }

    /** How fresh the newest snapshot is, and what holds the scans up when it is late. */
    public ScanStatus scanStatus() {
        Snapshot s = latest;
        double since = s == null ? Double.NaN : (System.nanoTime() - latestAtNanos) / 1e9;
        double load1 = 0;
        int runnable = 0;
        String loadavg;
        synchronized (loadReader) {
            loadavg = loadReader.text("loadavg").orElse("");
        }
        String[] f = loadavg.trim().split("\\s+"); // "0.67 0.85 0.59 3/830 21241"
        try {
            if (f.length >= 4) {
                load1 = Double.parseDouble(f[0]);
                runnable = Integer.parseInt(f[3].substring(0, f[3].indexOf('/')));
            }
        } catch (RuntimeException unreadable) {
            // no load figures: the status says less
        }
        return new ScanStatus(since, sampler.scanRunningNanos() / 1e9, s == null ? Double.NaN : s.scanNanos() / 1e9,
                s == null ? 0 : s.processes(), load1, runnable, Runtime.getRuntime().availableProcessors(), latestCmdlinesUnread,
                latestStatsUnread);
    }

    public PulseSample latestPulse() {
        return latestPulse;
    }

    /** The command keys shown now: their memory is measured (cgroup or PSS) like the most severe groups'. */
    public void watch(java.util.Set<String> commands) {
        analyzer.watch(commands);
    }

    /** What a stop of this command group would take, from the newest scan. */
    public TargetSet targets(String command) {
        return analyzer.targets(command);
    }

    /** For every group of the newest scan, the processes a stop of it would take (pid and start time). */
    public Analyzer.Targeted latestTargeted() {
        return analyzer.latestTargeted();
    }

    private void onScan(ScanSample scan) {
        Snapshot snapshot = analyzer.analyze(scan, latestPulse);
        latest = snapshot;
        latestCmdlinesUnread = scan.cmdlinesUnread();
        latestStatsUnread = scan.statsUnread();
        latestAtNanos = System.nanoTime();
        firstSnapshot.countDown();
        for (Consumer<Snapshot> l : listeners) l.accept(snapshot);
    }

    @Override
    public void close() {
        if (shared != null) shared.close();
        sampler.close();
        if (events != null) events.close();
    }
}
