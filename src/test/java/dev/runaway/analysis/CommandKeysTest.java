// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class CommandKeysTest {

    /** A process whose command line is not read yet: a program keeps its key, an interpreter's is marked, never bare. */
    @Test
    void withoutTheCommandLineAProgramKeepsItsKeyAndAnInterpreterIsMarked() {
        assertThat(CommandKeys.withoutCmdline("/tmp/drill/cache/tool", "tool")).isEqualTo("/tmp/drill/cache/tool")
                .isEqualTo(CommandKeys.of(List.of("/tmp/drill/cache/tool", "pressing", "50"), "/tmp/drill/cache/tool", "tool"));
        assertThat(CommandKeys.withoutCmdline("/usr/bin/bash", "bash")).isEqualTo("/usr/bin/bash (command line unread)");
        assertThat(CommandKeys.withoutCmdline("/usr/bin/python3.11", "python3")).isEqualTo("/usr/bin/python3.11 (command line unread)");
        assertThat(CommandKeys.withoutCmdline("/usr/lib/jvm/java-17/bin/java", "java")).endsWith(CommandKeys.CMDLINE_UNREAD);
        assertThat(CommandKeys.withoutCmdline("/memfd:payload", "payload")).isEqualTo("/memfd:payload (command line unread)");
        assertThat(CommandKeys.withoutCmdline("", "worker")).isEqualTo("worker (command line unread)");
        assertThat(CommandKeys.isProgram("/usr/bin/sleep")).isTrue();
        assertThat(CommandKeys.isProgram("/usr/bin/perl")).isFalse();
    }

    @Test
    void aCommandLineIsReadWhereTheKeyOrTheSelfCheckNeedsIt() {
        assertThat(CommandKeys.needsCommandLine("/usr/bin/sleep")).as("a program").isFalse();
        assertThat(CommandKeys.needsCommandLine("/tmp/drill/cache/tool")).isFalse();
        assertThat(CommandKeys.needsCommandLine("/usr/bin/bash")).as("a shell").isTrue();
        assertThat(CommandKeys.needsCommandLine("/usr/bin/python3.12")).isTrue();
        assertThat(CommandKeys.needsCommandLine("/usr/lib/jvm/java-17-openjdk-amd64/bin/java")).isTrue();
        assertThat(CommandKeys.needsCommandLine("/memfd:worker")).isTrue();
        assertThat(CommandKeys.needsCommandLine("")).as("an executable not read").isTrue();
        assertThat(CommandKeys.needsCommandLine("/usr/libexec/runaway/runaway-sandbox"))
                .as("a program: the console's own watchdogs are known by what it started, not by their arguments").isFalse();
        // Read or not, a program's key is the same.
        assertThat(CommandKeys.of(List.of(), "/usr/bin/sleep", "sleep")).isEqualTo(CommandKeys.of(List.of("sleep", "60"), "/usr/bin/sleep", "sleep"));
    }

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

    // --- keys that name one thing ---------------------------------------------------------

    /** A process running in {@code cwd}, in {@code cgroup} and {@code session}, with these descriptors. */
    private static CommandKeys.Where at(String cwd, String cgroup, int session, Map<Integer, String> fds) {
        return new CommandKeys.Where() {
            public Optional<String> cwd() {
                return Optional.ofNullable(cwd);
            }

            public Optional<String> fd(int fd) {
                return Optional.ofNullable(fds.get(fd));
            }

            public String cgroup() {
                return cgroup;
            }

            public int session() {
                return session;
            }
        };
    }

    @Test
    void aRelativeScriptIsResolvedAgainstTheWorkingDirectory() {
        List<String> cmd = List.of("bash", "loop.sh");
        assertThat(CommandKeys.of(cmd, "/usr/bin/bash", "bash", at("/srv/a", "/", 7, Map.of()))).isEqualTo("/srv/a/loop.sh");
        assertThat(CommandKeys.of(cmd, "/usr/bin/bash", "bash", at("/srv/b", "/", 7, Map.of()))).isEqualTo("/srv/b/loop.sh");
        assertThat(CommandKeys.of(List.of("python3", "../t/run.py"), "/usr/bin/python3.11", "python3",
                at("/srv/a/sub", "/", 7, Map.of()))).isEqualTo("/srv/a/t/run.py");
    }

    @Test
    void shellOptionsWithAnArgumentAreNotTheScript() {
        var here = at("/w", "/", 7, Map.of());
        assertThat(CommandKeys.of(List.of("bash", "-o", "errexit", "loop.sh"), "/usr/bin/bash", "bash", here)).isEqualTo("/w/loop.sh");
        assertThat(CommandKeys.of(List.of("bash", "-eo", "pipefail", "loop.sh"), "/usr/bin/bash", "bash", here)).isEqualTo("/w/loop.sh");
        assertThat(CommandKeys.of(List.of("bash", "-O", "extglob", "+o", "nounset", "loop.sh"), "/usr/bin/bash", "bash", here))
                .isEqualTo("/w/loop.sh");
        assertThat(CommandKeys.of(List.of("bash", "--rcfile", "rc", "--norc", "loop.sh"), "/usr/bin/bash", "bash", here))
                .isEqualTo("/w/loop.sh");
        assertThat(CommandKeys.of(List.of("bash", "--", "loop.sh"), "/usr/bin/bash", "bash", here)).isEqualTo("/w/loop.sh");
    }

    @Test
    void pythonOptionsWithAnArgumentAreNotTheScript() {
        var here = at("/w", "/", 7, Map.of());
        String py = "/usr/bin/python3.11";
        assertThat(CommandKeys.of(List.of("python3", "-W", "error", "run.py"), py, "python3", here)).isEqualTo("/w/run.py");
        assertThat(CommandKeys.of(List.of("python3", "-X", "dev", "-u", "run.py"), py, "python3", here)).isEqualTo("/w/run.py");
        assertThat(CommandKeys.of(List.of("python3", "-Werror", "run.py"), py, "python3", here)).isEqualTo("/w/run.py");
        assertThat(CommandKeys.of(List.of("python3", "-W", "error", "-m", "pytest", "-x"), py, "python3", here))
                .isEqualTo("python3 -m pytest");
        assertThat(CommandKeys.of(List.of("python3", "-mpytest"), py, "python3", here)).isEqualTo("python3 -m pytest");
    }

    @Test
    void inlineCodeIsKeyedByTheInterpreterAndItsCgroupOrElseItsSession() {
        List<String> bomb = List.of("bash", "-c", ":(){ :|:& };:");
        assertThat(CommandKeys.of(bomb, "/usr/bin/bash", "bash", at("/w", "/runaway-sandbox.1.2.3.bomb", 7, Map.of())))
                .isEqualTo("bash -c in cgroup /runaway-sandbox.1.2.3.bomb");
        assertThat(CommandKeys.of(bomb, "/usr/bin/bash", "bash", at("/w", "/", 4242, Map.of())))
                .isEqualTo("bash -c in session 4242");
        assertThat(CommandKeys.of(bomb, "/usr/bin/bash", "bash", at("/w", "/user.slice", 4242, Map.of())))
                .as("a slice is shared by many units: the session is narrower").isEqualTo("bash -c in session 4242");
        assertThat(CommandKeys.of(List.of("bash", "-ec", "x"), "/usr/bin/bash", "bash", at("/w", "/", 9, Map.of())))
                .isEqualTo("bash -c in session 9");
        assertThat(CommandKeys.of(List.of("python3", "-c", "x"), "/usr/bin/python3", "python3", at("/w", "/", 9, Map.of())))
                .isEqualTo("python3 -c in session 9");
        assertThat(CommandKeys.of(List.of("perl", "-ne", "print"), "/usr/bin/perl", "perl", at("/w", "/", 9, Map.of())))
                .isEqualTo("perl -e in session 9");
    }

    @Test
    void inlineCodeWithNeitherCgroupNorSessionIsKeyedByItsChainNeverMachineWide() {
        List<String> bomb = List.of("bash", "-c", ":(){ :|:& };:");
        CommandKeys.Where unscoped = at("/w", "/", 0, Map.of());
        CommandKeys.Where inChain = new CommandKeys.Where() {
            public Optional<String> cwd() {
                return unscoped.cwd();
            }

            public Optional<String> fd(int fd) {
                return Optional.empty();
            }

            public String cgroup() {
                return "/";
            }

            public int session() {
                return 0;
            }

            public int chain() {
                return 812;
            }
        };
        assertThat(CommandKeys.of(bomb, "/usr/bin/bash", "bash", inChain)).isEqualTo("bash -c in chain 812");
        assertThat(CommandKeys.of(bomb, "/usr/bin/bash", "bash", unscoped)).isEqualTo("bash -c (scope unknown)");
    }

    @Test
    void aScriptRunFromAFileDescriptorIsTheFileBehindIt() {
        var fds = at("/w", "/", 9, Map.of(3, "/tmp/bash_tool_1/script.sh", 63, "pipe:[4242]"));
        assertThat(CommandKeys.of(List.of("bash", "/dev/fd/3"), "/usr/bin/bash", "bash", fds)).isEqualTo("/tmp/bash_tool_1/script.sh");
        assertThat(CommandKeys.of(List.of("bash", "/dev/fd/63"), "/usr/bin/bash", "bash", fds))
                .as("code from a pipe is inline code").isEqualTo("bash /dev/fd/63 in session 9");
        assertThat(CommandKeys.of(List.of("/dev/fd/3", "--x"), "", "3", fds)).isEqualTo("/tmp/bash_tool_1/script.sh");
    }

    @Test
    void aProgramRunFromAMemfdIsTheNameItWasStartedAs() {
        assertThat(CommandKeys.of(List.of("line_io_tools/binary_backend", "--uid", "0"), "/memfd:sealed-91173221a7ea",
                "memfd:sealed-91")).isEqualTo("line_io_tools/binary_backend (memfd)");
    }
}
