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
}
