// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline.oom;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** The log fixtures under src/test/resources/dev/runaway/timeline/oom, read the way the product reads logs. */
final class Fixtures {
    /** The boot instant the kmsg fixtures are read against. */
    static final BootClock BOOT = new BootClock(Instant.parse("2025-10-19T08:00:00Z"));

    private Fixtures() {
    }

    static byte[] bytes(String name) throws IOException {
        try (InputStream in = Fixtures.class.getResourceAsStream(name)) {
            if (in == null) throw new IOException("no fixture " + name);
            return in.readAllBytes();
        }
    }

    static Path copy(String name, Path dir) throws IOException {
        return Files.write(dir.resolve(name), bytes(name));
    }

    /** A kmsg fixture read through KmsgReader from its start, as a history reads the ring buffer. */
    static List<LogLine> kmsg(String name, Path dir) throws IOException {
        List<LogLine> lines = new ArrayList<>();
        try (KmsgReader reader = new KmsgReader(copy(name, dir), false)) {
            for (List<String> read = reader.read(0); !read.isEmpty(); read = reader.read(0)) {
                for (String text : read) KmsgRecord.parse(text).ifPresent(r -> lines.add(r.toLogLine(BOOT)));
            }
        }
        return lines;
    }

    /** A journalctl -o json fixture, line by line. */
    static List<LogLine> journal(String name) throws IOException {
        List<LogLine> lines = new ArrayList<>();
        for (String line : new String(bytes(name), StandardCharsets.UTF_8).split("\n")) JournalJson.parse(line).ifPresent(lines::add);
        return lines;
    }
}
