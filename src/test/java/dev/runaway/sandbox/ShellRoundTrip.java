// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sandbox;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * For tests of suggested commands: what a real POSIX sh ({@code /bin/sh}, dash here) passes to
 * the program when a person pastes the command, run in a sandbox of the test's own.
 */
public final class ShellRoundTrip {
    /** A file name with what a terminal acts on (ESC [2J, BEL, newline, CR) and what a shell does (quotes, backticks, $(), a backslash). */
    public static final String HOSTILE_NAME = "x\u001b[2J\u0007y\nz\rq'it'\\''s`id`$(id)\\n ;end";
    /** A key of that name, with a bidi override too. */
    public static final String HOSTILE_KEY = "/tmp/" + HOSTILE_NAME + "\u202e";

    private ShellRoundTrip() {
    }

    /**
     * The arguments {@code /bin/sh -c} gives PROGRAM in LINE (a command line that starts with
     * PROGRAM): PROGRAM is replaced by a function that prints each argument NUL-terminated (a
     * {@code printf '%s\n'} could not tell one argument holding a newline from two).
     */
    public static List<String> arguments(String line, String program) throws Exception {
        if (!line.startsWith(program + " ")) throw new IllegalArgumentException("not a command of " + program + ": " + line);
        String script = "args() { printf '%s\\0' \"$@\"; }\nargs" + line.substring(program.length()) + "\n";
        try (Sandbox box = Sandboxes.create(SandboxSpec.of("test-shell-words", 8))) {
            Process sh = box.start(new ProcessBuilder("/bin/sh", "-c", script).redirectError(ProcessBuilder.Redirect.DISCARD));
            byte[] out = sh.getInputStream().readAllBytes();
            if (!sh.waitFor(20, TimeUnit.SECONDS)) throw new AssertionError("sh did not end");
            if (sh.exitValue() != 0) throw new AssertionError("sh said " + sh.exitValue() + " for " + script);
            List<String> args = new ArrayList<>();
            ByteArrayOutputStream arg = new ByteArrayOutputStream();
            for (byte b : out) {
                if (b != 0) {
                    arg.write(b);
                    continue;
                }
                args.add(arg.toString(StandardCharsets.UTF_8));
                arg.reset();
            }
            return args;
        }
    }
}
