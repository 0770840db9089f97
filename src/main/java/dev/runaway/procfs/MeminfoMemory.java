// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * Memory and swap from /proc/meminfo (MemTotal, MemAvailable, SwapTotal, SwapFree). Not
 * through OSHI: its Linux classes run {@code uname -o} (and {@code getconf} when the auxiliary
 * vector lacks a value) as they load, and the stop's path must start no process. At a task
 * cap none can start; at 20,000 pressing tasks {@code runaway stop} sat over 60 s reading that
 * child's pipe before it touched the runaway (bench stop --pressing 20000, issue 14).
 */
public final class MeminfoMemory implements Supplier<MemoryFigures> {
    private final Path meminfo;

    public MeminfoMemory(Path procRoot) {
        this.meminfo = procRoot.resolve("meminfo");
    }

    @Override
    public MemoryFigures get() {
        try {
            return parse(new String(Files.readAllBytes(meminfo), StandardCharsets.US_ASCII));
        } catch (IOException unreadable) {
            return new MemoryFigures(0, 0, 0, 0);
        }
    }

    /** The four figures in bytes; a line that is missing reads 0 (MemAvailable before Linux 3.14: MemFree). */
    static MemoryFigures parse(String text) {
        long total = 0, available = -1, free = 0, swapTotal = 0, swapFree = 0;
        for (String line : text.split("\n")) {
            int colon = line.indexOf(':');
            if (colon < 0) continue;
            String key = line.substring(0, colon);
            long bytes;
            try {
                bytes = Long.parseLong(line.substring(colon + 1).replace("kB", "").trim()) * 1024;
            } catch (NumberFormatException notANumber) {
                continue;
            }
            switch (key) {
                case "MemTotal" -> total = bytes;
                case "MemAvailable" -> available = bytes;
                case "MemFree" -> free = bytes;
                case "SwapTotal" -> swapTotal = bytes;
                case "SwapFree" -> swapFree = bytes;
                default -> {
                }
            }
        }
        return new MemoryFigures(total, available >= 0 ? available : free, swapTotal, swapFree);
    }
}
