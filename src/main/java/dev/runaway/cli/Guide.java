// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import picocli.CommandLine;
import picocli.CommandLine.Model.UsageMessageSpec;

import java.util.Map;
import java.util.stream.Stream;

/**
 * Where each command's part of the user guide is installed: the package builds docs/*.md into
 * HTML under {@link #DIR} (packaging/guide), and every {@code --help} ends with its page.
 */
final class Guide {
    static final String DIR = "/usr/share/doc/runaway/html/";

    /** The page of each command, by the name of its docs/*.md; the rest get the guide's index. */
    private static final Map<String, String> PAGES = Map.ofEntries(
            Map.entry("stop", "guided-stop"), Map.entry("guard", "guard"), Map.entry("metrics", "metrics"),
            Map.entry("console", "console"), Map.entry("drill", "drills"), Map.entry("bench", "drills"),
            Map.entry("record", "recording"), Map.entry("replay", "recording"), Map.entry("export", "export"),
            Map.entry("oom", "oom-events"), Map.entry("run", "prevention"), Map.entry("protect", "prevention"));

    private Guide() {
    }

    /** The installed page for a command ({@code guide} is docs/guide.md, installed as index.html). */
    static String page(String command) {
        String doc = PAGES.getOrDefault(command, "guide");
        return DIR + (doc.equals("guide") ? "index" : doc) + ".html";
    }

    /** The docs/*.md a command's page is built from. */
    static String source(String command) {
        return PAGES.getOrDefault(command, "guide") + ".md";
    }

    /** Ends the help of the command and of each of its subcommands with a line naming its page. */
    static CommandLine pointFrom(CommandLine command) {
        UsageMessageSpec usage = command.getCommandSpec().usageMessage();
        String line = "Guide: " + page(command.getCommandSpec().name());
        usage.footer(Stream.concat(Stream.of(usage.footer()), Stream.of("%n" + line)).toArray(String[]::new));
        command.getSubcommands().values().forEach(Guide::pointFrom);
        return command;
    }
}
