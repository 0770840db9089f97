// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.guard;

import dev.runaway.procfs.ControlDoor;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The guard's door for a person's decision from another process ({@code runaway guard
 * --release KEY}): a {@link ControlDoor} at {@code /run/runaway/guard/control.sock}, one request a
 * connection, {@code RELEASE KEY} or {@code STOP KEY} ({@link Request}), answered by one line,
 * {@code OK words} or {@code ERR words}. Who asks is the kernel's word (SO_PEERCRED), never the
 * request's: root, or the user whose processes are held. The door's bounds are
 * {@link ControlDoor}'s (a refusal by the door is {@code ERR busy}, {@code ERR timeout} or
 * {@code ERR too long}).
 */
public final class GuardControl implements AutoCloseable {
    static final Duration READ_TIMEOUT = ControlDoor.READ_TIMEOUT;
    static final int PER_UID = ControlDoor.PER_UID;
    static final int DECIDERS = ControlDoor.DECIDERS;
    /** A STOP waits for the stop to reach zero: minutes under a pressing fire. */
    private static final Duration ASK_TIMEOUT = Duration.ofMinutes(10);

    /**
     * One request, parsed: what to do and to which group. A line is taken only when it says
     * exactly one request: valid UTF-8 (never decoded with replacement characters, which could
     * make two different byte strings one key), a verb, one space, a key without NUL, CR or LF,
     * at most {@link #MAX_BYTES} bytes; so what is accepted is exactly what was sent
     * ({@link #line()} gives back its bytes).
     */
    public record Request(Verb verb, String key) {
        static final int MAX_BYTES = ControlDoor.MAX_REQUEST_BYTES;

        public enum Verb { RELEASE, STOP }

        static Optional<Request> parse(byte[] line) {
            if (line.length > MAX_BYTES) return Optional.empty();
            String s;
            try {
                s = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(line)).toString();
            } catch (CharacterCodingException e) {
                return Optional.empty();
            }
            int space = s.indexOf(' ');
            if (space < 0) return Optional.empty();
            Verb v;
            try {
                v = Verb.valueOf(s.substring(0, space));
            } catch (IllegalArgumentException e) {
                return Optional.empty();
            }
            String key = s.substring(space + 1);
            boolean bad = key.isEmpty() || key.chars().anyMatch(c -> c == 0 || c == '\r' || c == '\n');
            return bad ? Optional.empty() : Optional.of(new Request(v, key));
        }

        String line() {
            return verb + " " + key + "\n";
        }
    }

    private final ControlDoor door;

    private GuardControl(ControlDoor door) {
        this.door = door;
    }

    public static Path socketPath() {
        return GuardState.dir().resolve("control.sock");
    }

    /** Opens the door (root only: the directory is root's); anyone may connect, the peer's uid decides. */
    public static GuardControl open(Guard guard) throws IOException {
        return new GuardControl(ControlDoor.open(socketPath(), "guard", new ControlDoor.Answerer() {
            @Override
            public byte[] answer(byte[] line, int uid) {
                return lineOf(Request.parse(line).map(r -> GuardControl.answer(guard, r, uid))
                        .orElse("ERR usage: RELEASE KEY or STOP KEY (one line, UTF-8, at most " + Request.MAX_BYTES + " bytes)"));
            }

            @Override
            public byte[] refused(ControlDoor.Refusal why, String words) {
                return lineOf("ERR " + switch (why) {
                    case BUSY -> "busy";
                    case TIMEOUT -> "timeout";
                    case TOO_LONG -> "too long";
                } + ": " + words);
            }
        }));
    }

    private static byte[] lineOf(String answer) {
        return (answer + "\n").getBytes(StandardCharsets.UTF_8);
    }

    private static String answer(Guard guard, Request r, int uid) {
        Optional<HeldGroup> held = guard.status().stream().filter(h -> h.key().equals(r.key())).findFirst();
        if (held.isEmpty()) return "ERR not held: " + r.key();
        if (uid != 0 && uid != held.get().owner()) return "ERR refused: the group is not yours (uid " + uid + "), and only root or its owner decide";
        String by = uid == 0 ? "root" : "uid " + uid;
        return switch (r.verb()) {
            case RELEASE -> guard.release(r.key(), by).map(done -> "OK released: " + String.join("; ", done)).orElse("ERR not held: " + r.key());
            case STOP -> guard.stopToZero(r.key(), "asked by " + by).map(o -> "OK " + o.status()).orElse("ERR could not stop " + r.key());
        };
    }

    /** Sends one request to the running guard; its answer line. */
    public static String ask(Request r) throws IOException {
        byte[] answer = ControlDoor.ask(socketPath(), r.line().getBytes(StandardCharsets.UTF_8), 64 * 1024, ASK_TIMEOUT);
        return new String(answer, StandardCharsets.UTF_8).trim();
    }

    /** A request in words for the command line. */
    public static Request release(String key) {
        return new Request(Request.Verb.RELEASE, key);
    }

    public static Request stop(String key) {
        return new Request(Request.Verb.STOP, key);
    }

    @Override
    public void close() {
        door.close();
    }

    /** The verbs, for help texts. */
    public static List<String> verbs() {
        return List.of("RELEASE KEY", "STOP KEY");
    }
}
