// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.model;

import org.junit.jupiter.api.Test;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** Process names are their owners' choice: none of their control characters reaches a terminal or markup raw. */
class SafeTextTest {
    private static final String HOSTILE = "evil\u001b[2J\u0007\r\u007f\u009b31m\\ <b>&'\"\ud800 ok";

    @Test
    void theTerminalSeesNoControlCharacter() {
        String shown = SafeText.terminal(HOSTILE);
        assertThat(shown.chars().filter(c -> c < 0x20 || (c >= 0x7f && c <= 0x9f))).isEmpty();
        assertThat(shown).startsWith("evil\\x1b[2J\\x07\\x0d\\x7f\\x9b31m\\\\ <b>");
        assertThat(SafeText.terminal("plain /usr/bin/python3 -m unittest")).isEqualTo("plain /usr/bin/python3 -m unittest");
        assertThat(SafeText.lines("a\u001b\nb\n")).isEqualTo("a\\x1b\nb\n");
    }

    @Test
    void markupIsWellFormedXmlWhateverTheName() throws Exception {
        String xml = "<p title=\"" + SafeText.markup(HOSTILE) + "\">" + SafeText.markup(HOSTILE) + "</p>";
        var doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
        assertThat(doc.getDocumentElement().getTextContent()).startsWith("evil\\x1b[2J\\x07").contains("<b>&'\"");
    }
}
