// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import dev.runaway.model.Argv;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A command line is kept bounded, and the key of an ordinary program is the one its whole command line gives. */
class LongCommandLineKeysTest {
    private static final String KIB64 = "x".repeat(64 * 1024);

    /** As ProcReader keeps a line it read whole. */
    private static List<String> kept(List<String> args) {
        return Argv.bounded(args, Argv.KEPT_CHARS);
    }

    @Test
    void a64KiBCommandLineIsKeptBoundedAndMarked() {
        List<String> args = new ArrayList<>(List.of("/usr/bin/python3", "/srv/app/job.py"));
        for (int i = 0; i < 64; i++) args.add(i + "y".repeat(1020));
        List<String> kept = kept(args);
        assertThat(Argv.chars(args)).isGreaterThan(64_000);
        assertThat(Argv.chars(kept)).isLessThanOrEqualTo(Argv.KEPT_CHARS + 64);
        assertThat(kept.subList(0, 2)).containsExactly("/usr/bin/python3", "/srv/app/job.py");
        assertThat(Argv.isCut(kept)).isTrue();
        assertThat(kept(List.of("/bin/sh", KIB64)).get(1)).hasSizeLessThan(Argv.ARG_CHARS + 20).contains("…#");
        assertThat(kept(List.of("/bin/sh", KIB64)).get(1)).as("two long arguments with the same start stay two")
                .isNotEqualTo(kept(List.of("/bin/sh", KIB64 + "z")).get(1));
        List<String> ordinary = List.of("python3", "-m", "unittest", "discover");
        assertThat(kept(ordinary)).as("an ordinary line is the same list").isSameAs(ordinary);
    }

    @Test
    void theKeyOfAnOrdinaryProgramIsUnchanged() {
        String longPath = "/srv/" + "d".repeat(4000) + "/run.sh"; // near PATH_MAX: never cut
        List<List<String>> lines = List.of(
                List.of("/usr/bin/python3", "/srv/app/job.py", KIB64),
                List.of("python3", "-u", "-W", "error", "/srv/app/job.py", KIB64, KIB64),
                List.of("/bin/bash", "-e", "-o", "pipefail", "/srv/ci/deploy.sh", KIB64),
                List.of("bash", longPath, KIB64),
                List.of("python3", "-m", "unittest", KIB64),
                List.of("java", "-cp", KIB64.substring(0, 30_000), "-Xmx1g", "com.example.Main", KIB64),
                List.of("node", "/srv/app/server.js", KIB64),
                List.of("sh", "-c", KIB64));
        String[] exes = {"/usr/bin/python3.11", "/usr/bin/python3.11", "/usr/bin/bash", "/usr/bin/bash", "/usr/bin/python3.11",
                "/usr/lib/jvm/bin/java", "/usr/bin/node", "/usr/bin/dash"};
        for (int i = 0; i < lines.size(); i++) {
            List<String> whole = lines.get(i);
            String comm = CommandKeys.baseName(whole.get(0));
            assertThat(CommandKeys.of(kept(whole), exes[i], comm)).as(whole.get(0) + " " + whole.get(1))
                    .isEqualTo(CommandKeys.of(whole, exes[i], comm));
        }
        assertThat(CommandKeys.of(kept(lines.get(5)), exes[5], "java")).isEqualTo("java com.example.Main");
    }

    @Test
    void anInterpreterWhoseScriptWasCutAwayIsMarkedNeverBare() {
        List<String> options = new ArrayList<>(List.of("/bin/bash"));
        for (int i = 0; i < 40; i++) options.addAll(List.of("-o", "o" + "p".repeat(1000)));
        options.add("/srv/ci/deploy.sh");
        String key = CommandKeys.of(kept(options), "/usr/bin/bash", "bash");
        assertThat(key).isEqualTo("/usr/bin/bash" + CommandKeys.CMDLINE_CUT);
        assertThat(CommandKeys.of(kept(List.of("/opt/tool", KIB64, KIB64, "x")), "/opt/tool", "tool")).as("a program is its executable")
                .isEqualTo("/opt/tool");
    }
}
