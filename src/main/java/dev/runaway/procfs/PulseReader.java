// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import dev.runaway.model.Pressure;
import dev.runaway.model.PulseSample;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The pulse: a handful of small files that describe the whole machine, read in well under a
 * millisecond whatever the number of processes, so it can run at 10 Hz even when a full scan
 * takes seconds. Total tasks come from /proc/loadavg, forks since boot from /proc/stat.
 */
public final class PulseReader {
    private final ProcReader proc;
    private final Supplier<MemoryFigures> memory;

    public PulseReader(Path procRoot, Supplier<MemoryFigures> memory) {
        this.proc = new ProcReader(procRoot);
        this.memory = memory;
    }

    /** The live machine: /proc, memory and swap from /proc/meminfo (OSHI would start processes: MeminfoMemory). */
    public static PulseReader live() {
        return new PulseReader(Path.of("/proc"), new MeminfoMemory(Path.of("/proc")));
    }

    public PulseSample read() {
        Instant time = Instant.now();
        long mono = System.nanoTime();
        int tasks = proc.text("loadavg").map(PulseReader::tasksFromLoadavg).orElse(-1);
        long forks = proc.text("stat").map(PulseReader::forksFromStat).orElse(-1L);
        Optional<Pressure> pressure = proc.text("pressure/memory").flatMap(PulseReader::parsePressure);
        int pidMax = proc.text("sys/kernel/pid_max").map(PulseReader::firstInt).orElse(-1);
        int threadsMax = proc.text("sys/kernel/threads-max").map(PulseReader::firstInt).orElse(-1);
        MemoryFigures m = memory.get();
        return new PulseSample(time, mono, tasks, forks, m.totalBytes(), m.availableBytes(), m.swapTotalBytes(),
                m.swapFreeBytes(), pressure, pidMax, threadsMax);
    }

    /** "0.67 0.85 0.59 1/83 21241": the 4th field is runnable/total tasks. */
    static int tasksFromLoadavg(String text) {
        String[] fields = text.trim().split("\\s+");
        if (fields.length < 4 || !fields[3].contains("/")) return -1;
        return Integer.parseInt(fields[3].substring(fields[3].indexOf('/') + 1));
    }

    static long forksFromStat(String text) {
        for (String line : text.split("\n")) {
            if (line.startsWith("processes ")) return Long.parseLong(line.substring(10).trim());
        }
        return -1;
    }

    /** "some avg10=1.23 avg60=... total=N" and "full ..." lines. */
    static Optional<Pressure> parsePressure(String text) {
        double someAvg10 = -1;
        double fullAvg10 = 0;
        long someTotal = 0;
        long fullTotal = 0;
        for (String line : text.split("\n")) {
            String[] fields = line.trim().split("\\s+");
            if (fields.length < 5) continue;
            double avg10 = Double.parseDouble(value(fields, "avg10"));
            long total = Long.parseLong(value(fields, "total"));
            if (fields[0].equals("some")) {
                someAvg10 = avg10;
                someTotal = total;
            } else if (fields[0].equals("full")) {
                fullAvg10 = avg10;
                fullTotal = total;
            }
        }
        return someAvg10 < 0 ? Optional.empty() : Optional.of(new Pressure(someAvg10, fullAvg10, someTotal, fullTotal));
    }

    private static String value(String[] fields, String key) {
        for (String field : fields) {
            if (field.startsWith(key + "=")) return field.substring(key.length() + 1);
        }
        throw new IllegalArgumentException("no " + key + " in pressure line");
    }

    private static int firstInt(String text) {
        return Integer.parseInt(text.trim());
    }
}
