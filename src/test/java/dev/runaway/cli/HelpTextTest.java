package dev.runaway.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --help} and the man pages (generated from the same model) never cut a description:
 * the list of commands shows each command's first description line alone, so that line must be
 * a whole sentence; and every command's help must render.
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
}
