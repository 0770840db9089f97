// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.bench;

import dev.runaway.drill.Drill;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.view.FirstContact;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The console opened on a machine already on fire, as a person meets it: {@code runaway console}
 * started from the launcher (in a session of its own, as from a terminal, from an ordinary
 * thread) while the pressing drill presses on its cap; then, by the keys a person presses (sent
 * to the X server with xdotool), Ctrl+K for the plan and Enter to stop. The console keeps its
 * first-contact marks ({@link FirstContact}) on the machine's one monotonic clock; the drill's
 * cgroup is watched from outside for growth stopped and zero. One trial per fresh fire.
 */
public final class ConsoleOnFire {
    /**
     * One trial, in milliseconds (-1: not reached).
     *
     * @param launchToShown       from the launch to the window on the screen
     * @param launchToFigures     to the header's first figures
     * @param launchToNamed       to the runaway named: the table's first row, critical, selected
     * @param named               the command the first row named ("" if none)
     * @param namedTheRunaway     that command is the fire's
     * @param badge               its badge ("AT CAP pids.max 20000")
     * @param rate                its growth cell
     * @param keyToPlan           from Ctrl+K sent to the plan on screen
     * @param enterToGrowthStopped from Enter sent to the last new member seen (outside)
     * @param enterToZero         from Enter sent to the cgroup empty (outside)
     * @param enterToZeroShown    from Enter sent to "zero confirmed" on screen
     */
    public record Trial(int tasks, long launchToShown, long launchToFigures, long launchToNamed, String named, boolean namedTheRunaway,
                 String badge, String rate, long keyToPlan, long enterToGrowthStopped, long enterToZero, long enterToZeroShown,
                 boolean zeroConfirmed, int survivors, double loadAverageMax, String note) {

        /**
         * Within the targets set for the console opened on fire (docs/benchmarks.md, "The console
         * opened on fire"): shown and the runaway named within {@link #NAMED_TARGET_MILLIS} of the
         * launch, with its cap; the plan within {@link #PLAN_TARGET_MILLIS} of Ctrl+K; growth
         * stopped under {@link PressingBench#GROWTH_TARGET_MILLIS} of Enter; zero confirmed, within
         * {@link PressingBench#FLOOR_RATIO_TARGET} times the fire's own cgroup.kill of Enter.
         */
        public boolean withinTargets(long floorMillis) {
            return namedTheRunaway && badge.startsWith("AT CAP") && launchToShown >= 0 && launchToShown <= NAMED_TARGET_MILLIS
                    && launchToNamed >= 0 && launchToNamed <= NAMED_TARGET_MILLIS && keyToPlan >= 0 && keyToPlan <= PLAN_TARGET_MILLIS
                    && enterToGrowthStopped >= 0 && enterToGrowthStopped < PressingBench.GROWTH_TARGET_MILLIS && zeroConfirmed
                    && survivors == 0 && enterToZero >= 0 && floorMillis > 0 && enterToZero <= floorMillis * PressingBench.FLOOR_RATIO_TARGET;
        }
    }

    public static final long NAMED_TARGET_MILLIS = 5000;
    public static final long PLAN_TARGET_MILLIS = 1000;
    /** How long a console may take to name the runaway, to plan and to stop before the trial gives up on it. */
    private static final long LIMIT_MILLIS = 180_000;

    private final int tasks;
    private final String launcher;
    private final PrintWriter progress;

    ConsoleOnFire(int tasks, String launcher, PrintWriter progress) {
        this.tasks = tasks;
        this.launcher = launcher;
        this.progress = progress;
    }

