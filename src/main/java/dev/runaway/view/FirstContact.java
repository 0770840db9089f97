// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.view;

import dev.runaway.analysis.GroupColumn;
import dev.runaway.model.Json;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The console's first contact with a machine, as marks on one clock: its window shown, its
 * figures first shown, the runaway first named (drawn as the table's top row in sight, critical
 * and selected), and a guided stop's plan, confirmation and end. Each mark is taken once. Kept only
 * when asked for ({@link #ENVIRONMENT} names a file; {@code runaway bench stop --pressing N
 * --methods CONSOLE_OPENED} does), as one JSON line per mark.
 * <p>
 * Times are {@link System#nanoTime()}: CLOCK_MONOTONIC on Linux, one clock for every process of
 * the machine, so the bench that launched the console sets them against its own launch and keys.
 */
public final class FirstContact {
    /** The variable that names the marks' file. */
    public static final String ENVIRONMENT = "RUNAWAY_FIRST_CONTACT";

    public enum Kind {
        /** The JVM started (its uptime taken back from the window's shown moment): the launcher's share is before. */
        JVM_STARTED,
        /** The live session (its sampler) started, before the toolkit. */
        SESSION_STARTED,
        /** JavaFX started: its first runnable on the toolkit thread. */
        TOOLKIT_STARTED,
        /** The window is on the screen (the stage shown). */
        WINDOW_SHOWN,
        /** The header shows the machine's figures (the first pulse drawn). */
        FIGURES_SHOWN,
        /** The table got its first scan's rows. */
        FIRST_ROWS,
        /** The table's first row is a critical group, and it is selected: the runaway named. */
        RUNAWAY_NAMED,
        /** A stop's plan is on screen, its confirmation one Enter away. */
        PLAN_SHOWN,
        /** The plan was refused. */
        PLAN_REFUSED,
        /** Enter confirmed it. */
        CONFIRMED,
        /** The stop ended with zero confirmed. */
        ZERO_CONFIRMED,
        /** The stop ended without zero (survivors, or a failure). */
        ENDED_WITHOUT_ZERO
    }

    /**
     * One mark.
     *
     * @param command the group's command key ("" where none applies)
     * @param badge   the named row's badge ("AT CAP pids.max 20000"), else ""
     * @param rate    the named row's growth cell, else ""
     * @param tasks   the named row's tasks cell, else ""
     */
    public record Mark(Kind kind, long nanos, String command, String badge, String rate, String tasks) {
    }

    /** Takes no mark: a console nobody measures. */
    public static final FirstContact NONE = new FirstContact(null);

    private final Path file;
    private final Set<Kind> taken = EnumSet.noneOf(Kind.class);
    /** The critical, selected top row's key at the last layout, not named yet; else null. */
    private String namingSeen;

    private FirstContact(Path file) {
        this.file = file;
    }

    /** Marks appended to {@code file} (created if needed). */
    public static FirstContact toFile(Path file) {
        return new FirstContact(file);
    }

    /** From the variable's value: NONE when it is unset or empty. */
    public static FirstContact fromEnvironment(String value) {
        return value == null || value.isBlank() ? NONE : toFile(Path.of(value));
    }

    /**
     * A start-up moment of this process, before any window exists: kept in memory (a clock read)
     * and written with the window's shown mark, so measuring the start does not load the JSON
     * writer earlier than the console itself does.
     */
    public static void startup(Kind kind) {
        STARTUP.putIfAbsent(kind, System.nanoTime());
    }

    private static final java.util.Map<Kind, Long> STARTUP = new java.util.concurrent.ConcurrentHashMap<>();

    /** @param jvmUptimeMillis how long the JVM had been running at this moment */
    public void windowShown(long jvmUptimeMillis) {
        long now = System.nanoTime();
        take(new Mark(Kind.JVM_STARTED, now - jvmUptimeMillis * 1_000_000, "", "", "", ""));
        for (Kind k : List.of(Kind.SESSION_STARTED, Kind.TOOLKIT_STARTED)) {
            Long at = STARTUP.get(k);
            if (at != null) take(new Mark(k, at, "", "", "", ""));
        }
        take(new Mark(Kind.WINDOW_SHOWN, now, "", "", "", ""));
    }

    public void firstRows() {
        take(new Mark(Kind.FIRST_ROWS, System.nanoTime(), "", "", "", ""));
    }

    public void figuresShown() {
        take(new Mark(Kind.FIGURES_SHOWN, System.nanoTime(), "", "", "", ""));
    }

    /** Whether the runaway is still to be named (marks kept, not named yet): the window looks at its table for it only then. */
    public synchronized boolean awaitsNaming() {
        return file != null && !taken.contains(Kind.RUNAWAY_NAMED);
    }

    /**
     * A layout of the window: {@code top} is the table's top row in sight (null: none), {@code
     * selectedKey} the selected row's. The runaway is named when a critical group is that row and
     * selected in two layouts in a row: the first lays its cell out, and the frame drawn from it
     * is on the screen by the next.
     *
     * @return whether one more layout is wanted to name it
     */
    public synchronized boolean laidOut(ConsoleRow top, String selectedKey) {
        if (file == null || taken.contains(Kind.RUNAWAY_NAMED)) return false;
        String key = top != null && top.critical() && top.key().equals(selectedKey) ? top.key() : null;
        boolean named = key != null && key.equals(namingSeen);
        namingSeen = named ? null : key;
        if (named) {
            take(new Mark(Kind.RUNAWAY_NAMED, System.nanoTime(), top.command(), top.badge(),
                    top.cells().get(GroupColumn.RATE.ordinal()), top.cells().get(GroupColumn.TASKS.ordinal())));
        }
        return key != null && !named;
    }

    /** A stop's panel moved to {@code phase} for {@code command}. */
    public void stopPhase(StopOffer.Phase phase, String command) {
        Kind kind = switch (phase) {
            case READY -> Kind.PLAN_SHOWN;
            case REFUSED -> Kind.PLAN_REFUSED;
            case RUNNING -> Kind.CONFIRMED;
            case PLANNING, DONE -> null; // planning is the key's own moment; DONE is told with its outcome
        };
        if (kind != null) take(new Mark(kind, System.nanoTime(), command, "", "", ""));
    }

    /** The stop ended, with zero confirmed or not. */
    public void stopEnded(boolean zero, String command) {
        take(new Mark(zero ? Kind.ZERO_CONFIRMED : Kind.ENDED_WITHOUT_ZERO, System.nanoTime(), command, "", "", ""));
    }

    private synchronized void take(Mark mark) {
        if (file == null || !taken.add(mark.kind())) return;
        try {
            // One line, one write: a reader never sees half a mark.
            Files.write(file, (Json.TREES.writeValueAsString(mark) + "\n").getBytes(StandardCharsets.UTF_8),
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
        } catch (IOException e) {
            // The window goes on: a measurement lost is said, never a reason to fail the console.
            System.err.println("runaway: could not keep the first-contact mark " + mark.kind() + " in " + file + ": " + e.getMessage());
        }
    }

    /** The marks a console kept in {@code file} so far (none when it is not there yet). */
    public static List<Mark> read(Path file) throws IOException {
        List<Mark> marks = new ArrayList<>();
        if (!Files.exists(file)) return marks;
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (line.endsWith("}")) marks.add(Json.TREES.readValue(line, Mark.class));
        }
        return marks;
    }
}
