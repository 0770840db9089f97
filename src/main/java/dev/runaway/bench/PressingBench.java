// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.runaway.analysis.LiveAnalysis;
import dev.runaway.analysis.Snapshot;
import dev.runaway.drill.Drill;
import dev.runaway.drill.Drills;
import dev.runaway.drill.Scenario;
import dev.runaway.model.Json;
import dev.runaway.procfs.ProcReader;
import dev.runaway.procfs.PulseReader;
import dev.runaway.sandbox.CgroupSandbox;
import dev.runaway.sandbox.NativeBinaries;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import dev.runaway.stop.act.Actuator;
import dev.runaway.stop.plan.Disposable;
import dev.runaway.stop.Selector;
import dev.runaway.stop.StopCore;
import dev.runaway.stop.run.StopEngine;
import dev.runaway.stop.StopSession;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A machine on fire: N pressing tasks (the {@code pressing} drill at its cap), and on a fresh
 * drill each, the guided stop from the command line (the real launcher, JVM start included),
 * the console's path (its engine in a JVM that was running before the fire, from Enter), a
 * naive kill loop by pid and a systemd-style {@code cgroup.kill}; then how long {@code ps},
 * {@code runaway scan} and the C reader take to list the table under that load. Figures only.
 */
public final class PressingBench {
    /**
     * One way of stopping, on one drill. Times are from the start of the stop (the launcher's
     * start, Enter, the write) to growth stopped and to zero (the cgroup empty, or the stop's own
     * count; its stable window not counted); -1 when never reached. Against the floor measured
     * in the same run: the time to zero over it, and as a multiple of it (-1 without a floor).
     */
    public record Stop(String method, int tasks, long millisToGrowthStopped, long millisToZero, boolean zeroConfirmed,
                       int survivors, double loadAverageMax, String source, long planMillis, String note,
                       long overFloorMillis, double ratioToFloor) {
        Stop(String method, int tasks, long millisToGrowthStopped, long millisToZero, boolean zeroConfirmed, int survivors,
             double loadAverageMax, String source, long planMillis, String note) {
            this(method, tasks, millisToGrowthStopped, millisToZero, zeroConfirmed, survivors, loadAverageMax, source, planMillis, note, -1, -1);
        }

        Stop against(long floorMillis) {
            if (floorMillis <= 0 || millisToZero < 0) return this;
            return new Stop(method, tasks, millisToGrowthStopped, millisToZero, zeroConfirmed, survivors, loadAverageMax, source,
                    planMillis, note, millisToZero - floorMillis, Math.round(millisToZero * 100.0 / floorMillis) / 100.0);
        }

        /**
         * Within issue 37's targets for a guided stop: growth stopped under 1 s from its start,
         * zero confirmed, reached within {@link #FLOOR_RATIO_TARGET} times the floor (the fire's own
         * {@code cgroup.kill}; the stop's stable window not counted), nothing left.
         */
        public boolean withinTargets(long floorMillis) {
            return zeroConfirmed && survivors == 0 && millisToGrowthStopped >= 0 && millisToGrowthStopped < GROWTH_TARGET_MILLIS
                    && millisToZero >= 0 && floorMillis > 0 && millisToZero <= floorMillis * FLOOR_RATIO_TARGET;
        }
    }

    /** The targets of issue 37, at 5,000 and 20,000 pressing tasks (docs/benchmarks.md, "The stop under fire"). */
    public static final long GROWTH_TARGET_MILLIS = 1000;
    public static final double FLOOR_RATIO_TARGET = 1.25;
    static final long STABLE_WINDOW_MILLIS = dev.runaway.stop.run.StopEngine.STABLE_WINDOW.toMillis();

    /**
     * One listing of the process table under the load.
     *
     * @param pressingAfter the drill's tasks when the listing ended: fewer than it started with
     *                      means the drill's watchdog was taking it down, and the figure is not a fire's
     */
    public record Listing(String reader, int tasks, double millis, int processes, int pressingAfter) {
    }

    /**
     * @param floorMillis each measurement of the floor in this run (before the trials and after them)
     * @param floor       their median: the reference every stop is set against
     * @param launcher    what the command line's stop and scan were started through
     */
    public record Result(int pressing, List<Stop> stops, List<Listing> listings, List<Long> floorMillis, long floor, String launcher,
                         List<ConsoleOnFire.Trial> consoleOpened) {
    }