    /** The console launched into {@code tools} on {@code drill}, already at its cap; {@code screenshot}: where to keep the named moment's screen, or null. */
    Trial run(Sandbox tools, Drill drill, Path memberDir, String key, Path screenshot) throws Exception {
        Path home = Files.createTempDirectory("runaway-bench-console-on-fire");
        Path marks = home.resolve("first-contact.jsonl");
        Path log = home.resolve("console.log");
        ProcessBuilder command = new ProcessBuilder("setsid", launcher, "console").redirectErrorStream(true).redirectOutput(log.toFile());
        // Its recording and theme in a folder of the trial's own, gone after it.
        command.environment().put("XDG_STATE_HOME", home.resolve("state").toString());
        command.environment().put("XDG_CONFIG_HOME", home.resolve("config").toString());
        command.environment().put(FirstContact.ENVIRONMENT, marks.toString());
        Process console = null;
        Keys keys = null;
        try {
            long launch = System.nanoTime();
            console = tools.start(command);
            Optional<FirstContact.Mark> named = await(marks, console, FirstContact.Kind.RUNAWAY_NAMED, launch);
            List<FirstContact.Mark> seen = FirstContact.read(marks);
            long shown = since(launch, seen, FirstContact.Kind.WINDOW_SHOWN);
            long figures = since(launch, seen, FirstContact.Kind.FIGURES_SHOWN);
            if (named.isEmpty()) {
                return failed(drill, shown, figures, "the console named no runaway within " + LIMIT_MILLIS / 1000 + " s; its output: " + tail(log));
            }
            FirstContact.Mark n = named.get();
            long launchToNamed = (n.nanos() - launch) / 1_000_000;
            String startCpu = CpuUse.fromLaunch(console.toHandle()).sinceWords();
            progress.printf("  shown %,d ms, figures %,d ms, the runaway named %,d ms after the launch: %s, %s, %s%n", shown, figures,
                    launchToNamed, n.command(), n.badge(), n.rate());
            progress.printf("    its start, ms from the launch: JVM %,d, session %,d, toolkit %,d, shown %,d, first rows %,d, named %,d; %s%n",
                    since(launch, seen, FirstContact.Kind.JVM_STARTED), since(launch, seen, FirstContact.Kind.SESSION_STARTED),
                    since(launch, seen, FirstContact.Kind.TOOLKIT_STARTED), shown, since(launch, seen, FirstContact.Kind.FIRST_ROWS),
                    launchToNamed, startCpu);
            progress.flush();
            String window = windowId();
            if (screenshot != null) screen(screenshot, window);
            keys = new Keys();
            long keyAt = System.nanoTime();
            keys.press(window, "ctrl+k");
            Optional<FirstContact.Mark> plan = await(marks, console, FirstContact.Kind.PLAN_SHOWN, keyAt);
            if (plan.isEmpty()) {
                return failed(drill, shown, figures, "no plan within the limit after Ctrl+K; its output: " + tail(log));
            }
            long keyToPlan = (plan.get().nanos() - keyAt) / 1_000_000;
            CgroupWatch watch;
            long enter;
            CpuUse cpu = CpuUse.fromNow(console.toHandle());
            java.util.concurrent.atomic.AtomicReference<String> cpuAtZero = new java.util.concurrent.atomic.AtomicReference<>("(no zero seen)");
            // The key is sent from a real-time thread: the clock starts at the person's Enter, not at this bench's wait for a CPU.
            try (var raised = dev.runaway.sys.Sched.raisedWithChildren()) {
                enter = System.nanoTime();
                watch = new CgroupWatch(drill.sandbox(), memberDir, enter);
                watch.atZero(() -> cpuAtZero.set(cpu.sinceWords()));
                keys.press(window, "Return");
            }
            Optional<FirstContact.Mark> end = awaitAny(marks, console, enter);
            watch.awaitZero(3000);
            watch.close();
            String cpuWords = "to zero (outside) " + cpuAtZero.get() + "; to zero confirmed " + cpu.sinceWords();
            int left = drill.sandbox().memberPids().size();
            List<FirstContact.Mark> all = FirstContact.read(marks);
            long confirmed = since(enter, all, FirstContact.Kind.CONFIRMED);
            boolean zero = end.map(m -> m.kind() == FirstContact.Kind.ZERO_CONFIRMED).orElse(false);
            long zeroShown = end.map(m -> (m.nanos() - enter) / 1_000_000).orElse(-1L);
            Trial t = new Trial(tasks, shown, figures, launchToNamed, n.command(), n.command().equals(key), n.badge(), n.rate(),
                    keyToPlan, watch.millisToGrowthStopped(), watch.millisToZero(), zeroShown, zero, left, watch.loadMax(),
                    "Enter reached the window " + confirmed + " ms after it was sent; from Enter " + cpuWords);
            progress.printf("  plan %,d ms after Ctrl+K; from Enter: growth stopped %,d ms, zero %,d ms (outside), '%s' shown %,d ms; %s%n",
                    keyToPlan, t.enterToGrowthStopped(), t.enterToZero(), zero ? "zero confirmed" : "no zero", zeroShown, t.note());
            progress.flush();
            return t;
        } finally {
            if (keys != null) keys.close();
            if (console != null) quit(console);
            printStopSteps(home.resolve("state"));
            deleteTree(home);
        }
    }

