// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.stop.helper.HelperBinding;
import dev.runaway.stop.helper.InstalledHelper;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The helper's polkit actions: valid against polkit's own DTD, pointing at the helper, one for
 * each first argument the console passes (pkexec picks an action by argv[1]); the stop's prompt
 * shows the console's description through $(command_line), the other says nothing is stopped yet.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("process")
class PolicyFileTest {
    private static final Path POLICY = Path.of("packaging/polkit/dev.runaway.helper.policy");
    private static final Path DTD = Path.of("/usr/share/polkit-1/policyconfig-1.dtd");

    private static String argv1(String first) {
        return "<annotate key=\"org.freedesktop.policykit.exec.argv1\">" + first + "</annotate>";
    }

    @Test
    void thePolicyIsValidAndNamesTheInstalledHelper() throws Exception {
        String text = Files.readString(POLICY);
        String[] actions = text.split("<action ", -1);
        assertThat(actions).as("two actions").hasSize(3);
        String prepare = actions[1], stop = actions[2];
        for (String action : List.of(prepare, stop)) {
            assertThat(action).contains("<allow_active>auth_admin_keep</allow_active>")
                    .contains("<annotate key=\"org.freedesktop.policykit.exec.path\">" + InstalledHelper.PATH + "</annotate>");
        }
        assertThat(prepare).startsWith("id=\"dev.runaway.helper\">")
                .contains(argv1(InstalledHelper.command(Optional.empty()).get(2)))
                .contains("Nothing is stopped yet").contains("only on a stop you confirm in Runaway")
                .doesNotContain("$(");
        HelperBinding confirmed = new HelperBinding("chain of pid 4242", Optional.empty(), List.of());
        assertThat(stop).startsWith("id=\"dev.runaway.helper.stop\">")
                .contains(argv1(InstalledHelper.command(Optional.of(confirmed)).get(2)))
                .containsPattern("<message>[^<]*\\$\\(command_line\\)[^<]*</message>");
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
