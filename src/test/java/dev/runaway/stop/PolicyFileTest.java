// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The helper's polkit action: valid against polkit's own DTD, one action, pointing at the helper. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("process")
class PolicyFileTest {
    private static final Path POLICY = Path.of("packaging/polkit/dev.runaway.helper.policy");
    private static final Path DTD = Path.of("/usr/share/polkit-1/policyconfig-1.dtd");

    @Test
    void thePolicyIsValidAndNamesTheInstalledHelper() throws Exception {
        String text = Files.readString(POLICY);
        assertThat(text).contains("<action id=\"dev.runaway.helper\">")
                .contains("<allow_active>auth_admin_keep</allow_active>")
                .contains("<annotate key=\"org.freedesktop.policykit.exec.path\">/usr/libexec/runaway/runaway-helper</annotate>");
        assertThat(text.split("<action ", -1)).as("exactly one action").hasSize(2);
        assertThat(DTD).as("polkit's DTD (Debian's polkitd)").exists();
        try (Sandbox box = Sandboxes.create(SandboxSpec.of("test-policy", 8))) {
            Process xmllint = box.start(new ProcessBuilder("xmllint", "--noout", "--dtdvalid", DTD.toString(), POLICY.toString())
                    .redirectErrorStream(true));
            String output = new String(xmllint.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(xmllint.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(xmllint.exitValue()).as(output).isZero();
        }
    }
}