    /**
     * The CPU the console (its launcher's tree) and its X server used from one moment on: while a
     * stop kills thousands, each exit waits for a CPU, and what the window draws meanwhile is not
     * theirs. Read from /proc (utime + stime), nothing signalled.
     */
    private static final class CpuUse {
        private static final long TICK_MILLIS = 10; // USER_HZ is 100 on Linux
        private final ProcessHandle console;
        private final Optional<dev.runaway.model.ProcessIdentity> display = dev.runaway.ui.DisplayServer.local(System.getenv("DISPLAY"));
        private final long consoleAt;
        private final long displayAt;
        private final java.util.Map<Long, Long> threadsAt;

        /** From the console's start: nothing counted before it. */
        static CpuUse fromLaunch(ProcessHandle console) {
            return new CpuUse(console, true);
        }

        /** From now. */
        static CpuUse fromNow(ProcessHandle console) {
            return new CpuUse(console, false);
        }

        private CpuUse(ProcessHandle console, boolean fromLaunch) {
            this.console = console;
            this.consoleAt = fromLaunch ? 0 : consoleTicks();
            this.displayAt = displayTicks();
            this.threadsAt = fromLaunch ? java.util.Map.of() : threadTicks().values().stream()
                    .collect(java.util.stream.Collectors.toMap(ThreadTicks::tid, ThreadTicks::ticks, Long::sum));
        }

        private java.util.stream.Stream<ProcessHandle> tree() {
            return java.util.stream.Stream.concat(java.util.stream.Stream.of(console), console.descendants());
        }

        private long consoleTicks() {
            return tree().mapToLong(p -> ticks(p.pid())).sum();
        }

        private long displayTicks() {
            return display.map(id -> ticks(id.pid())).orElse(0L);
        }

        private static long ticks(long pid) {
            return dev.runaway.procfs.ProcStat.read(Path.of("/proc"), (int) pid).map(dev.runaway.procfs.ProcStat::cpuTicks).orElse(0L);
        }

        private record ThreadTicks(long tid, String name, long ticks) {
        }

        /** Each live thread of the console's processes, by thread id. */
        private java.util.Map<Long, ThreadTicks> threadTicks() {
            java.util.Map<Long, ThreadTicks> all = new java.util.HashMap<>();
            tree().forEach(p -> {
                Path tasks = Path.of("/proc", Long.toString(p.pid()), "task");
                try (var list = Files.list(tasks)) {
                    for (Path t : list.toList()) {
                        int tid = Integer.parseInt(t.getFileName().toString());
                        dev.runaway.procfs.ProcStat.read(tasks, tid).ifPresent(st -> all.put((long) tid, new ThreadTicks(tid, st.comm(), st.cpuTicks())));
                    }
                } catch (IOException | RuntimeException gone) {
                    // the process ended meanwhile: its threads are not counted
                }
            });
            return all;
        }

