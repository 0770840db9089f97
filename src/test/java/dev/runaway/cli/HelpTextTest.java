// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --help} and the man pages (generated from the same model) never cut a description:
 * the list of commands shows each command's first description line alone, so that line must be
 * a whole sentence; and every command's help must render, ending with the page of the installed
 * guide that packaging/guide builds for it, never a checkout's docs/*.md.
 */
class HelpTextTest {
    @Test
    void theFirstDescriptionLineOfEveryCommandIsAWholeSentence() {
        Map<String, CommandLine> commands = Main.commandLine().getSubcommands();
        assertThat(commands).containsKeys("replay", "export", "oom", "top");
        commands.forEach((name, command) -> {
            String[] description = command.getCommandSpec().usageMessage().description();
            assertThat(description).as(name).isNotEmpty();
            assertThat(description[0].strip()).as("the first description line of '%s'", name).endsWith(".");
        });
    }

    @Test
    void theCommandListShowsReplayExportAndOomWhole() {
        StringWriter text = new StringWriter();
        Main.commandLine().usage(new PrintWriter(text));
        String usage = text.toString().replaceAll("\\s+", " ");
        assertThat(usage).contains("chains and recursion, caps, OOM kills, the guided stop's steps and time to zero.");
        assertThat(usage).contains("the JSON incident, and a one-page report (HTML with the charts inlined, Markdown beside the PNGs).");
        assertThat(usage).contains("from the journal where it has them, else the kernel's ring buffer.");
    }

    @Test
    void everyHelpEndsWithItsPageOfTheInstalledGuide() throws IOException {
        String built = Files.readString(Path.of("packaging/guide"));
        assertThat(built).contains("pages=(guide ");
        String pages = built.substring(built.indexOf("pages=(") + 7, built.indexOf(')', built.indexOf("pages=(")));
        checkHelp(Main.commandLine(), " " + pages + " ");
    }

    private static void checkHelp(CommandLine command, String pages) {
        String name = command.getCommandSpec().name();
        StringWriter text = new StringWriter();
        command.usage(new PrintWriter(text));
        String help = text.toString();
        assertThat(help).as("runaway %s --help", name).doesNotContain("docs/")
                .endsWith("Guide: " + Guide.page(name) + System.lineSeparator());
        String source = Guide.source(name);
        assertThat(Path.of("docs", source)).as("the page of '%s'", name).exists();
        assertThat(pages).as("packaging/guide installs docs/%s", source).contains(" " + source.replace(".md", "") + " ");
        command.getSubcommands().values().forEach(sub -> checkHelp(sub, pages));
    }
}
