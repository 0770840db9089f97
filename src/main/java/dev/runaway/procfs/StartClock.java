// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Optional;

/**
 * A process's start (field 22 of /proc/PID/stat, clock ticks since boot) as the wall-clock time
 * a person reads: {@code btime} of /proc/stat plus ticks / USER_HZ, in local time. This is how
 * {@code ps} shows STIME; both the field and btime count time spent suspended, so they agree.
 *
 * @param boot the boot instant (btime), empty when /proc/stat could not be read
 * @param zone the time zone the clock time is written in
 */
public record StartClock(Optional<Instant> boot, ZoneId zone) {
    /** The kernel's USER_HZ: /proc reports times in hundredths of a second on every Linux build. */
    static final long TICKS_PER_SECOND = 100;
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");
    private static final DateTimeFormatter DAY_TIME = DateTimeFormatter.ofPattern("MMM d HH:mm:ss");

    /** This machine's clock, in the local time zone. */
    public static StartClock system() {
        return of(Path.of("/proc/stat"), ZoneId.systemDefault());
    }

    /** The clock of a /proc/stat file (a parameter so tests can give their own). */
    public static StartClock of(Path procStat, ZoneId zone) {
        try {
            for (String line : Files.readAllLines(procStat)) {
                if (line.startsWith("btime ")) return new StartClock(Optional.of(Instant.ofEpochSecond(Long.parseLong(line.substring(6).trim()))), zone);
            }
        } catch (IOException | NumberFormatException e) {
            // unreadable: starts are written without a clock time
        }
        return new StartClock(Optional.empty(), zone);
    }

    /** The wall-clock instant of a start in ticks since boot, when the boot time is known. */
    public Optional<Instant> instant(long startTicks) {
        return boot.map(b -> b.plusMillis(startTicks * 1000 / TICKS_PER_SECOND));
    }

    /**
     * "started 17:02:11" (with the date when not today, relative to NOW), or "started 6479 s after
     * boot" when the boot time is unknown.
     */
    public String words(long startTicks, Instant now) {
        Optional<Instant> at = instant(startTicks);
        if (at.isEmpty()) return "started " + startTicks / TICKS_PER_SECOND + " s after boot";
        ZonedDateTime t = at.get().atZone(zone);
        boolean today = t.toLocalDate().equals(LocalDate.ofInstant(now, zone));
        return "started " + (today ? TIME : DAY_TIME).format(t);
    }
}
