// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.tui;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class KeysTest {
    private static List<Keys.Key> decode(String bytes) throws Exception {
        Keys keys = new Keys(new ByteArrayInputStream(bytes.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1)));
        List<Keys.Key> out = new ArrayList<>();
        for (Keys.Key k = keys.next(50); k != null; k = keys.next(50)) out.add(k);
        return out;
    }

    @Test
    void arrowsPageKeysEnterEscAndCharactersAreTold() throws Exception {
        assertThat(decode("\033[A\033[B\033OA\033[5~\033[6~\033[H\033[4~\r/k\177\003"))
                .extracting(Keys.Key::kind)
                .containsExactly(Keys.Kind.UP, Keys.Kind.DOWN, Keys.Kind.UP, Keys.Kind.PAGE_UP, Keys.Kind.PAGE_DOWN,
                        Keys.Kind.HOME, Keys.Kind.END, Keys.Kind.ENTER, Keys.Kind.CHAR, Keys.Kind.CHAR, Keys.Kind.BACKSPACE,
                        Keys.Kind.INTERRUPT);
    }

    @Test
    void aLoneEscIsEsc() throws Exception {
        assertThat(decode("\033")).extracting(Keys.Key::kind).containsExactly(Keys.Kind.ESCAPE);
    }

    @Test
    void functionKeysOfEachFamilyAreToldNotReadAsEsc() throws Exception {
        // xterm/screen/tmux F1 F5 F6 F9 F10, rxvt's F1, the Linux console's F1 and F5
        assertThat(decode("\033OP\033[15~\033[17~\033[20~\033[21~\033[11~\033[[A\033[[E"))
                .extracting(Keys.Key::kind)
                .containsExactly(Keys.Kind.F1, Keys.Kind.F5, Keys.Kind.F6, Keys.Kind.F9, Keys.Kind.F10, Keys.Kind.F1,
                        Keys.Kind.F1, Keys.Kind.F5);
    }

    @Test
    void theTerminalsOwnSequenceFromItsEntryIsToldToo() throws Exception {
        java.io.InputStream in = new ByteArrayInputStream("\033[999z".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        Keys own = new Keys(millis -> in.available() > 0 ? in.read() : -2, java.util.Map.of("\033[999z", Keys.Kind.F9));
        assertThat(own.next(50)).isEqualTo(Keys.Key.of(Keys.Kind.F9));
    }

    @Test
    void aLeftClickIsItsRowAndColumnFromZeroAndTheWheelScrolls() throws Exception {
        // SGR: press at column 5, row 10 (from 1), its release dropped; then the wheel down; X10: press at 3,4
        List<Keys.Key> keys = decode("\033[<0;5;10M\033[<0;5;10m\033[<65;5;10M\033[M" + (char) 32 + (char) 35 + (char) 36 + "x");
        assertThat(keys).containsExactly(Keys.Key.click(9, 4), Keys.Key.of(Keys.Kind.DOWN), Keys.Key.click(3, 2), Keys.Key.ch('x'));
    }

    @Test
    void anUnknownSequenceIsOneEscNotAKeyOfItsOwn() throws Exception {
        assertThat(decode("\033[99~")).extracting(Keys.Key::kind).containsExactly(Keys.Kind.ESCAPE, Keys.Kind.CHAR, Keys.Kind.CHAR);
    }
}
