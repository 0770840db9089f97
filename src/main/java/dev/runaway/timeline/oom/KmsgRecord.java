// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline.oom;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One /dev/kmsg record (Documentation/ABI/testing/dev-kmsg):
 * {@code PRIO,SEQ,USEC,FLAGS[,...];MESSAGE}, then optional continuation lines that start with a
 * space ({@code  SUBSYSTEM=usb}, {@code  DEVICE=c189:1}). PRIO is facility * 8 + level; facility
 * 0 is the kernel's own, userspace writes get another. USEC is the kernel's clock since boot.
 * The kernel escapes bytes below 0x20, from 0x7f, and the backslash as {@code \xNN}; they are
 * decoded here (as UTF-8, so a comm like {@code caf\xc3\xa9} reads "café").
 *
 * @param facility    syslog facility (0 kernel, 1 user, 3 daemon, ...)
 * @param level       syslog level (0 emerg ... 7 debug)
 * @param sequence    the record's sequence number (gaps mean records were overwritten)
 * @param microsSinceBoot the kernel's timestamp
 */
public record KmsgRecord(int facility, int level, long sequence, long microsSinceBoot, String message) {
    private static final Pattern HEADER = Pattern.compile("(\\d{1,4}),(\\d{1,20}),(\\d{1,20}),[^;]*;(.*)", Pattern.DOTALL);
    /** {@code ident[pid]: } as userspace (systemd without a journal) writes to kmsg. */
    private static final Pattern USERSPACE = Pattern.compile("([\\w@.-]{1,64})\\[\\d{1,10}\\]: (.*)", Pattern.DOTALL);

    /** The record in one line of kmsg text; empty for a continuation line, a torn line or garbage. */
    public static Optional<KmsgRecord> parse(String line) {
        if (line.isEmpty() || line.charAt(0) == ' ') return Optional.empty();
        int newline = line.indexOf('\n');
        Matcher m = HEADER.matcher(newline < 0 ? line : line.substring(0, newline));
        if (!m.matches()) return Optional.empty();
        try {
            int prio = Integer.parseInt(m.group(1));
            return Optional.of(new KmsgRecord(prio >> 3, prio & 7, Long.parseLong(m.group(2)), Long.parseLong(m.group(3)),
                    unescape(m.group(4))));
        } catch (NumberFormatException tooLong) {
            return Optional.empty();
        }
    }

    /** This record as a log line, its time made wall-clock with {@code clock}. */
    public LogLine toLogLine(BootClock clock) {
        if (facility == 0) return new LogLine(clock.wallTime(microsSinceBoot), LogLine.Origin.KERNEL, message);
        Matcher m = USERSPACE.matcher(message);
        if (!m.matches()) return new LogLine(clock.wallTime(microsSinceBoot), LogLine.Origin.OTHER, message);
        LogLine.Origin origin = switch (m.group(1)) {
            case "systemd-oomd" -> LogLine.Origin.OOMD;
            case "systemd" -> LogLine.Origin.MANAGER;
            default -> LogLine.Origin.OTHER;
        };
        return new LogLine(clock.wallTime(microsSinceBoot), origin, m.group(2));
    }

    static String unescape(String text) {
        if (text.indexOf("\\x") < 0) return text;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(text.length());
        for (int i = 0; i < text.length(); ) {
            int value = text.startsWith("\\x", i) ? hex(text, i + 2) : -1;
            if (value >= 0) {
                bytes.write(value);
                i += 4;
            } else {
                int codePoint = text.codePointAt(i);
                byte[] encoded = new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8);
                bytes.write(encoded, 0, encoded.length);
                i += Character.charCount(codePoint);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static int hex(String text, int at) {
        if (at + 2 > text.length()) return -1;
        int high = Character.digit(text.charAt(at), 16);
        int low = Character.digit(text.charAt(at + 1), 16);
        return high < 0 || low < 0 ? -1 : high * 16 + low;
    }
}
