// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline.oom;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The out-of-memory kills of a past time range, for charting yesterday's kills. The journal
 * answers where it has entries for the range (it keeps the kernel's lines across reboots, and
 * systemd-oomd's); else /dev/kmsg's ring buffer, which holds only this boot's lines, as far back
 * as the buffer's size allows. {@link Result#source()} says which answered, and why the journal
 * did not when it did not.
 */
public final class OomHistory {
    private static final Duration JOURNAL_TIMEOUT = Duration.ofMinutes(2);

    /** The events in [from, to), sorted by time, and where they came from, in words. */
    public record Result(List<OomEvent> events, String source) {
    }

    private OomHistory() {
    }

    /** This machine: journalctl started directly, /dev/kmsg, the measured boot time. */
    public static Result read(Instant from, Instant to) {
        return read(from, to, Launcher.direct(), OomWatcher.DEV_KMSG, BootClock.detect());
    }

    /** As {@link #read(Instant, Instant)}, with journalctl started by {@code launcher} and kmsg read from {@code kmsg}. */
    public static Result read(Instant from, Instant to, Launcher launcher, Path kmsg, BootClock clock) {
        if (!to.isAfter(from)) throw new IllegalArgumentException("an empty time range: " + from + " to " + to);
        String journalWhy;
        Journal.Presence presence = Journal.probe(launcher);
        if (presence.hasEntries()) {
            try {
                List<LogLine> lines = journal(from, to, launcher);
                if (!lines.isEmpty()) {
                    return new Result(within(OomJoiner.join(lines), from, to), "the journal (journalctl: " + lines.size()
                            + " entries of the kernel, systemd-oomd and the systemd managers around " + from + " to " + to + ")");
                }
                journalWhy = "the journal has no entries of the kernel, systemd-oomd or systemd from " + from + " to " + to;
            } catch (IOException e) {
                journalWhy = e.getMessage();
            }
        } else {
            journalWhy = presence.why();
        }
        return kmsg(from, to, kmsg, clock, journalWhy);
    }

    /** The journal's lines, the range widened by the window in which an oomd kill and its count are joined. */
    private static List<LogLine> journal(Instant from, Instant to, Launcher launcher) throws IOException {
        List<LogLine> lines = new ArrayList<>();
        List<String> command = Journal.rangeCommand(from.minus(OomJoiner.OOMD_WINDOW), to.plus(OomJoiner.OOMD_WINDOW),
                Journal.matches(true, true));
        Journal.Ended ended = Journal.run(launcher, command, JOURNAL_TIMEOUT, line -> JournalJson.parse(line).ifPresent(lines::add));
        if (ended.status() != 0) {
            throw new IOException("journalctl exited with " + ended.status() + (ended.said().isEmpty() ? "" : ": " + ended.said()));
        }
        return lines;
    }

    private static Result kmsg(Instant from, Instant to, Path kmsg, BootClock clock, String journalWhy) {
        List<LogLine> lines = new ArrayList<>();
        Instant oldest = null;
        long lost;
        try (KmsgReader reader = new KmsgReader(kmsg, false)) {
            for (List<String> read = reader.read(0); !read.isEmpty(); read = reader.read(0)) {
                for (String text : read) {
                    var record = KmsgRecord.parse(text);
                    if (record.isEmpty()) continue;
                    LogLine line = record.get().toLogLine(clock);
                    if (oldest == null) oldest = line.time();
                    lines.add(line);
                }
            }
            lost = reader.lost();
        } catch (IOException e) {
            return new Result(List.of(), "none: the journal answered nothing (" + journalWhy + ") and " + e.getMessage());
        }
        String coverage = oldest == null ? "empty"
                : "records since " + oldest + (from.isBefore(oldest) ? ": kills before that are not in it" : "");
        return new Result(within(OomJoiner.join(lines), from, to), kmsg + " ring buffer since boot (" + coverage
                + (lost > 0 ? "; " + lost + " times records were overwritten while it was read" : "")
                + "), as the journal answered nothing (" + journalWhy + ")");
    }

    private static List<OomEvent> within(List<OomEvent> events, Instant from, Instant to) {
        return events.stream().filter(e -> !e.time().isBefore(from) && e.time().isBefore(to)).toList();
    }
}
