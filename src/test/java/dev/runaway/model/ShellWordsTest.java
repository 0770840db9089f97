// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.model;

import dev.runaway.sandbox.ShellRoundTrip;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** A suggested command, pasted into a real sh, gives the program exactly the key as one argument, and shows nothing raw. */
@Tag("process")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ShellWordsTest {

    @Test
    void everyKeyReadsBackFromARealShellAsOneArgument() throws Exception {
        List<String> keys = List.of(ShellRoundTrip.HOSTILE_KEY, "it's", "", "'", "\n", "a\n", "\n\nb\n", "\u001b\n\u001b",
                "a\nb", "ünï\u202e\u0085cødé 𝄞", "$HOME `id` $(id) ; rm -rf / #", "/usr/bin/python3 -m unittest", "-x");
        for (String key : keys) {
            String line = "runaway guard --release " + ShellWords.quote(key);
            assertThat(ShellRoundTrip.arguments(line, "runaway")).as(line).containsExactly("guard", "--release", key);
        }
    }

    @Test
    void theQuotedWordHoldsNothingATerminalActsOn() {
        String word = ShellWords.quote(ShellRoundTrip.HOSTILE_KEY);
        assertThat(word.chars().filter(c -> SafeText.unsafe((char) c))).as(word).isEmpty();
        assertThat(ShellWords.quote("it's")).isEqualTo("'it'\\''s'");
        assertThat(ShellWords.quote("/tmp/d/deploy.sh")).isEqualTo("'/tmp/d/deploy.sh'");
        // Newlines that end a key have no printable POSIX form: quoted raw, and escaped where a face is one line per entry.
        assertThat(ShellWords.quote("a\n")).isEqualTo("'a''\n'");
        assertThat(ShellWords.quoteOnOneLine("a\n")).doesNotContain("\n");
    }
}
