// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code runaway} command line: one class per subcommand. */
@Command(name = "runaway", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Incident console for runaway process chains.",
        subcommands = {ScanCommand.class, TopCommand.class, StopCommand.class, RecordCommand.class, ReplayCommand.class, ExportCommand.class,
                OomCommand.class, MetricsCommand.class, RunCommand.class, ProtectCommand.class, DrillCommand.class, ConsoleCommand.class, BenchCommand.class,
                CommandLine.HelpCommand.class})
public final class Main implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        dev.runaway.sys.Jna.knownPaths(); // before anything loads JNA
        EarlyScan.beginFor(args);
        System.exit(commandLine().execute(args));
    }

    static CommandLine commandLine() {
        return new CommandLine(new Main()).setCaseInsensitiveEnumValuesAllowed(true)
                .setExecutionExceptionHandler(Main::explain);
    }

    /** A failure is told in words, with exit status 2; the stack trace only when asked for. */
    private static int explain(Exception e, CommandLine command, CommandLine.ParseResult parsed) {
        command.getErr().println("runaway " + command.getCommandName() + ": " + e.getMessage());
        if (System.getenv("RUNAWAY_DEBUG") != null) e.printStackTrace(command.getErr());
        else command.getErr().println("(set RUNAWAY_DEBUG=1 for the details)");
        return 2;
    }
}
