package dev.runaway.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code runaway} command line: one class per subcommand. */
@Command(name = "runaway", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Incident console for runaway process chains.",
        subcommands = {DrillCommand.class, CommandLine.HelpCommand.class})
public final class Main implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    static CommandLine commandLine() {
        return new CommandLine(new Main()).setCaseInsensitiveEnumValuesAllowed(true);
    }
}
