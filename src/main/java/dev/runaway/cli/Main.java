// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code runaway} command line: one class per subcommand. */
@Command(name = "runaway", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Incident console for runaway process chains.",
        subcommands = {ScanCommand.class, TopCommand.class, StopCommand.class, RecordCommand.class, ReplayCommand.class, ExportCommand.class,
                OomCommand.class, MetricsCommand.class, GuardCommand.class, RunCommand.class, ProtectCommand.class, DrillCommand.class, ConsoleCommand.class, BenchCommand.class,
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
        String first = args.length > 0 ? args[0] : "";
        System.exit(first.equals("scan") ? alone(new ScanCommand(), args) : first.equals("stop") ? alone(new StopCommand(), args)
                : commandLine().execute(args));
    }

    static CommandLine commandLine() {
        return configured(new CommandLine(new Main()));
    }

    /**
     * {@code runaway scan} and {@code runaway stop} parsed by a command line of that command
     * alone: modelling every subcommand takes picocli about 100 ms of CPU in a cold JVM, which on
     * two cores the scan's reading threads were waiting for (a one-shot scan is to be as quick as
     * ps), and which a stop during a fire spends before it can kill.
     */
    static int alone(Object command, String[] args) {
        String name = "runaway " + args[0];
        CommandLine alone = configured(new CommandLine(command)).setCommandName(name);
        return alone.execute(java.util.Arrays.copyOfRange(args, 1, args.length));
    }

    private static CommandLine configured(CommandLine commandLine) {
        return Guide.pointFrom(commandLine.setCaseInsensitiveEnumValuesAllowed(true).setExecutionExceptionHandler(Main::explain));
    }

    /** A failure is told in words, with exit status 2; the stack trace only when asked for. */
    private static int explain(Exception e, CommandLine command, CommandLine.ParseResult parsed) {
        command.getErr().println("runaway " + command.getCommandName() + ": " + e.getMessage());
        if (System.getenv("RUNAWAY_DEBUG") != null) e.printStackTrace(command.getErr());
        else command.getErr().println("(set RUNAWAY_DEBUG=1 for the details)");
        return 2;
    }
}
