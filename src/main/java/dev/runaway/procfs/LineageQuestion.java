// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import dev.runaway.model.Json;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The lineage protocol between a stop and a running sampler (docs/guided-stop.md, "Lineage"): the
 * stop asks, over the sampler's {@link ControlDoor}, for the forks since the time it needs (its
 * root's start) and gets them from the sampler's memory. A question is one line,
 * {@code LINEAGE ROOT_PID ROOT_START SINCE} (boot ticks); the answer is one JSON object, either
 * the {@link Lineage} or a {@link Refusal}. Types here, JSON only on the wire.
 *
 * <p>What a record says is what {@code /proc/PID/stat} shows any user of a living process: pid,
 * start, parent. Nothing else (no path, no command line, no uid) is in an answer; a user other
 * than root is refused when {@code /proc} hides other users' processes ({@code hidepid}).
 */
public final class LineageQuestion {
    static final int VERSION = 1;
    /** An answer of more is not a sampler's (the log keeps at most {@link ForkLog#MAX_RECORDS}). */
    public static final int MAX_ANSWER_BYTES = 64 << 20;

    private LineageQuestion() {
    }

    /** Which sampler keeps a log (said in the stop's plan). */
    public enum Keeper {
        GUARD("runaway guard"),
        EXPORTER("runaway metrics"),
        CONSOLE("the console"),
        TOP("runaway top");

        private final String words;

        Keeper(String words) {
            this.words = words;
        }

        public String words() {
            return words;
        }
    }

    /** The forks a stop needs: every one since {@code sinceTicks}, for the lineage of its root. */
    public record Question(int rootPid, long rootStartTicks, long sinceTicks) {
        public byte[] line() {
            return ("LINEAGE " + rootPid + " " + rootStartTicks + " " + sinceTicks + "\n").getBytes(StandardCharsets.US_ASCII);
        }

        /** The question a line says exactly (ASCII digits, single spaces), or empty. */
        static Optional<Question> parse(byte[] line) {
            String s = new String(line, StandardCharsets.ISO_8859_1);
            if (!s.matches("LINEAGE [1-9][0-9]{0,9} [0-9]{1,18} [0-9]{1,18}")) return Optional.empty();
            String[] f = s.split(" ");
            long pid = Long.parseLong(f[1]);
            if (pid > Integer.MAX_VALUE) return Optional.empty();
            return Optional.of(new Question((int) pid, Long.parseLong(f[2]), Long.parseLong(f[3])));
        }
    }

    /** An answer: the lineage, or why none. */
    public sealed interface Answer permits Lineage, Refusal {
    }

    /** The sampler's log from {@code snapshot.sinceTicks()} on, as {@code keeper} (pid {@code pid}) kept it. */
    public record Lineage(Keeper keeper, int pid, ForkLog.Snapshot snapshot) implements Answer {
    }

    /** Why a sampler did not answer with its lineage. */
    public record Refusal(Why why, String words) implements Answer {
        public enum Why {
            /** The door's bounds (per uid, in all, the deciders' queue). */
            BUSY,
            TIMEOUT,
            TOO_LONG,
            /** Not a question of this protocol. */
            USAGE,
            /** {@code /proc} hides other users' processes here, and the asker is not root. */
            HIDDEN,
            /** The sampler keeps no log (lost, or closing). */
            NO_LOG
        }
    }

    /** The answer as one JSON object and a newline. */
    public static byte[] encode(Answer a) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator g = Json.TREES.getFactory().createGenerator(out)) {
            g.writeStartObject();
            g.writeNumberField("version", VERSION);
            if (a instanceof Lineage l) {
                g.writeStringField("keeper", l.keeper().name());
                g.writeNumberField("pid", l.pid());
                g.writeNumberField("since", l.snapshot().sinceTicks());
                g.writeNumberField("taken", l.snapshot().takenTicks());
                g.writeArrayFieldStart("records");
                for (long[] r : l.snapshot().records()) g.writeArray(r, 0, r.length);
                g.writeEndArray();
            } else if (a instanceof Refusal r) {
                g.writeStringField("refused", r.why().name());
                g.writeStringField("words", r.words());
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // to memory: does not happen
        }
        out.write('\n');
        return out.toByteArray();
    }

    /** The answer a sampler sent; an {@link IOException} when it is not one of this protocol. */
    public static Answer decode(byte[] bytes) throws IOException {
        JsonNode n = Json.TREES.readTree(bytes);
        if (n == null || n.path("version").asInt() != VERSION) throw new IOException("not a lineage answer of version " + VERSION);
        try {
            if (n.has("refused")) return new Refusal(Refusal.Why.valueOf(n.path("refused").asText()), n.path("words").asText());
            List<long[]> records = new ArrayList<>();
            for (JsonNode r : n.path("records")) {
                if (r.size() != 5) throw new IOException("a lineage record of " + r.size() + " fields");
                records.add(new long[]{r.get(0).asLong(), r.get(1).asLong(), r.get(2).asLong(), r.get(3).asLong(), r.get(4).asLong()});
            }
            return new Lineage(Keeper.valueOf(n.path("keeper").asText()), n.path("pid").asInt(),
                    new ForkLog.Snapshot(n.path("since").asLong(), n.path("taken").asLong(), records));
        } catch (IllegalArgumentException e) {
            throw new IOException("not a lineage answer: " + e.getMessage());
        }
    }

    /**
     * Whether {@code /proc}, as {@code mountinfo} shows its mounts, hides other users' processes
     * ({@code hidepid} other than 0 or off): then a user who is not root learns nothing from a sampler.
     */
    static boolean procHidesOthers(String mountinfo) {
        for (String line : mountinfo.split("\n")) {
            String[] f = line.split(" ");
            int dash = java.util.Arrays.asList(f).indexOf("-");
            if (f.length < 5 || !f[4].equals("/proc") || dash < 0 || f.length < dash + 4 || !f[dash + 1].equals("proc")) continue;
            for (String o : f[dash + 3].split(",")) {
                if (o.startsWith("hidepid=") && !o.equals("hidepid=0") && !o.equals("hidepid=off")) return true;
            }
            return false;
        }
        return true; // no /proc mount seen: nothing is known to be public
    }

    /** The door's own refusals, in this protocol. */
    static Refusal.Why of(ControlDoor.Refusal r) {
        return switch (r) {
            case BUSY -> Refusal.Why.BUSY;
            case TIMEOUT -> Refusal.Why.TIMEOUT;
            case TOO_LONG -> Refusal.Why.TOO_LONG;
        };
    }
}
