// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.bench;

import dev.runaway.analysis.LiveAnalysis;
import dev.runaway.model.Json;
import dev.runaway.model.PulseSample;
import dev.runaway.procfs.ProcEvents;
import dev.runaway.procfs.ProcReader;
import dev.runaway.procfs.ProcessTable;
import dev.runaway.procfs.PulseReader;
import dev.runaway.sandbox.NativeBinaries;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import dev.runaway.sys.LibC;
import dev.runaway.sys.Sched;
import dev.runaway.sys.Signal;
import oshi.SystemInfo;
import oshi.software.os.OperatingSystem;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * The scan bench: N sleepers in a sandbox, then every reader timed side by side in the same
 * run, rounds interleaved so that machine noise hits them alike. Prints medians, the spread of
 * the rounds and ratios to the C reader, which only lists /proc and opens, reads and closes each
 * stat file.
 *
 * <p>What is compared (issue 30): the C reader's figure is its own clock, from its listing to its
 * last close, not the time to start it and read its answer (that row is kept beside it, marked).
 * Our rescan is warm, as the console's are: JIT-compiled, the table known from an earlier scan,
 * its reading threads started; it lists /proc and reads every stat as the C reader does, on the
 * two reading threads where the C reader has one, so the CPU it took (all of the JVM's threads)
 * is printed beside its wall time. It runs from a thread raised as the console's scan thread is
 * (as root); the same rescan from an ordinary thread, as the bench ran it before, is a row too.
 */
public final class ScanBench {
    /** One reader's result: the median of its rounds, their spread, and the median's ratio to the C reader's. */
    public record Row(String reader, int procs, double medianMs, double minMs, double maxMs, double ratioToC) {
    }

    /** The sampler and analyzer running live for a while, as the console runs them. */
    public record Live(double seconds, int snapshots, double snapshotIntervalMedianMs, double snapshotIntervalWorstMs,
                       double scanMedianMs, double analysisMedianMs, double cpuCores, double pulseIntervalMedianMs,
                       double pulseIntervalWorstMs, long peakRssBytes) {
    }

    /** Everything measured. */
    /**
     * @param incrementalMs        an incremental rescan after the churn, as the console does it
     *                             (following the kernel's process events where it may)
     * @param incrementalListingMs the same rescan listing /proc for new and gone pids
     * @param followsEvents        whether the first figure followed process events (root only)
     */
    public record Result(int sleepers, int processes, List<Row> rows, double incrementalMs, double incrementalListingMs,
                         boolean followsEvents, double churnPercent, double pulseMedianMs, double pulseWorstMs, Live live,
                         String loadBefore, String loadAfter) {
    }

    /** The row every ratio is to. */
    static final String C_READER = "C reader (open/read/close stat), own clock";

    static final int INCREMENTAL_ROUNDS = 9;

    /** The JVM options the launcher gives the console, so the live run's memory is the console's. */
    public static final List<String> CONSOLE_JVM_OPTIONS = List.of("-Xms192m", "-Xmx512m", "-Xmn48m",
            "-XX:+UseSerialGC", "-XX:SurvivorRatio=4", "-XX:TargetSurvivorRatio=90");

    /**
     * Runs {@code runaway bench live} in a JVM of its own, started with the console's options in
     * a small sandbox of its own, so its peak RSS is the sampler's and analyzer's alone.
     */
    private Live liveInItsOwnJvm(Duration duration, Duration warmUp) throws Exception {
        progress.printf("running the live sampler and analyzer in a JVM of its own for %d s (the first %d s warm up)%n",
                duration.toSeconds(), warmUp.toSeconds());
        progress.flush();
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(CONSOLE_JVM_OPTIONS);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"),
                "-Drunaway.native.dir=" + NativeBinaries.find(NativeBinaries.SANDBOX).getParent(),
                "dev.runaway.cli.Main", "bench", "live", "--seconds", Long.toString(duration.toSeconds()),
                "--warm-up", Long.toString(warmUp.toSeconds()), "--json"));
        try (Sandbox jvmBox = Sandboxes.create(SandboxSpec.of("bench-live-jvm", 256).withLifetime(duration.plusMinutes(2)))) {
            Process jvm = jvmBox.start(new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD));
            String json = new String(jvm.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (jvm.waitFor() != 0) throw new IOException("the live bench JVM failed: " + json);
            return Json.TREES.readValue(json, Live.class);
        }
    }

    private final int sleepers;
    private final int rounds;
    private final PrintWriter progress;

    public ScanBench(int sleepers, int rounds, PrintWriter progress) {
        this.sleepers = sleepers;
        this.rounds = rounds;
        this.progress = progress;
    }

    public Result run() throws Exception {
        try (PidMax pidMax = PidMax.atLeast(sleepers + 16_384, progress);
             Sandbox sandbox = Sandboxes.create(SandboxSpec.of("bench-scan", sleepers + 64)
                     .withLifetime(Duration.ofMinutes(20)))) {
            progress.printf("starting %,d sleepers in %s%n", sleepers, sandbox.containment());
            progress.flush();
            startSleepers(sandbox, sleepers);
            int processes = new ProcReader(Path.of("/proc")).pids().length;
            progress.printf("%,d processes on the machine; timing %d rounds of each reader%n", processes, rounds);
            progress.flush();

            String loadBefore = loadAverage();
            Map<String, List<Double>> times = new LinkedHashMap<>();
            ProcessTable warm = table();
            warm.scan(true);
            List<Double> cWithStart = new ArrayList<>(), rescanCpu = new ArrayList<>();
            Map<String, Callable<Double>> readers = new LinkedHashMap<>();
            readers.put("runaway full scan (first sight)", () -> timeMs(() -> table().scan(true).processes().size()));
            // Scanned as the console's sampler scans: from a thread raised as its scan thread is (SCHED_RR 1
            // as root). The reading threads are raised so; an ordinary scan thread waits behind them for a
            // CPU, and its listing of /proc, which the console overlaps with their reads, came after them.
            readers.put("runaway stat-only rescan", () -> {
                try (Sched.Raised raised = Sched.raisedWhile()) {
                    long cpu = processCpuNanos();
                    double ms = timeMs(() -> warm.scan(true).processes().size());
                    rescanCpu.add((processCpuNanos() - cpu) / 1e6);
                    return ms;
                }
            });
            readers.put("runaway stat-only rescan, from an ordinary thread", () -> timeMs(() -> warm.scan(true).processes().size()));
            readers.put(C_READER, () -> cReader(cWithStart));
            // What a group's memory by PSS costs (analysis.GroupMemory reads it for a few groups, never the table).
            readers.put("PSS of every process (smaps_rollup)", () -> timeMs(ScanBench::pssOfAll));
            for (Map.Entry<String, Callable<Double>> e : readers.entrySet()) times.put(e.getKey(), new ArrayList<>());
            for (int r = 0; r < rounds; r++) {
                for (Map.Entry<String, Callable<Double>> e : readers.entrySet()) times.get(e.getKey()).add(e.getValue().call());
            }
            times.put("runaway stat-only rescan, CPU of all threads", rescanCpu);
            times.put("C reader, timed with its process start", cWithStart);
            Live live = liveInItsOwnJvm(Duration.ofSeconds(30), Duration.ofSeconds(10));
            ProcessTable following = table();
            Optional<ProcEvents> events = ProcEvents.open();
            events.ifPresent(following::following);
            following.scan(true);
            double[] incremental = incrementalWithChurn(sandbox, following, warm);
            events.ifPresent(ProcEvents::close);
            double[] pulse = pulseUnderLoad();

            Map<String, Callable<Integer>> others = new LinkedHashMap<>();
            others.put("ps -e -o pid,ppid,pgid,stat,rss,args", ScanBench::ps);
            OperatingSystem os = new SystemInfo().getOperatingSystem();
            others.put("OSHI getProcesses()", () -> os.getProcesses().size());
            others.put("ProcessHandle.allProcesses() + info()", ScanBench::processHandles);
            for (Map.Entry<String, Callable<Integer>> e : others.entrySet()) times.put(e.getKey(), new ArrayList<>());
            for (int r = 0; r < rounds; r++) {
                for (Map.Entry<String, Callable<Integer>> e : others.entrySet()) times.get(e.getKey()).add(timeMs(e.getValue()));
            }

            double c = median(times.get(C_READER));
            List<Row> rows = new ArrayList<>();
            for (Map.Entry<String, List<Double>> e : times.entrySet()) {
                double m = median(e.getValue());
                double min = e.getValue().stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
                double max = e.getValue().stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
                rows.add(new Row(e.getKey(), processes, round(m), round(min), round(max), round(m / c)));
            }
            return new Result(sleepers, processes, rows, round(incremental[0]), round(incremental[1]), events.isPresent(), 1.0,
                    round(pulse[0]), round(pulse[1]), live, loadBefore, loadAverage());
        }
    }

    private static ProcessTable table() {
        return new ProcessTable(new ProcReader(Path.of("/proc")), LibC.INSTANCE.getpagesize())
                .readingCommandLinesOnlyWhen(dev.runaway.analysis.CommandKeys::needsCommandLine); // as the live scans
    }

    /** Starts COUNT sleepers in the sandbox and waits until they all exist. */
    static Process startSleepers(Sandbox sandbox, int count) throws IOException {
        Process root = sandbox.start(new ProcessBuilder(NativeBinaries.find(NativeBinaries.DRILL_WORKER).toString(),
                "sleepers", Integer.toString(count)).redirectError(ProcessBuilder.Redirect.DISCARD));
        BufferedReader out = new BufferedReader(new InputStreamReader(root.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        if (line == null || !line.equals("ready " + count)) {
            throw new IOException("the sleepers did not all start: " + line + " (is the cap too low?)");
        }
        return root;
    }

    /** Runs the live sampler and analyzer in this JVM; intervals, costs, CPU and peak RSS. */
    public static Live live(Duration duration, Duration warmUp) throws InterruptedException, IOException {
        List<Double> snapshotAt = new java.util.concurrent.CopyOnWriteArrayList<>();
        List<Double> scanMs = new java.util.concurrent.CopyOnWriteArrayList<>();
        List<Double> analysisMs = new java.util.concurrent.CopyOnWriteArrayList<>();
        List<Double> pulseAt = new java.util.concurrent.CopyOnWriteArrayList<>();
        var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        long cpuBefore;
        long cpuAfter;
        try (LiveAnalysis la = LiveAnalysis.live()) {
            long steadyFrom = System.nanoTime() + warmUp.toNanos();
            la.onSnapshot(snap -> {
                if (System.nanoTime() < steadyFrom) return; // the first full scan, a cold JIT
                snapshotAt.add(System.nanoTime() / 1e6);
                scanMs.add(snap.scanNanos() / 1e6);
                analysisMs.add(snap.analysisNanos() / 1e6);
            });
            la.onPulse(p -> pulseAt.add(System.nanoTime() / 1e6));
            la.start();
            Thread.sleep(warmUp.toMillis());
            cpuBefore = os.getProcessCpuTime();
            Thread.sleep(duration.minus(warmUp).toMillis());
            cpuAfter = os.getProcessCpuTime();
        }
        double[] snapshots = intervals(snapshotAt);
        double[] pulses = intervals(pulseAt);
        Duration steady = duration.minus(warmUp);
        return new Live(steady.toSeconds(), snapshotAt.size(), round(snapshots[0]), round(snapshots[1]), round(median(scanMs)),
                round(median(analysisMs)), round((cpuAfter - cpuBefore) / (double) steady.toNanos()), round(pulses[0]),
                round(pulses[1]), peakRssBytes());
    }

    /** {median, worst} of the gaps between successive times. */
    private static double[] intervals(List<Double> times) {
        List<Double> gaps = new ArrayList<>();
        for (int i = 1; i < times.size(); i++) gaps.add(times.get(i) - times.get(i - 1));
        return new double[] {median(gaps), gaps.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN)};
    }

    /**
     * Kills 1% of the sleepers and starts as many new ones, then times one incremental scan of
     * each table (the one following process events, the one listing /proc; which goes first
     * alternates). Medians {following, listing}.
     */
    private double[] incrementalWithChurn(Sandbox sandbox, ProcessTable following, ProcessTable listing) throws Exception {
        List<Double> runs = new ArrayList<>(), listed = new ArrayList<>();
        int churn = Math.max(1, sleepers / 100);
        // Cheap next to the other readers, and noisy: more rounds for a steadier median.
        for (int r = 0; r < Math.max(rounds, INCREMENTAL_ROUNDS); r++) {
            int killed = 0;
            for (int pid : sandbox.memberPids()) {
                if (killed >= churn) break;
                if (LibC.INSTANCE.kill(pid, Signal.SIGKILL) == 0) killed++; // a member of our own sandbox
            }
            startSleepers(sandbox, churn);
            Thread.sleep(200);
            if (r % 2 == 0) {
                runs.add(timeMs(() -> following.scan(false).processes().size()));
                listed.add(timeMs(() -> listing.scan(false).processes().size()));
            } else {
                listed.add(timeMs(() -> listing.scan(false).processes().size()));
                runs.add(timeMs(() -> following.scan(false).processes().size()));
            }
        }
        return new double[] {median(runs), median(listed)};
    }

    /** Pulse read times over 3 s at 10 Hz while the sleepers exist: {median, worst}. */
    private static double[] pulseUnderLoad() throws InterruptedException {
        PulseReader pulse = PulseReader.live();
        List<Double> times = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            long t = System.nanoTime();
            PulseSample s = pulse.read();
            times.add((System.nanoTime() - t) / 1e6);
            if (s.tasks() <= 0) throw new IllegalStateException("the pulse read no task count");
            Thread.sleep(100);
        }
        double worst = times.stream().mapToDouble(Double::doubleValue).max().orElse(0);
        return new double[] {median(times), worst};
    }

    /**
     * One round of the C reader: its own clock's milliseconds (from its listing to its last
     * close); the time from starting it to reading its answer goes to {@code withStart}.
     */
    private static double cReader(List<Double> withStart) throws Exception {
        long t = System.nanoTime();
        Process p = new ProcessBuilder(NativeBinaries.find("runaway-stat-reader").toString(), "1").start();
        String line = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        p.waitFor();
        withStart.add((System.nanoTime() - t) / 1e6);
        String[] f = line.split(" ");
        if (f.length != 2 || Integer.parseInt(f[0]) <= 0) throw new IllegalStateException("the C reader said: " + line);
        return Long.parseLong(f[1]) / 1e6;
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /**
     * /proc/loadavg's three averages and its runnable/all tasks, as the bench's output quotes
     * them. The averages count the bench's own sleepers' forks from a few seconds before; the
     * runnable count says what competes for the CPUs now.
     */
    static String loadAverage() {
        return new ProcReader(Path.of("/proc")).text("loadavg").map(l -> String.join(" ", Arrays.asList(l.trim().split("\\s+")).subList(0, 4)))
                .orElse("unknown");
    }

    private static int ps() throws Exception {
        Process p = new ProcessBuilder("ps", "-e", "-o", "pid,ppid,pgid,stat,rss,args").start();
        int lines = 0;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            while (r.readLine() != null) lines++;
        }
        p.waitFor();
        return lines - 1;
    }

    private static int processHandles() {
        int[] n = {0};
        ProcessHandle.allProcesses().forEach(h -> {
            h.info();
            n[0]++;
        });
        return n[0];
    }

    private static double timeMs(Callable<Integer> reader) throws Exception {
        long t = System.nanoTime();
        int seen = reader.call();
        if (seen <= 0) throw new IllegalStateException("a reader saw no process");
        return (System.nanoTime() - t) / 1e6;
    }

    static double median(List<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        if (v.length == 0) return Double.NaN;
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }

    /** This JVM's peak resident memory (VmHWM). */
    private static int pssOfAll() {
        dev.runaway.procfs.MemoryFiles files = dev.runaway.procfs.MemoryFiles.live();
        int read = 0;
        for (int pid : new ProcReader(Path.of("/proc")).pids()) if (files.pss(pid).isPresent()) read++;
        return read;
    }

        static long peakRssBytes() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(Arrays.stream(line.substring(6).trim().split("\\s+")).findFirst().orElse("0")) * 1024;
            }
        }
        return -1;
    }
}
