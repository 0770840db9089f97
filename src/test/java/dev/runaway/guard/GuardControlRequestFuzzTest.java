// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.guard;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The control socket's request parser fed random lines (anyone may write to the socket): it never
 * throws, and a line it accepts is exactly one request, whose bytes are the line's bytes: no
 * replacement character for bytes that are not UTF-8 (two byte strings, one key), no truncation, no
 * NUL or CR in a key. Well-formed requests, with keys of any script, are all accepted as sent.
 */
class GuardControlRequestFuzzTest {
    private static final byte[][] PIECES = {"RELEASE".getBytes(StandardCharsets.US_ASCII), "STOP".getBytes(StandardCharsets.US_ASCII),
            {' '}, {'/'}, {0}, {'\r'}, {'\n'}, {(byte) 0xc3}, {(byte) 0xa9}, {(byte) 0xff}, {(byte) 0xed, (byte) 0xa0, (byte) 0x80},
            "é".getBytes(StandardCharsets.UTF_8), "\u001b[2J".getBytes(StandardCharsets.UTF_8), "release".getBytes(StandardCharsets.US_ASCII)};

    @Test
    void randomLinesNeverThrowAndWhatIsAcceptedIsExactlyWhatWasSent() {
        Random rng = new Random(40);
        int accepted = 0;
        for (int i = 0; i < 200_000; i++) {
            byte[] line = randomLine(rng);
            Optional<GuardControl.Request> r = GuardControl.Request.parse(line);
            if (r.isEmpty()) continue;
            accepted++;
            byte[] back = r.get().line().getBytes(StandardCharsets.UTF_8);
            assertThat(Arrays.copyOf(back, back.length - 1)).as("accepted %s", Arrays.toString(line)).isEqualTo(line);
            assertThat(r.get().key()).doesNotContain("\0", "\r", "\n").isNotEmpty();
            assertThat(line.length).isLessThanOrEqualTo(GuardControl.Request.MAX_BYTES);
        }
        assertThat(accepted).as("some random lines are requests").isGreaterThan(1000);
    }

    @Test
    void wellFormedRequestsOfAnyScriptAreAcceptedAsSent() {
        Random rng = new Random(41);
        for (int i = 0; i < 20_000; i++) {
            StringBuilder key = new StringBuilder("/");
            for (int n = rng.nextInt(60); n > 0; n--) {
                int c;
                do {
                    c = rng.nextBoolean() ? 0x20 + rng.nextInt(0x5f) : rng.nextInt(0x10ffff);
                } while (c == 0 || c == '\r' || c == '\n' || (c >= 0xd800 && c <= 0xdfff));
                key.appendCodePoint(c);
            }
            GuardControl.Request sent = rng.nextBoolean() ? GuardControl.release(key.toString()) : GuardControl.stop(key.toString());
            byte[] line = sent.line().getBytes(StandardCharsets.UTF_8);
            assertThat(GuardControl.Request.parse(Arrays.copyOf(line, line.length - 1))).contains(sent);
        }
    }

    @Test
    void aLineLongerThanTheLimitIsNoRequest() {
        byte[] longKey = ("RELEASE /" + "a".repeat(GuardControl.Request.MAX_BYTES)).getBytes(StandardCharsets.US_ASCII);
        assertThat(GuardControl.Request.parse(longKey)).isEmpty();
        assertThat(GuardControl.Request.parse(Arrays.copyOf(longKey, GuardControl.Request.MAX_BYTES))).isPresent();
    }

    private static byte[] randomLine(Random rng) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        if (rng.nextInt(3) > 0) out.writeBytes(rng.nextBoolean() ? PIECES[0] : PIECES[1]);
        if (rng.nextInt(3) > 0) out.write(' ');
        for (int n = rng.nextInt(rng.nextInt(50) == 0 ? 6000 : 40); n > 0; n--) {
            if (rng.nextInt(4) == 0) out.writeBytes(PIECES[rng.nextInt(PIECES.length)]);
            else out.write(rng.nextInt(8) == 0 ? rng.nextInt(256) : 0x21 + rng.nextInt(0x5e));
        }
        return out.toByteArray();
    }
}