    /**
     * What the bench runs: each on a fresh drill per trial (the listings once, on a drill of their
     * own, first). CLI is the command line's stop from the launcher as installed, with
     * runaway-rt's own kill when it may take it; CLI_JVM_KILL the same with that kill off
     * (RUNAWAY_RT_KILL=0), so the JVM's plan kills. The floor every stop is set against is no stop
     * of ours: one {@code cgroup.kill} of the same pressing fire (CGROUP_KILL), the kernel's own
     * kill of exactly these tasks. It is measured in every run that stops anything, before the
     * trials and after them (the machine's floor moves between machines and over an hour: an
     * absolute time says little); asked for, it is also measured in each trial. FLOOR, one
     * {@code cgroup.kill} of N sleepers, is the kernel's exit work alone, without the fire.
     * CONSOLE_OPENED starts {@code runaway console} from the launcher when the fire is already at
     * its cap, and stops it by the window's keys ({@link ConsoleOnFire}; needs a display and xdotool).
     */
    public enum Method { CLI, CLI_JVM_KILL, CONSOLE, CONSOLE_OPENED, NAIVE, CGROUP_KILL, FROZEN_KILL, LISTINGS, FLOOR }

    private static final Path PROC = Path.of("/proc");
    /** A trial's drill and its tools' sandbox (the tools' lifetime is this, and the command line's limit, per trial). */
    private static final Duration LIFETIME = Duration.ofMinutes(15);
    /** A listing that takes longer is killed: a fire must not hold the shared machine for minutes. */
    private static final Duration LISTING_LIMIT = Duration.ofSeconds(120);

    private final int tasks;
    private final int trials;
    private final Duration cliLimit;
    private final Shell shell;
    private final java.util.Set<Method> methods;
    private final PrintWriter progress;
    private final ObjectMapper json = Json.TREES;
    private final Launch launch = Launch.find();

    /** What the command line's stop is spawned from: the user's shell, in effect. */
    public enum Shell {
        /** A real-time thread (SCHED_RR 1 as root): the fork and the launcher's first steps do not wait behind the runaway. */
        REALTIME,
        /** An ordinary thread: they wait for a CPU like every ordinary task, until the launcher switches. */
        ORDINARY
    }

    public PressingBench(int tasks, int trials, Duration cliLimit, Shell shell, java.util.Set<Method> methods, PrintWriter progress) {
        this.tasks = tasks;
        this.trials = trials;
        this.cliLimit = cliLimit;
        this.shell = shell;
        java.util.Set<Method> all = java.util.EnumSet.complementOf(java.util.EnumSet.of(Method.FLOOR));
        if (!hasDisplay()) all.remove(Method.CONSOLE_OPENED); // a window needs a display: said by the table, not failed
        this.methods = methods.isEmpty() ? all : java.util.EnumSet.copyOf(methods);
        this.progress = progress;
    }

    public Result run() throws Exception {
        List<Stop> stops = new ArrayList<>();
        List<Listing> listings = new ArrayList<>();
        List<Long> floors = new ArrayList<>();
        List<ConsoleOnFire.Trial> opened = new ArrayList<>();
        boolean stopping = methods.stream().anyMatch(m -> m != Method.LISTINGS);
        progress.printf("the command line's stop and scan start through %s%n", launch.words());
        CleanPages.beforeFire(progress);
        try (PidMax pidMax = PidMax.atLeast(tasks + tasksNow() + 16_384, progress);
             Sandbox tools = Sandboxes.create(SandboxSpec.of("bench-pressing-tools", 4096)
                     .withLifetime(LIFETIME.plus(cliLimit).multipliedBy(trials)))) { // 15 min for all: its watchdog took it down mid-run
            // A listing stuck in the kernel cannot be killed until its read returns (ps once took 174 s,
            // the C reader 656 s): on a drill of its own, it cannot eat a stop's drill's lifetime.
            if (methods.contains(Method.LISTINGS)) listings.addAll(listings(tools));
            if (stopping) floors.add(cgroupKill().millisToZero());
            for (int t = 0; t < trials; t++) {
                if (methods.contains(Method.CLI)) stops.add(guidedCli(tools, true));
                if (methods.contains(Method.CLI_JVM_KILL)) stops.add(guidedCli(tools, false));
                if (methods.contains(Method.CONSOLE)) stops.add(consolePath());
                if (methods.contains(Method.CONSOLE_OPENED)) opened.add(consoleOpened(tools, t));
                if (methods.contains(Method.NAIVE)) stops.add(naiveLoop());
                if (methods.contains(Method.CGROUP_KILL)) {
                    Stop f = cgroupKill();
                    stops.add(f);
                    floors.add(f.millisToZero());
                }
                if (methods.contains(Method.FROZEN_KILL)) stops.add(frozenKill());
                if (methods.contains(Method.FLOOR)) stops.add(floor());
            }
            if (stopping) floors.add(cgroupKill().millisToZero());
        }
        long floor = median(floors.stream().filter(f -> f > 0).toList());
        return new Result(tasks, stops.stream().map(s -> s.against(floor)).toList(), listings, floors, floor, launch.words(), opened);
    }

