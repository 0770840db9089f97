// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline.oom;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.runaway.model.Json;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;

/**
 * One line of {@code journalctl -o json}: an object of the entry's fields, all strings.
 * {@code __REALTIME_TIMESTAMP} is microseconds since the epoch. {@code MESSAGE} is an array of
 * byte values instead of a string when it is not valid UTF-8 or holds control characters.
 * Who wrote the line comes from fields the journal sets itself and a client cannot forge
 * ({@code _TRANSPORT=kernel}; {@code _COMM}), checked against {@code SYSLOG_IDENTIFIER}.
 */
final class JournalJson {
    /** The fields read, for {@code --output-fields} (the __ ones are always given). */
    static final String OUTPUT_FIELDS = "MESSAGE,_TRANSPORT,SYSLOG_IDENTIFIER,_COMM,SYSLOG_FACILITY";

    private JournalJson() {
    }

    /** The log line in one line of journalctl's JSON output; empty for a torn line or garbage. */
    static Optional<LogLine> parse(String line) {
        JsonNode entry;
        try {
            entry = Json.TREES.readTree(line);
        } catch (JsonProcessingException torn) {
            return Optional.empty();
        }
        if (entry == null || !entry.isObject()) return Optional.empty();
        Optional<String> message = message(entry.get("MESSAGE"));
        long micros;
        try {
            micros = Long.parseLong(entry.path("__REALTIME_TIMESTAMP").asText(""));
        } catch (NumberFormatException noTime) {
            return Optional.empty();
        }
        if (message.isEmpty()) return Optional.empty();
        Instant time = Instant.ofEpochSecond(micros / 1_000_000, (micros % 1_000_000) * 1_000);
        return Optional.of(new LogLine(time, origin(entry), message.get()));
    }

    private static LogLine.Origin origin(JsonNode entry) {
        String transport = entry.path("_TRANSPORT").asText("");
        String identifier = entry.path("SYSLOG_IDENTIFIER").asText("");
        String comm = entry.path("_COMM").asText("");
        if (transport.equals("kernel")) {
            // kmsg records written by userspace arrive with the kernel transport too; facility 0 is the kernel's own
            String facility = entry.path("SYSLOG_FACILITY").asText("0");
            return facility.equals("0") ? LogLine.Origin.KERNEL : byIdentifier(identifier, identifier);
        }
        return byIdentifier(identifier, comm);
    }

    private static LogLine.Origin byIdentifier(String identifier, String comm) {
        if (identifier.equals("systemd-oomd") && comm.equals("systemd-oomd")) return LogLine.Origin.OOMD;
        if (identifier.equals("systemd") && comm.equals("systemd")) return LogLine.Origin.MANAGER;
        return LogLine.Origin.OTHER;
    }

    private static Optional<String> message(JsonNode node) {
        if (node == null || node.isNull()) return Optional.empty();
        if (node.isTextual()) return Optional.of(node.asText());
        if (!node.isArray()) return Optional.empty();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(node.size());
        for (JsonNode b : node) {
            if (!b.isInt()) return Optional.empty();
            bytes.write(b.asInt());
        }
        return Optional.of(bytes.toString(StandardCharsets.UTF_8));
    }
}