        /**
         * Where the CPU went: the live threads' shares, numbered kinds summed (GC Thread#0, #1), the
         * largest first; what the process used beyond them was used by threads that ended meanwhile.
         */
        private String threadWords(long totalMillis) {
            java.util.Map<String, Long> byName = new java.util.TreeMap<>();
            long live = 0;
            for (ThreadTicks t : threadTicks().values()) {
                long used = t.ticks() - threadsAt.getOrDefault(t.tid(), 0L);
                if (used <= 0) continue;
                byName.merge(t.name().replaceAll("[#-]?\\d+$", ""), used * TICK_MILLIS, Long::sum);
                live += used * TICK_MILLIS;
            }
            var sorted = byName.entrySet().stream().sorted(java.util.Map.Entry.<String, Long>comparingByValue().reversed()).toList();
            String shown = sorted.stream().limit(6).map(e -> String.format(java.util.Locale.ROOT, "%s %,d", e.getKey(), e.getValue()))
                    .collect(java.util.stream.Collectors.joining(", "));
            long rest = sorted.stream().skip(6).mapToLong(java.util.Map.Entry::getValue).sum();
            return String.format(java.util.Locale.ROOT, " (threads, ms: %s; %,d more threads %,d; threads that ended %,d)", shown,
                    Math.max(0, sorted.size() - 6), rest, Math.max(0, totalMillis - live));
        }

        String sinceWords() {
            long total = (consoleTicks() - consoleAt) * TICK_MILLIS;
            return String.format(java.util.Locale.ROOT, "the console used %,d ms of CPU%s%s", total,
                    threadWords(total), display.isPresent() ? String.format(java.util.Locale.ROOT, ", its X server %,d ms",
                            (displayTicks() - displayAt) * TICK_MILLIS) : "");
        }
    }

    /** The console's stop as its own recording has it (phase, what was done, ms): where Enter-to-zero went. */
    private void printStopSteps(Path state) {
        try (var files = Files.walk(state)) {
            for (Path f : files.filter(p -> p.getFileName().toString().endsWith(".jsonl")).sorted().toList()) {
                for (dev.runaway.timeline.TimelineEvent e : dev.runaway.timeline.IncidentReader.read(f).timeline().events()) {
                    if (e.kind() != dev.runaway.timeline.EventKind.STOP_STEP) continue;
                    progress.printf("    stop step %s: %s, %,d processes, %,d ms%n", e.title(), e.detail(), e.count(), e.millis());
                }
            }
        } catch (IOException | RuntimeException unreadable) {
            progress.printf("    the console's recording could not be read: %s%n", unreadable.getMessage());
        }
        progress.flush();
    }

    private Trial failed(Drill drill, long shown, long figures, String why) {
        progress.printf("  %s%n", why);
        progress.flush();
        return new Trial(tasks, shown, figures, -1, "", false, "", "", -1, -1, -1, -1, false, drill.sandbox().memberPids().size(), 0, why);
    }

    /** The mark KIND, waited for while the console runs (from a real-time thread: an ordinary one waits for a CPU as long as the console does). */
    private static Optional<FirstContact.Mark> await(Path marks, Process console, FirstContact.Kind kind, long since) throws Exception {
        try (var raised = dev.runaway.sys.Sched.raisedWhile()) {
            long deadline = since + TimeUnit.MILLISECONDS.toNanos(LIMIT_MILLIS);
            while (System.nanoTime() < deadline && console.isAlive()) {
                for (FirstContact.Mark m : FirstContact.read(marks)) if (m.kind() == kind) return Optional.of(m);
                Thread.sleep(10);
            }
            for (FirstContact.Mark m : FirstContact.read(marks)) if (m.kind() == kind) return Optional.of(m);
            return Optional.empty();
        }
    }

