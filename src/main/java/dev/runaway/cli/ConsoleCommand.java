// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import dev.runaway.analysis.LiveAnalysis;
import dev.runaway.drill.Drill;
import dev.runaway.drill.Drills;
import dev.runaway.drill.Scenario;
import dev.runaway.stop.act.OomShield;
import dev.runaway.timeline.IncidentFiles;
import dev.runaway.tui.TopScreen;
import dev.runaway.ui.ConsoleApp;
import dev.runaway.ui.ConsoleSession;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code runaway console}: the window (live, on a drill, or a recording), or the terminal view without a display. */
@Command(name = "console", mixinStandardHelpOptions = true,
        description = {"The incident console window: live chains, incident charts and the guided stop button.",
                "Records the incident to " + "$XDG_STATE_HOME/runaway/incidents/ unless told otherwise. Without a display, "
                        + "shows the terminal view (runaway top)."},
        footerHeading = "%nExamples:%n",
        footer = {"  runaway console --drill orphans      practice: a contained runaway, then the stop button",
                "  runaway console --replay FILE        browse a recorded incident as if live",
                "  runaway console --no-record"})
public final class ConsoleCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @ArgGroup(exclusive = true)
    Source source;

    static final class Source {
        @Option(names = "--drill", paramLabel = "SHAPE", description = "start a drill (linear, orphans, recursive, fanout) and show it, marked DRILL")
        String drill;

        @Option(names = "--replay", paramLabel = "FILE", description = "open a recorded incident instead of the live machine")
        Path replay;
    }

    @ArgGroup(exclusive = true)
    Recording recording;

    static final class Recording {
        @Option(names = "--record", paramLabel = "FILE", description = "record the incident to FILE")
        Path file;

        @Option(names = "--no-record", description = "do not record")
        boolean off;
    }

    @Option(names = "--max-tasks", paramLabel = "N", description = "with --drill: the drill's process-count cap (default: per shape)")
    Integer maxTasks;

    @Option(names = "--dark", description = "start with the dark theme (else the one last chosen with Ctrl+T, else the"
            + " desktop's color-scheme)")
    boolean dark;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Path replay = source == null ? null : source.replay;
        if (replay != null && !Files.isReadable(replay)) {
            err.println("runaway console: cannot read " + replay);
            return 2;
        }
        Scenario scenario = null;
        if (source != null && source.drill != null) {
            try {
                scenario = Scenario.parse(source.drill);
            } catch (IllegalArgumentException e) {
                err.println("runaway console: " + e.getMessage());
                return 2;
            }
        }
        if (!DrillCommand.hasDisplay()) {
            err.println("runaway console: no display (DISPLAY and WAYLAND_DISPLAY are unset); showing the terminal view instead.");
            err.flush();
            if (replay != null) {
                err.println("runaway console: a recording needs the window; for a text summary use: runaway replay "
                        + dev.runaway.model.ShellWords.quoteOnOneLine(replay.toString()));
                return 2;
            }
            return terminal(out, scenario);
        }
        OomShield.protectSelf(Path.of("/proc"), null).ifPresent(err::println);
        ConsoleSession session = replay != null ? ConsoleSession.replay(replay) : ConsoleSession.live(recordTo());
        dev.runaway.view.FirstContact.startup(dev.runaway.view.FirstContact.Kind.SESSION_STARTED);
        Scenario drillShape = scenario;
        try {
            session.recorder().flatMap(r -> r.writer()).ifPresent(w -> out.println("Recording to " + w.file()));
            out.flush();
            java.nio.file.Path themeFile = ConsoleApp.themeFile();
            ConsoleApp.show(session, ConsoleApp.darkAtStart(dark, themeFile), themeFile, ms -> {
                err.printf("runaway console: the window showed %.2f s after the JVM started%n", ms / 1000.0);
                err.flush();
                // The drill starts once the window is up, so the window opens at its own speed.
                if (drillShape != null) startDrill(session, drillShape, out, err);
            });
        } catch (RuntimeException | LinkageError e) {
            err.println("runaway console: the window could not open (" + e.getMessage() + "). For the window, install GTK 3: "
                    + "apt-get install libgtk-3-0");
            return 2;
        } finally {
            session.drill().ifPresent(d -> out.println("Tearing the drill down..."));
            out.flush();
            session.close();
        }
        return 0;
    }

    private void startDrill(ConsoleSession session, Scenario shape, PrintWriter out, PrintWriter err) {
        Thread t = new Thread(() -> {
            try {
                Drill drill = Drills.start(shape, maxTasks != null ? maxTasks : shape.defaultMaxTasks(), ConsoleSession.DRILL_LIFETIME, false);
                out.println(drill.describe());
                out.flush();
                session.adopt(drill);
            } catch (java.io.IOException | RuntimeException e) {
                err.println("runaway console: the drill could not start: " + e.getMessage());
                err.flush();
            }
        }, "runaway-console-drill");
        t.setDaemon(true);
        t.start();
    }

    private Optional<Path> recordTo() {
        if (recording != null && recording.off) return Optional.empty();
        if (recording != null && recording.file != null) return Optional.of(recording.file);
        return Optional.of(IncidentFiles.fresh());
    }

    /** No display: the terminal view of the same analysis (a drill runs under it until q). */
    private int terminal(PrintWriter out, Scenario scenario) throws Exception {
        Drill drill = scenario == null ? null
                : Drills.start(scenario, maxTasks != null ? maxTasks : scenario.defaultMaxTasks(), ConsoleSession.DRILL_LIFETIME, false);
        try (LiveAnalysis live = LiveAnalysis.live().start()) {
            if (drill != null) out.println(drill.describe());
            TopScreen screen = new TopScreen(live, out);
            if (System.console() != null) screen.showInteractive(1000);
            else screen.showBatch(3, 1000);
        } finally {
            if (drill != null) out.println("Tore down " + drill.info().id() + ": " + drill.teardown().summary());
        }
        return 0;
    }
}