    private static long median(List<Long> values) {
        if (values.isEmpty()) return -1;
        List<Long> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private Drill pressingAtCap() throws Exception {
        return pressingAtCap(false);
    }

    /** @param ownSession the drill leads a session of its own, apart from the bench's (and Xvfb's): as on a desktop */
    private Drill pressingAtCap(boolean ownSession) throws Exception {
        Drill drill = Drills.start(Scenario.PRESSING, tasks, 0, LIFETIME, false, ownSession);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while ((drill.sandbox().taskCount() < tasks || drill.sandbox().failedForks() <= 0) && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        progress.printf("  %s: %,d tasks pressing on their cap of %,d, %,d forks refused; load %.0f%n", drill.info().id(),
                drill.sandbox().taskCount(), tasks, drill.sandbox().failedForks(), load1());
        progress.flush();
        Thread.sleep(3000); // pressing for a while: the load average climbs
        return drill;
    }

    private static String key(Drill drill) {
        return drill.folder().resolve("cache/tool").toString();
    }

    private static Path memberDir(Drill drill) {
        return ((CgroupSandbox) drill.sandbox()).dirs().memberDir();
    }

    /**
     * {@code runaway stop --command KEY --yes --json} as a user types it; the JSON's figures when it
     * has them. With {@code rtMayKill} false, runaway-rt's own kill is off: the JVM's plan kills.
     */
    private Stop guidedCli(Sandbox tools, boolean rtMayKill) throws Exception {
        String method = rtMayKill ? "guided CLI" : "guided CLI, JVM kill";
        progress.printf("%s (%,d pressing; spawned from %s thread)%n", method, tasks, shell == Shell.REALTIME ? "a SCHED_RR" : "an ordinary");
        try (Drill drill = pressingAtCap()) {
            Path out = Files.createTempFile("runaway-bench-stop", ".json");
            Path err = Files.createTempFile("runaway-bench-stop", ".err");
            // The person's terminal: a shell already there (real-time, or ordinary), the command typed into it.
            try (TypingShell terminal = TypingShell.start(tools, shell == Shell.REALTIME)) {
                List<String> command = List.of(launch.path(), "stop", "--command", key(drill), "--yes", "--json");
                java.util.Map<String, String> env = rtMayKill ? java.util.Map.of() : java.util.Map.of("RUNAWAY_RT_KILL", "0");
                long pid;
                long start;
                java.time.Instant spawned;
                CgroupWatch watch;
                // The clocks start here, the user's decision (the watch's thread raised as before).
                try (var raised = dev.runaway.sys.Sched.raisedWithChildren()) {
                    start = System.nanoTime();
                    spawned = java.time.Instant.now();
                    watch = new CgroupWatch(drill.sandbox(), memberDir(drill), start);
                    pid = terminal.type(command, env, out, err);
                }
                boolean ended = terminal.awaitEnd(cliLimit.toMillis()).isPresent();
                String stuck = ended ? "" : whereStuck(pid);
                if (!ended && stuck.contains("java")) {
                    // A JVM prints its threads' Java stacks on SIGQUIT, to its standard output (the file read below).
                    dev.runaway.sys.LibC.INSTANCE.kill((int) pid, dev.runaway.sys.Signal.SIGQUIT);
                    Thread.sleep(2000);
                }
                if (!ended) dev.runaway.sys.LibC.INSTANCE.kill((int) pid, dev.runaway.sys.Signal.SIGKILL);
                watch.awaitZero(ended ? 3000 : 0);
                watch.close();
                int left = drill.sandbox().memberPids().size();
                String text = Files.readString(out, StandardCharsets.UTF_8);
                JsonNode j = ended && text.contains("{") ? json.readTree(text.substring(text.indexOf('{'))) : null;
                String errTail = tail(err, 3);
                if (j != null && j.has("millisToGrowthStopped")) {
                    // Zero as the floor's is measured: the cgroup seen empty from outside, here from the
                    // user's decision (the spawn); the stop's own confirmation of it follows, in the note.
                    Stop s = new Stop(method, tasks, j.get("millisToGrowthStopped").asLong(), watch.millisToZero(),
                            j.path("zeroConfirmed").asBoolean(), j.path("survivors").size(), watch.loadMax(),
                            "growth: the command's JSON; zero: outside, from the command typed", -1,
                            "zero confirmed by the stop " + j.path("timings").path("launcherToZero").asLong(-1)
                            + " ms after the launcher's start; outside: growth stopped " + watch.millisToGrowthStopped()
                            + " ms, the last fork refused " + watch.millisToPressureEnded() + " ms; " + phases(j, spawned));
                    progress.printf("  growth stopped %,d ms (from the launcher's start), zero %,d ms (the cgroup empty, from the command typed); %s%n",
                            s.millisToGrowthStopped(), s.millisToZero(), s.note());
                    progress.flush();
                    return s;
                }
                String note = (!ended ? "did not end within " + cliLimit.toSeconds() + " s; killed; it was " + stuck + mainStack(text)
                        : j == null ? "no JSON: " + text.strip() : "JSON without millisToGrowthStopped (zeroConfirmed "
                        + j.path("zeroConfirmed").asBoolean() + ", millisToZero from its confirmation " + j.path("millisToZero").asLong() + ")")
                        + (errTail.isEmpty() ? "" : "; stderr: " + errTail);
                progress.printf("  %s%n", note);
                progress.flush();
                return new Stop(method, tasks, watch.millisToGrowthStopped(), watch.millisToZero(),
                        j != null && j.path("zeroConfirmed").asBoolean(), left, watch.loadMax(),
                        "outside (from the command typed)", -1, note);
            } finally {
                Files.deleteIfExists(out);
                Files.deleteIfExists(err);
            }
        }
    }

    /** Where the command's time went, from its JSON: the launcher's phases and the early freeze's. */
    private static String phases(JsonNode j, java.time.Instant spawned) {
        JsonNode t = j.path("timings");
        JsonNode kill = j.path("kill");
        StringBuilder b = new StringBuilder(kill.isMissingNode() ? "" : "killed by " + kill.path("by").asText()
                + (kill.path("rtKill").asText().equals("KILLED") ? "" : " (runaway-rt did not: " + kill.path("rtKill").asText() + ")") + "; ");
        b.append("from the launcher's start:");
        if (t.has("launcherStartedAt")) {
            long spawnToLauncher = java.time.Duration.between(spawned, java.time.Instant.parse(t.get("launcherStartedAt").asText())).toMillis();
            b.append(" (typed ").append(spawnToLauncher).append(" ms before)");
        }
        for (String k : List.of("launcherToRealtime", "launcherToJvmExec", "launcherToCommand", "launcherToCoreReady",
                "launcherToEarlyFreezeDone", "launcherToPlan", "launcherToKilled", "launcherToCgroupEmpty")) {
            if (t.has(k)) b.append(' ').append(k.replace("launcherTo", "")).append(' ').append(t.get(k).asText());
        }
        JsonNode early = j.path("plan").path("earlyFreeze");
        if (!early.isMissingNode()) b.append("; early freeze: ").append(early.path("result").asText()).append(' ').append(early.path("phaseMillis"));
        JsonNode first = j.path("plan").path("firstLever");
        if (!first.isMissingNode()) {
            if (first.has("launcherToEmptied")) b.append("; runaway-rt saw the cgroup empty ").append(first.get("launcherToEmptied").asText())
                    .append(" ms after the launcher's start, then started the JVM");
            b.append("; runaway-rt: ").append(first.path("frozen").asBoolean() ? "froze" : "refused: " + first.path("refused").asText())
                    .append(", ").append(first.path("readers").asInt()).append(" readers, ").append(first.path("membersNotRead").asInt())
                    .append(" members not read, phases ms ").append(first.path("phaseMillis"));
        }
        b.append("; priority: ").append(j.path("plan").path("priority").asText(j.path("priority").asText("?")));
        return b.toString();
    }

    /** The "main" thread's top frames from a JVM's SIGQUIT thread dump in TEXT; "" when there is none. */
    static String mainStack(String text) {
        int at = text.indexOf("\n\"main\"");
        if (at < 0) return "";
        StringBuilder b = new StringBuilder("; its main thread: ");
        String[] lines = text.substring(at + 1).split("\n");
        int frames = 0;
        for (int i = 1; i < lines.length && frames < 8 && !lines[i].isBlank(); i++) {
            String line = lines[i].strip();
            if (line.startsWith("at ")) {
                b.append(frames++ == 0 ? "" : " < ").append(line.substring(3));
            }
        }
        return b.toString();
    }

    /**
     * Where a command that did not end was: its program, then its threads grouped by name, state,
     * scheduling policy and the top of their kernel stacks (root reads /proc/PID/task/TID/stack).
     */
    static String whereStuck(long pid) {
        Path proc = Path.of("/proc", Long.toString(pid));
        StringBuilder b = new StringBuilder();
        try {
            b.append(Files.readSymbolicLink(proc.resolve("exe")));
        } catch (java.io.IOException e) {
            b.append("(exe unreadable)");
        }
        java.util.Map<String, Integer> threads = new java.util.LinkedHashMap<>();
        try (var tids = Files.list(proc.resolve("task"))) {
            for (Path t : tids.toList()) {
                String stat = text(t.resolve("stat"));
                if (stat.lastIndexOf(')') < 0) continue;
                String comm = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                String stack = String.join(" < ", text(t.resolve("stack")).lines().limit(5)
                        .map(l -> l.replaceAll("^\\[<[0-9a-f]+>\\] ", "").replaceAll("\\+0x.*", "")).toList());
                String policy = f.length > 38 ? f[38] : "?";
                threads.merge(comm.replaceAll("\\d+", "#") + " " + f[0] + " policy " + policy + (stack.isEmpty() ? "" : " in " + stack), 1, Integer::sum);
            }
        } catch (java.io.IOException | RuntimeException e) {
            b.append(" (threads unreadable: ").append(e.getMessage()).append(')');
        }
        threads.forEach((what, n) -> b.append("; ").append(n).append(" x ").append(what));
        return b.toString();
    }

    private static String text(Path file) {
        try {
            return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            return "";
        }
    }

    private static String tail(Path file, int lines) {
        try {
            List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
            return String.join(" | ", all.subList(Math.max(0, all.size() - lines), all.size())).strip();
        } catch (java.io.IOException | java.io.UncheckedIOException e) {
            return "";
        }
    }

    /**
     * The console's path: a live analysis running before the fire (the console's), the stop
     * session planned when the panel opens, then from Enter the one stop core, as the window runs it.
     */
    private Stop consolePath() throws Exception {
        progress.printf("console path (%,d pressing)%n", tasks);
        try (LiveAnalysis live = LiveAnalysis.live().start(); Drill drill = pressingAtCap();
             Actuator actuator = new Actuator(PROC, dev.runaway.stop.helper.HelperStarter.NONE)) {
            String key = key(drill);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (!seen(live.latest(), key) && System.nanoTime() < deadline) Thread.sleep(100);
            StopCore core = new StopCore(PROC, PulseReader.live(), actuator, Disposable.forThisUser());
            long planStart = System.nanoTime();
            // As the window plans it: from the group its live analysis holds (GuidedStop.plan).
            var known = live.targets(key).samples();
            StopSession open = core.open(new Selector.Command(key));
            StopSession session = known.isEmpty() ? open.prepare() : open.prepareFromKnown(known);
            long planMillis = (System.nanoTime() - planStart) / 1_000_000;
            if (session.state() != StopSession.State.READY) {
                return new Stop("console path", tasks, -1, -1, false, drill.sandbox().memberPids().size(), load1(), "refused",
                        planMillis, session.refusal().map(StopSession.Refusal::words).orElse("not ready"));
            }
            long enter = System.nanoTime();
            CgroupWatch watch = new CgroupWatch(drill.sandbox(), memberDir(drill), enter);
            StopEngine.Outcome o = session.run(false, step -> { });
            watch.awaitZero(3000);
            watch.close();
            // Said as it ends, as the command line's trials are: a bench cut short keeps what it measured.
            progress.printf("  plan %,d ms; growth stopped %,d ms, zero %,d ms (from Enter), %s; outside: growth stopped %,d ms, zero %,d ms%n",
                    planMillis, o.millisToGrowthStopped(), o.millisToZero(), o.zeroConfirmed() ? "zero confirmed"
                            : o.survivors().size() + " survivors", watch.millisToGrowthStopped(), watch.millisToZero());
            return new Stop("console path", tasks, o.millisToGrowthStopped(), o.millisToZero(), o.zeroConfirmed(),
                    o.survivors().size(), watch.loadMax(), "the stop's outcome (from Enter)", planMillis, "lever "
                    + session.plan().chosen().name() + "; outside: growth stopped " + watch.millisToGrowthStopped()
                    + " ms, the last fork refused " + watch.millisToPressureEnded() + " ms, zero "
                    + watch.millisToZero() + " ms");
        }
    }

    /** The console opened on the fire ({@link ConsoleOnFire}); the first trial's screen is kept where the bench says. */
    private ConsoleOnFire.Trial consoleOpened(Sandbox tools, int trial) throws Exception {
        progress.printf("console opened on the fire (%,d pressing; runaway console through %s, in a session of its own)%n", tasks, launch.path());
        try (Drill drill = pressingAtCap(true)) {
            Path screen = trial == 0 ? Path.of(System.getProperty("java.io.tmpdir"), "runaway-console-on-fire-" + tasks + ".png") : null;
            return new ConsoleOnFire(tasks, launch.path(), progress).run(tools, drill, memberDir(drill), key(drill), screen);
        }
    }

    private static boolean seen(Snapshot s, String key) {
        return s != null && s.groups().stream().anyMatch(g -> g.command().equals(key));
    }

    /** SIGKILL by pid every 100 ms, as a person types it first; no step stops growth. */
    private Stop naiveLoop() throws Exception {
        progress.printf("naive kill loop by pid (%,d pressing)%n", tasks);
        try (Drill drill = pressingAtCap()) {
            long start = System.nanoTime();
            CgroupWatch watch = new CgroupWatch(drill.sandbox(), memberDir(drill), start);
            int rounds = new NaiveKillLoop(new ProcReader(PROC), () -> drill.sandbox().memberPids()).run(Duration.ofSeconds(60));
            watch.awaitZero(2000);
            watch.close();
            int left = drill.sandbox().memberPids().size();
            return new Stop("naive kill -9 loop", tasks, watch.millisToGrowthStopped(), watch.millisToZero(), left == 0, left,
                    watch.loadMax(), "outside", -1, rounds + " rounds; the last fork refused " + watch.millisToPressureEnded() + " ms");
        }
    }

    /** systemd's way: one write to cgroup.kill, then wait for the cgroup to empty. */
    private Stop cgroupKill() throws Exception {
        progress.printf("cgroup.kill (%,d pressing)%n", tasks);
        try (Drill drill = pressingAtCap()) {
            CgroupWatch watch;
            // Written from a real-time thread, as from a root shell under chrt: the floor is the kernel's, not this thread's wait for a CPU.
            try (var raised = dev.runaway.sys.Sched.raisedWithChildren()) {
                long start = System.nanoTime();
                watch = new CgroupWatch(drill.sandbox(), memberDir(drill), start);
                Files.writeString(memberDir(drill).resolve("cgroup.kill"), "1");
            }
            watch.awaitZero(30_000);
            watch.close();
            int left = drill.sandbox().memberPids().size();
            return new Stop("cgroup.kill", tasks, watch.millisToGrowthStopped(), watch.millisToZero(), left == 0, left,
                    watch.loadMax(), "outside", -1, "the last fork refused " + watch.millisToPressureEnded() + " ms");
        }
    }

    /**
     * The fire's own floor: the drill's cgroup capped and frozen, held until every task is frozen
     * (nothing pressing any more), then one {@code cgroup.kill}; its time to zero is from the
     * write. No stop that kills these very tasks can reach zero sooner after its kill. Set
     * against the floor of sleepers it says how much more the fire's tasks cost the kernel to
     * end than sleepers do (each of them an exec of its own, caught in a refused fork).
     */
    private Stop frozenKill() throws Exception {
        progress.printf("the fire frozen, then cgroup.kill (%,d pressing)%n", tasks);
        try (Drill drill = pressingAtCap()) {
            Path member = memberDir(drill);
            long frozenMillis;
            CgroupWatch watch;
            try (var raised = dev.runaway.sys.Sched.raisedWithChildren()) {
                long start = System.nanoTime();
                Files.writeString(member.resolve("cgroup.freeze"), "1");
                long deadline = start + TimeUnit.SECONDS.toNanos(120);
                while (!Files.readString(member.resolve("cgroup.events")).contains("frozen 1") && System.nanoTime() < deadline) Thread.sleep(20);
                frozenMillis = (System.nanoTime() - start) / 1_000_000;
                watch = new CgroupWatch(drill.sandbox(), member, System.nanoTime());
                Files.writeString(member.resolve("cgroup.kill"), "1");
            }
            watch.awaitZero(120_000);
            watch.close();
            int left = drill.sandbox().memberPids().size();
            progress.printf("  every task frozen %,d ms after the freeze; zero %,d ms after the kill%n", frozenMillis, watch.millisToZero());
            progress.flush();
            return new Stop("frozen fire, killed", tasks, 0, watch.millisToZero(), left == 0, left, watch.loadMax(), "outside (from the kill)",
                    -1, "every task frozen " + frozenMillis + " ms after the freeze was written, before the kill");
        }
    }

    /**
     * One {@code cgroup.kill} of N sleepers: no fork pressure, no load before the write, so the
     * time to zero is what the kernel needs to run N exits here (at 20,000 on the eleventh and
     * twelfth sittings' machines, both CPUs ~95 % in the exits' kernel code for 13 s).
     */
    private Stop floor() throws Exception {
        progress.printf("the floor: cgroup.kill of %,d sleepers%n", tasks);
        try (Sandbox sleepers = Sandboxes.create(SandboxSpec.of("bench-floor", tasks + 64).withLifetime(LIFETIME))) {
            Process root = ScanBench.startSleepers(sleepers, tasks);
            Path member = ((CgroupSandbox) sleepers).dirs().memberDir();
            progress.printf("  %,d sleepers; load %.0f%n", sleepers.taskCount(), load1());
            progress.flush();
            CgroupWatch watch;
            try (var raised = dev.runaway.sys.Sched.raisedWithChildren()) {
                watch = new CgroupWatch(sleepers, member, System.nanoTime());
                Files.writeString(member.resolve("cgroup.kill"), "1");
            }
            watch.awaitZero(120_000);
            watch.close();
            root.waitFor(10, TimeUnit.SECONDS);
            int left = sleepers.memberPids().size();
            progress.printf("  zero %,d ms%n", watch.millisToZero());
            progress.flush();
            return new Stop("floor (sleepers)", tasks, 0, watch.millisToZero(), left == 0, left,
                    watch.loadMax(), "outside", -1, "no fork pressure: the kernel's exits alone");
        }
    }

    /** ps, runaway scan (the launcher, JVM start included) and the C reader, back to back, twice (once past 10,000: keep fires short). */
    private List<Listing> listings(Sandbox tools) throws Exception {
        progress.printf("listing the table under the load: ps, runaway scan, the C reader (spawned from %s thread)%n",
                shell == Shell.REALTIME ? "a SCHED_RR" : "an ordinary");
        progress.flush();
        List<Listing> out = new ArrayList<>();
        String reader = NativeBinaries.find("runaway-stat-reader").toString();
        try (Drill drill = pressingAtCap()) {
            for (int round = 0; round < (tasks > 10_000 ? 1 : 2); round++) {
                out.add(timed(tools, drill, "ps -eo pid,ppid,args", List.of("ps", "-eo", "pid,ppid,args"), true));
                out.add(timed(tools, drill, "runaway scan --json --window 0s", List.of(launch.path(), "scan", "--json", "--window", "0s"), false));
                out.add(timed(tools, drill, "C reader (open/read/close stat)", List.of(reader, "1"), false));
            }
        }
        return out;
    }

    /** One reader timed; past {@link #LISTING_LIMIT} it is killed and its time is the limit, with -1 processes. */
    private Listing timed(Sandbox tools, Drill drill, String name, List<String> command, boolean countLines) throws Exception {
        Path output = Files.createTempFile("runaway-bench-listing", ".txt");
        try {
            long start = System.nanoTime();
            Process p;
            // Each reader spawned as the guided stop is (--cli-shell): the same shell for all three.
            try (var raised = shell == Shell.REALTIME ? dev.runaway.sys.Sched.raisedWithChildren() : null) {
                p = tools.start(new ProcessBuilder(command).redirectOutput(output.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD));
            }
            long endedAt = endedAt(p, start + LISTING_LIMIT.toNanos());
            boolean ended = endedAt > 0;
            // Where it waited: its program (still the spawner's, or a launcher's before the JVM) and kernel stacks.
            String stuck = ended ? "" : whereStuck(p.pid());
            if (!ended) p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            p.waitFor(); // reaped, its output complete
            double millis = ((ended ? endedAt : System.nanoTime()) - start) / 1e6;
            String text = Files.readString(output, StandardCharsets.UTF_8);
            int processes = -1;
            try {
                if (!ended) processes = -1;
                else if (countLines) processes = (int) text.lines().count() - 1;
                else if (text.strip().startsWith("{")) processes = json.readTree(text).path("processes").asInt(-1);
                else processes = Integer.parseInt(text.strip().split("\\s+")[0]);
            } catch (IOException | RuntimeException unreadable) {
                processes = -1;
            }
            int pressing = drill.sandbox().taskCount();
            progress.printf("  %-36s %10.0f ms  %s; the drill %s%n", name, millis, ended ? String.format("%,d processes", processes)
                    : "did not finish: killed; it was " + stuck, pressing >= tasks * 9 / 10
                    ? String.format("still pressing (%,d tasks)", pressing) : String.format("down to %,d tasks: not a fire's figure", pressing));
            progress.flush();
            return new Listing(ended ? name : name + " (killed at the limit)", tasks, Math.round(millis * 10) / 10.0, processes, pressing);
        } finally {
            Files.deleteIfExists(output);
        }
    }

    /**
     * When P exited (System.nanoTime), or 0 past DEADLINE, seen from a real-time thread that reads
     * P's state itself: Process.waitFor hears of the exit from the JDK's reaper thread, an ordinary
     * thread, and at 5,000 pressing tasks a listing "took" 853 s that way (the waiting threads
     * starved, not the listing).
     */
    private static long endedAt(Process p, long deadline) throws InterruptedException {
        Path stat = PROC.resolve(p.pid() + "/stat");
        try (var raised = dev.runaway.sys.Sched.raisedWhile()) {
            while (System.nanoTime() < deadline) {
                String text = text(stat);
                int close = text.lastIndexOf(')');
                // Gone (already reaped) or a zombie: it has exited. Reaped means the JDK saw it exit too.
                if (close < 0 || text.length() < close + 3 || text.charAt(close + 2) == 'Z' || !p.isAlive()) return System.nanoTime();
                Thread.sleep(2);
            }
        }
        return 0;
    }

    /**
     * What the command line's stop is started through. As a user does: the package's {@code
     * /usr/bin/runaway}, which is the static runaway-rt (no shell, no {@code env}, no dynamic
     * loader before its real-time switch and its first lever). The checkout's {@code ./runaway} is
     * a bash script started through {@code /usr/bin/env}: at 20,000 pressing tasks that exec
     * waited in a page fault for 180 s before the script's first line (this sitting, trial 1),
     * so its figures are the checkout's, not a user's; the table says which was used.
     */
    record Launch(String path, String words) {
        static Launch find() {
            Path installed = Path.of(INSTALLED);
            if (isElf(installed)) {
                return new Launch(INSTALLED, INSTALLED + " (the package's static runaway-rt, " + installedVersion() + ")");
            }
            try {
                Path classes = Path.of(PressingBench.class.getProtectionDomain().getCodeSource().getLocation().toURI());
                Path checkout = classes.getParent() == null ? null : classes.getParent().getParent();
                if (checkout != null && Files.isExecutable(checkout.resolve("runaway"))) {
                    return new Launch(checkout.resolve("runaway").toString(), checkout.resolve("runaway")
                            + " (the checkout's bash launcher: NOT the package's way; install the package for a user's figures)");
                }
            } catch (java.net.URISyntaxException | RuntimeException e) {
                // no checkout beside the classes
            }
            return new Launch("runaway", "runaway on the PATH");
        }

        private static boolean isElf(Path file) {
            try (var in = Files.newInputStream(file)) {
                byte[] magic = in.readNBytes(4);
                return magic.length == 4 && magic[0] == 0x7f && magic[1] == 'E' && magic[2] == 'L' && magic[3] == 'F';
            } catch (IOException e) {
                return false;
            }
        }

        /** The installed package's version, read before any fire (a dpkg query). */
        private static String installedVersion() {
            try {
                Process p = new ProcessBuilder("dpkg-query", "-W", "-f", "${Version}", "runaway").redirectErrorStream(true).start();
                String v = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
                return p.waitFor() == 0 && !v.isEmpty() ? "version " + v : "not from a package";
            } catch (IOException | InterruptedException e) {
                return "version unknown";
            }
        }
    }

    static final String INSTALLED = "/usr/bin/runaway";

    /** An X display to open the console on. */
    public static boolean hasDisplay() {
        String display = System.getenv("DISPLAY");
        return display != null && !display.isBlank();
    }

    private static int tasksNow() throws IOException {
        String[] f = new ProcReader(PROC).text("loadavg").orElse("0 0 0 0/0 0").trim().split("\\s+");
        return Integer.parseInt(f[3].substring(f[3].indexOf('/') + 1));
    }

    private static double load1() {
        String[] f = new ProcReader(PROC).text("loadavg").orElse("0").trim().split("\\s+");
        return Double.parseDouble(f[0]);
    }
}
