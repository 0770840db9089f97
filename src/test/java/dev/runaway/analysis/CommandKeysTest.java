// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class CommandKeysTest {

    @Test
    void shellScriptIsKeyedByTheScript() {
        assertThat(CommandKeys.of(List.of("/bin/bash", "/tmp/x/deploy.sh"), "/usr/bin/bash", "deploy.sh"))
                .isEqualTo("/tmp/x/deploy.sh");
    }

    @Test
    void scriptPathIsNormalised() {
        assertThat(CommandKeys.of(List.of("bash", "/tmp/x/tests/../deploy.sh"), "/usr/bin/bash", "deploy.sh"))
                .isEqualTo("/tmp/x/deploy.sh");
    }

    @Test
    void shellOptionsBeforeTheScriptAreSkipped() {
        assertThat(CommandKeys.of(List.of("/bin/bash", "-x", "/tmp/x/deploy.sh"), "/usr/bin/bash", "deploy.sh"))
                .isEqualTo("/tmp/x/deploy.sh");
    }

    @Test
    void shellErrexitOptionIsNotInlineCode() {
        assertThat(CommandKeys.of(List.of("/bin/bash", "-e", "/tmp/x/deploy.sh"), "/usr/bin/bash", "deploy.sh"))
                .isEqualTo("/tmp/x/deploy.sh");
    }

    @Test
    void pythonModuleIsKeyedByTheModule() {
        assertThat(CommandKeys.of(List.of("python3", "-m", "unittest", "discover", "-s", "t"),
                "/usr/bin/python3.11", "python3")).isEqualTo("python3 -m unittest");
    }

    @Test
    void pythonScriptIsKeyedByTheScript() {
        assertThat(CommandKeys.of(List.of("/usr/bin/python3", "script.py"), "/usr/bin/python3.11", "python3"))
                .isEqualTo("script.py");
    }

    @Test
    void inlineShellCodeIsKeyedByTheShell() {
        assertThat(CommandKeys.of(List.of("sh", "-c", "echo hi"), "/usr/bin/dash", "sh")).isEqualTo("sh -c");
    }

    @Test
    void javaJarIsKeyedByTheJar() {
        assertThat(CommandKeys.of(List.of("java", "-jar", "/opt/app.jar"), "/usr/lib/jvm/java-17/bin/java", "java"))
                .isEqualTo("/opt/app.jar");
    }

    @Test
    void javaMainClassIsKeyedByTheClassAfterTheClasspath() {
        assertThat(CommandKeys.of(List.of("java", "-cp", "a:b", "com.x.Main"), "/usr/lib/jvm/java-17/bin/java", "java"))
                .isEqualTo("java com.x.Main");
    }

    @Test
    void plainBinaryIsKeyedByItsExecutable() {
        assertThat(CommandKeys.of(List.of("sleep", "5"), "/usr/bin/sleep", "sleep")).isEqualTo("/usr/bin/sleep");
        assertThat(CommandKeys.of(List.of("/usr/bin/sleep"), "/usr/bin/sleep", "sleep")).isEqualTo("/usr/bin/sleep");
    }

    @Test
    void kernelThreadIsItsNameInBrackets() {
        assertThat(CommandKeys.of(List.of(), "", "kworker/0:1")).isEqualTo("[kworker/0:1]");
    }

    @Test
    void unreadableExeFallsBackToTheFirstArgument() {
        assertThat(CommandKeys.of(List.of("/opt/tool", "--fast"), "", "tool")).isEqualTo("/opt/tool");
    }

    @Test
    void interactiveShellIsKeyedByItsExecutable() {
        assertThat(CommandKeys.of(List.of("bash"), "/usr/bin/bash", "bash")).isEqualTo("/usr/bin/bash");
        assertThat(CommandKeys.of(List.of("-bash"), "/usr/bin/bash", "bash")).isEqualTo("/usr/bin/bash");
    }

    @Test
    void baseNameIsTheLastPathElement() {
        assertThat(CommandKeys.baseName("/usr/bin/python3.11")).isEqualTo("python3.11");
        assertThat(CommandKeys.baseName("bash")).isEqualTo("bash");
    }
}