    /** The stop's end, with zero or without. */
    private static Optional<FirstContact.Mark> awaitAny(Path marks, Process console, long since) throws Exception {
        try (var raised = dev.runaway.sys.Sched.raisedWhile()) {
            long deadline = since + TimeUnit.MILLISECONDS.toNanos(LIMIT_MILLIS);
            while (System.nanoTime() < deadline && console.isAlive()) {
                for (FirstContact.Mark m : FirstContact.read(marks)) {
                    if (m.kind() == FirstContact.Kind.ZERO_CONFIRMED || m.kind() == FirstContact.Kind.ENDED_WITHOUT_ZERO) return Optional.of(m);
                }
                Thread.sleep(10);
            }
            return Optional.empty();
        }
    }

    private static long since(long start, List<FirstContact.Mark> marks, FirstContact.Kind kind) {
        return marks.stream().filter(m -> m.kind() == kind).findFirst().map(m -> (m.nanos() - start) / 1_000_000).orElse(-1L);
    }

    /** The console's window: the visible one named Runaway (the console's title starts so). */
    private static String windowId() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        do {
            Process p = new ProcessBuilder("xdotool", "search", "--onlyvisible", "--name", "^Runaway").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            p.waitFor();
            if (p.exitValue() == 0 && !out.isEmpty()) {
                String[] ids = out.split("\\s+");
                return ids[ids.length - 1];
            }
            Thread.sleep(100);
        } while (System.nanoTime() < deadline);
        throw new IOException("xdotool found no visible Runaway window");
    }

    /** Runs xdotool (a real key press through the X server, as a person's); its output. */
    private static String xdotool(String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("xdotool"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) throw new IOException("xdotool " + String.join(" ", args) + ": " + out.strip());
        return out;
    }

    /**
     * The person's keys: one xdotool started (real-time) before the keys are pressed, reading its
     * commands from a pipe, each run as its line arrives. An xdotool started at the key itself
     * during the fire took 10.9 s once and 3.7-4.0 s once in 5 trials before the window saw the
     * key: the bench's own spawn, not the console's time.
     */
    private static final class Keys implements AutoCloseable {
        private final Process xdotool;
        private final java.io.Writer commands;

        Keys() throws IOException {
            try (var raised = dev.runaway.sys.Sched.raisedWithChildren()) {
                xdotool = new ProcessBuilder("xdotool", "-").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            }
            commands = new java.io.OutputStreamWriter(xdotool.getOutputStream(), StandardCharsets.UTF_8);
        }

        void press(String window, String key) throws IOException {
            if (!xdotool.isAlive()) throw new IOException("xdotool, waiting for keys, ended with status " + xdotool.exitValue());
            commands.write("key --window " + window + " " + key + "\n");
            commands.flush();
        }

        @Override
        public void close() throws Exception {
            try {
                commands.close();
            } catch (IOException gone) {
                // it ended already
            }
            if (!xdotool.waitFor(10, TimeUnit.SECONDS)) xdotool.destroyForcibly();
        }
    }

    /** The window as the person sees it when the runaway is named. */
    private void screen(Path file, String window) throws Exception {
        Process p = new ProcessBuilder("import", "-window", window, file.toString()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0) progress.printf("  the screen then: %s%n", file);
        else p.destroyForcibly();
    }

    /** Ctrl+Q as a person quits; the process killed when it is still there 20 s later. */
    private static void quit(Process console) throws InterruptedException {
        try {
            if (console.isAlive()) xdotool("key", "--window", windowId(), "ctrl+q");
        } catch (Exception gone) {
            // no window left to send it to
        }
        if (!console.waitFor(20, TimeUnit.SECONDS)) {
            console.destroyForcibly();
            console.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
        } catch (IOException | java.io.UncheckedIOException e) {
            return "(none)";
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) return;
        try (var walk = Files.walk(dir)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        }
    }
}
