// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/** {@code runaway protect}: a process cap for every terminal window, through systemd user drop-ins. */
@Command(name = "protect", mixinStandardHelpOptions = true,
        description = {"Cap the tasks of every terminal window and app, so one runaway cannot take the desktop down.",
                "It writes systemd user drop-ins for app-*.scope and vte-spawn-*.scope: a runaway in one window stops at",
                "the cap and the rest of the desktop carries on.",
                "Where systemd is not running it says so and changes nothing; --dir prepares the files elsewhere."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:done", "2:usage", "3:systemd is not running here: nothing changed", "4:the settings did not verify"})
public final class ProtectCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--tasks-max", paramLabel = "N", defaultValue = "1024", description = "tasks per window (default: ${DEFAULT-VALUE})")
    int tasksMax;

    @Option(names = "--memory-max", paramLabel = "SIZE", description = "memory per window, e.g. 8G")
    String memoryMax;

    @Option(names = "--swap-max", paramLabel = "SIZE", description = "swap per window, e.g. 0 or 1G")
    String swapMax;

    @Option(names = "--undo", description = "remove the drop-ins")
    boolean undo;

    @Option(names = "--status", description = "show the caps in force")
    boolean status;

    @Option(names = "--dir", paramLabel = "DIR", description = "write to DIR instead of the user's systemd folder (no systemd needed)")
    Path dir;

    Map<String, String> environment = System.getenv();

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (tasksMax < 1) {
            err.println("runaway protect: --tasks-max must be at least 1");
            return 2;
        }
        Path target = dir != null ? dir : DropIns.userDir(environment, System.getProperty("user.home"));
        if (status) {
            List<String> lines = DropIns.status(target);
            if (lines.isEmpty()) out.println("No runaway protect caps in " + target);
            lines.forEach(l -> out.println(l + "   (" + target + ")"));
            return 0;
        }
        if (dir == null && !systemdRunning()) {
            err.println("runaway protect: systemd is not running here (no /run/systemd/system): nothing changed."
                    + " Use --dir DIR to prepare the drop-ins for another machine.");
            return 3;
        }
        if (undo) {
            List<java.nio.file.Path> removed = DropIns.remove(target);
            out.println(removed.isEmpty() ? "No runaway protect drop-ins in " + target : "Removed " + removed);
            if (dir == null) reload(err);
            return 0;
        }
        String content;
        try {
            content = DropIns.content(tasksMax, size(memoryMax), size(swapMax));
        } catch (IllegalArgumentException e) {
            err.println("runaway protect: " + e.getMessage());
            return 2;
        }
        String verified = verify(content);
        if (verified != null) {
            err.println("runaway protect: the settings did not verify: " + verified);
            return 4;
        }
        List<java.nio.file.Path> written = DropIns.write(target, content);
        out.println("Wrote " + written + ": TasksMax=" + tasksMax + (memoryMax != null ? " MemoryMax=" + memoryMax : "")
                + (swapMax != null ? " MemorySwapMax=" + swapMax : ""));
        if (dir == null) {
            reload(err);
            out.println("New windows get the cap; windows already open keep theirs until reopened. Undo: runaway protect --undo");
        }
        return 0;
    }

    private static OptionalLong size(String text) {
        if (text == null) return OptionalLong.empty();
        return text.trim().equals("0") ? OptionalLong.of(0) : OptionalLong.of(Sizes.parse(text));
    }

    static boolean systemdRunning() {
        return Files.isDirectory(Path.of("/run/systemd/system"));
    }

    /**
     * systemd-analyze verify knows no scope from a file, so the same settings are checked in a
     * throwaway service unit; null when they pass or the tool is absent.
     */
    static String verify(String content) throws IOException, InterruptedException {
        Path tool = Path.of("/usr/bin/systemd-analyze");
        if (!Files.isExecutable(tool)) return null;
        Path work = Files.createTempDirectory("runaway-protect-verify");
        Path unit = work.resolve("runaway-protect-check.service");
        try {
            Files.writeString(unit, content.replace("[Scope]", "[Service]\nExecStart=/bin/true"));
            Process p = new ProcessBuilder(tool.toString(), "verify", "--man=no", unit.toString()).redirectErrorStream(true).start();
            String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "systemd-analyze did not answer";
            }
            for (String line : said.split("\n")) {
                if (line.contains("runaway-protect-check.service:") && (line.contains("Unknown") || line.contains("Failed to parse")
                        || line.contains("Invalid"))) {
                    return line.trim();
                }
            }
            return null;
        } finally {
            Files.deleteIfExists(unit);
            Files.deleteIfExists(work);
        }
    }

    private static void reload(PrintWriter err) {
        try {
            Process p = new ProcessBuilder("systemctl", "--user", "daemon-reload").redirectErrorStream(true).start();
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) err.println("runaway protect: systemctl --user daemon-reload failed");
        } catch (IOException | InterruptedException e) {
            err.println("runaway protect: could not reload systemd: " + e.getMessage());
        }
    }
}
