// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.runaway.model.Json;
import dev.runaway.model.ProcessIdentity;
import dev.runaway.model.ProcessSample;
import dev.runaway.model.SafeText;
import dev.runaway.procfs.ProcStat;
import dev.runaway.procfs.PulseReader;
import dev.runaway.stoporder.StopStep;
import dev.runaway.stop.act.Actuator;
import dev.runaway.stop.plan.Disposable;
import dev.runaway.stop.target.Placement;
import dev.runaway.stop.target.Targets;
import dev.runaway.stop.target.Exclusions;
import dev.runaway.stop.run.FirstLever;
import dev.runaway.stop.run.GrowthFirst;
import dev.runaway.stop.plan.LeverCheck;
import dev.runaway.stop.act.OomShield;
import dev.runaway.stop.Priority;
import dev.runaway.stop.run.RtKill;
import dev.runaway.stop.run.RtKillZero;
import dev.runaway.stop.Selector;
import dev.runaway.stop.StepEvents;
import dev.runaway.stop.StopCore;
import dev.runaway.stop.run.StopEngine;
import dev.runaway.stop.plan.StopPlan;
import dev.runaway.stop.StopSession;
import dev.runaway.timeline.IncidentAppender;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code runaway stop}: the guided stop from the command line, on the one stop core. */
@Command(name = "stop", mixinStandardHelpOptions = true,
        description = {"The guided stop: stop growth first, kill the fixed set, confirm zero, put back what was changed.",
                "Prints the plan (targets, what is excluded, and each lever with why it can be pulled or not), asks once, then runs it."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:zero confirmed", "1:not confirmed by the user", "2:usage",
                "3:zero not reached or not confirmable (survivors listed)", "4:refused (the reason is printed)"})
public final class StopCommand implements Callable<Integer> {
    static final Path PROC = Path.of("/proc");
    static final Path INSTALLED_HELPER = dev.runaway.stop.helper.InstalledHelper.PATH;
    /** Set by the launcher: when it started, as bash's EPOCHREALTIME (seconds.microseconds). */
    static final String LAUNCHED_AT = "RUNAWAY_LAUNCHED_AT";
    /** The launcher's pid: it execs this JVM, so a time set for another process (a parent's, inherited) is not taken. */
    static final String LAUNCHED_PID = "RUNAWAY_LAUNCHED_PID";
    /** Set by the launcher just before it execs java: the launcher's own share of the start-up. */
    static final String LAUNCHER_EXEC_AT = "RUNAWAY_EXEC_AT";
    /** Set by runaway-rt when the launcher became a real-time task: how long it ran at ordinary priority. */
    static final String REALTIME_AT = "RUNAWAY_REALTIME_AT";

    @Spec
    CommandSpec spec;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Selection selection;

    static final class Selection {
        @Option(names = "--command", paramLabel = "KEY", description = "every process of this command key (see runaway scan), and all below them")
        String command;

        @Option(names = "--pid", paramLabel = "PID", description = "this process and every descendant, followed through parents that exited")
        Integer pid;

        @Option(names = "--chain", paramLabel = "ROOTPID", description = "the chain whose top is ROOTPID: it and every descendant")
        Integer chain;

        @Option(names = "--cgroup", paramLabel = "PATH", description = "every process in this v2 cgroup and its subtree (as /proc/PID/cgroup prints it)")
        String cgroup;
    }

    /** Where the confirmation is read from (a test gives its own). */
    java.io.InputStream input = System.in;

    /** Where the launcher's start time is read from (a test gives its own). */
    java.util.Map<String, String> environment = System.getenv();

    @Option(names = "--yes", description = "do not ask; the growth lever is taken as soon as the targets are known, before the plan is printed")
    boolean yes;

    @Option(names = "--keep-revoked", description = "leave execute permission off the binaries afterwards")
    boolean keepRevoked;

    @Option(names = "--json", description = "print the plan, the steps and the outcome as JSON")
    boolean json;

    @Option(names = "--record", paramLabel = "FILE",
            description = "add each step to this incident file (the one 'runaway record' writes), or start one")
    Path record;

    @Override
    public Integer call() throws Exception {
        long entered = System.nanoTime();
        long enteredMicros = epochMicros();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        // As root the launcher's runaway-rt may have frozen them before this JVM started: adopted below, or undone.
        Optional<FirstLever> rt = yes ? FirstLever.of(environment, ProcessHandle.current().pid()) : Optional.empty();
        Selector selector = selector(rt);
        try (Actuator actuator = dev.runaway.stop.Actuators.forThisUser(PROC)) {
            if (selector == null) {
                int pid = selection.pid != null ? selection.pid : selection.chain;
                err.println("runaway stop: refused: " + (pid <= 1 ? "pid " + pid + " is init or the kernel" : "no process " + pid));
                rt.filter(FirstLever::frozen).ifPresent(l -> undo(actuator, l, err));
                return 4;
            }
            try {
                return stop(actuator, selector, rt, entered, enteredMicros, out, err);
            } catch (Exception | Error e) {
                // Nothing stays frozen on runaway-rt's word alone (the engine's own restore does the same for its levers).
                rt.filter(FirstLever::frozen).ifPresent(l -> undo(actuator, l, err));
                throw e;
            }
        }
    }

    private static void undo(Actuator actuator, FirstLever l, PrintWriter err) {
        if (!l.pidsMax().isEmpty()) actuator.adoptPidsCap(l.cgroup(), l.pidsMax(), l.pidsOld());
        GrowthFirst.thaw(actuator, l.cgroup(), true);
        err.println("runaway stop: thawed " + SafeText.terminal(l.cgroup()) + " again and put its pids.max back");
    }

    private int stop(Actuator actuator, Selector selector, Optional<FirstLever> rt, long entered, long enteredMicros, PrintWriter out,
                     PrintWriter err) throws Exception {
        long launchedMicros = launchedAtMicros();
        StopCore core = new StopCore(PROC, PulseReader.live(), actuator, Disposable.forThisUser());
        if (yes) core.confirmedUpFront(); // a helper started for the plan then names the stop in its prompt
        long coreReady = System.nanoTime();
        RtKill rtKill = RtKill.of(environment, rt);
        if (rtKill.killed() && rt.get().selector().equals(Optional.of(selector))) {
            RtKillZero zero = RtKillZero.confirm(PROC, selector, actuator, core.exclusions(), rt.get());
            if (zero.zeroConfirmed()) return afterRtKill(selector, rt.get(), rtKill, zero, entered, enteredMicros, coreReady, out);
            // Members outside the killed cgroup: the ordinary stop takes them, and says runaway-rt killed first.
            err.println("runaway stop: " + SafeText.terminal(zero.note()) + "; the stop goes on for them");
            rt = Optional.empty();
        }
        // Confirmed on the command line: stop growth first, from the cheapest exact reading, then plan while frozen.
        GrowthFirst.Attempt attempt = rt.filter(FirstLever::frozen).isPresent()
                ? GrowthFirst.adopt(PROC, selector, actuator, core.exclusions(), rt.get(), entered + (rt.get().atMicros() - enteredMicros) * 1000)
                : yes ? GrowthFirst.attempt(PROC, selector, actuator, core.exclusions())
                : GrowthFirst.Attempt.not("not confirmed on the command line (--yes)", java.util.Map.of());
        long earlyDone = System.nanoTime();
        GrowthFirst.Planned after = GrowthFirst.plan(core, PROC, selector, attempt, actuator);
        StopSession session = after.session();
        Optional<GrowthFirst.Frozen> early = after.frozen();
        long planned = System.nanoTime();
        if (session.state() != StopSession.State.READY) {
            err.println("runaway stop: refused: " + SafeText.terminal(session.refusal().map(StopSession.Refusal::words).orElse("nothing to stop")));
            after.thawed().ifPresent(cgroup -> err.println("runaway stop: thawed " + SafeText.terminal(cgroup)
                    + " again and put its pids.max back: growth is NOT stopped"));
            return 4;
        }
        StopPlan plan = session.plan();
        Priority priority = Priority.ofThisProcess();
        if (!json) {
            plan.describe().forEach(line -> out.println(SafeText.terminal(line))); // keys, names and paths are their owners' choice
            out.println("Priority: " + priority.words());
            early.ifPresent(f -> out.println("Growth stopped already, as soon as the targets were known, before this plan: "
                    + (f.pidsCapped() ? "pids.max 0 and freezing " : "froze ") + SafeText.terminal(f.cgroup()) + " (" + f.members() + " processes)"));
            if (!session.helperNote().isEmpty()) out.println("Helper: " + SafeText.terminal(session.helperNote()));
        }
        out.flush();
        OomShield.protectSelf(PROC, actuator.hasHelper() ? actuator : null).ifPresent(err::println);
        if (!yes && !confirmed(out, plan)) {
            err.println("runaway stop: not confirmed; nothing was done");
            session.cancel();
            return 1;
        }
        long confirmed = System.nanoTime();
        IncidentAppender incident = record == null ? null : IncidentAppender.open(record, "stop");
        StopEngine.Outcome outcome;
        try {
            outcome = session.run(keepRevoked, step -> {
                if (!json) {
                    out.println("  " + SafeText.terminal(step.toString()));
                    out.flush();
                }
                if (incident != null) appendStep(incident, step, plan.command(), err);
            });
        } finally {
            if (incident != null) incident.close();
        }
        long growthStoppedNanos = early.map(GrowthFirst.Frozen::atNanos).orElse(outcome.millisToGrowthStopped() < 0 ? -1
                : confirmed + outcome.millisToGrowthStopped() * 1_000_000);
        long zeroNanos = outcome.millisToZero() < 0 ? -1 : confirmed + outcome.millisToZero() * 1_000_000;
        Timings timings = new Timings(launchedMicros, launcherMicros(REALTIME_AT), launcherMicros(LAUNCHER_EXEC_AT), enteredMicros, entered, coreReady, earlyDone, planned, growthStoppedNanos,
                zeroNanos);
        if (json) out.println(Json.PRETTY.writeValueAsString(
                toJson(plan, outcome, timings, priority, early, attempt, rt, rtKill)));
        else summary(out, outcome, timings);
        return outcome.zeroConfirmed() ? 0 : 3;
    }

    /**
     * When things happened, for the figures: the launcher's start (or the JVM's), this command's
     * start, the plan, growth stopped, zero (nanoTime; -1 when it did not happen).
     */
    record Timings(long launchedMicros, long realtimeMicros, long execMicros, long enteredMicros, long enteredNanos, long coreReadyNanos, long earlyFreezeNanos,
                   long plannedNanos, long growthStoppedNanos, long zeroNanos) {
        long sinceLaunch(long nanos) {
            if (nanos < 0) return -1;
            return (enteredMicros - launchedMicros) / 1000 + (nanos - enteredNanos) / 1_000_000;
        }

        long growthToZero() {
            return zeroNanos < 0 || growthStoppedNanos < 0 ? -1 : (zeroNanos - growthStoppedNanos) / 1_000_000;
        }
    }

    /**
     * The selector typed, or null when its process does not exist (or is init). A root that
     * runaway-rt read before it froze its cgroup is that very process (its start time), also
     * when it exited since: its descendants are still the stop's.
     */
    private Selector selector(Optional<FirstLever> rt) {
        if (selection.command != null) return new Selector.Command(selection.command);
        if (selection.cgroup != null) return new Selector.Cgroup(selection.cgroup);
        int pid = selection.pid != null ? selection.pid : selection.chain;
        if (pid <= 1) return null;
        Optional<Selector> frozenFor = rt.filter(FirstLever::frozen).flatMap(FirstLever::selector)
                .filter(s -> s.rootProcess() != null && s.rootProcess().pid() == pid && (s instanceof Selector.Process) == (selection.pid != null));
        if (frozenFor.isPresent()) return frozenFor.get();
        Optional<ProcStat> s = ProcStat.read(PROC, pid);
        if (s.isEmpty()) return null;
        return selection.pid != null ? new Selector.Process(s.get().identity()) : new Selector.Chain(s.get().identity());
    }

    long launchedAtMicros() {
        long at = launcherMicros(LAUNCHED_AT);
        if (at > 0) return at;
        return ProcessHandle.current().info().startInstant().map(i -> i.getEpochSecond() * 1_000_000 + i.getNano() / 1000)
                .orElse(epochMicros());
    }

    /** A time the launcher that exec'd this JVM set (bash's EPOCHREALTIME), in microseconds; -1 when not ours or absent. */
    long launcherMicros(String name) {
        String at = environment.get(name);
        boolean ours = Long.toString(ProcessHandle.current().pid()).equals(environment.get(LAUNCHED_PID));
        if (ours && at != null && at.matches("\\d+[.,]\\d{6}")) {
            return Long.parseLong(at.substring(0, at.length() - 7)) * 1_000_000 + Long.parseLong(at.substring(at.length() - 6));
        }
        return -1;
    }

    private static long epochMicros() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000 + now.getNano() / 1000;
    }

    private static void appendStep(IncidentAppender incident, StopStep step, String command, PrintWriter err) {
        try {
            incident.event(StepEvents.of(step, command, incident.timeline()));
        } catch (IOException e) {
            err.println("runaway stop: could not add the step to the incident: " + SafeText.terminal(e.getMessage())); // the stop goes on
        }
    }

    private boolean confirmed(PrintWriter out, StopPlan plan) throws IOException {
        out.print("Stop these " + plan.members().size() + " processes? Type yes: ");
        out.flush();
        String answer = new BufferedReader(new InputStreamReader(input, StandardCharsets.UTF_8)).readLine();
        return answer != null && answer.trim().equalsIgnoreCase("yes");
    }

    private static void summary(PrintWriter out, StopEngine.Outcome outcome, Timings t) {
        switch (outcome.status()) {
            case ZERO_CONFIRMED -> out.printf("Zero confirmed: growth stopped %d ms after the launcher started, zero %d ms after that"
                    + " (the %d s stable window not counted).%n", t.sinceLaunch(t.growthStoppedNanos()), t.growthToZero(),
                    StopEngine.STABLE_WINDOW.toSeconds());
            case SURVIVORS -> {
                out.println("Zero NOT reached. Survivors:");
                for (ProcessSample p : outcome.survivors()) out.println("  pid " + p.pid() + " " + SafeText.terminal(p.exe().isEmpty() ? p.comm() : p.exe()));
                for (int pid : outcome.order().survivors()) {
                    if (outcome.survivors().stream().noneMatch(p -> p.pid() == pid)) out.println("  pid " + pid);
                }
            }
            case UNCONFIRMED -> {
                out.println("Zero NOT confirmed: no target is alive, but these processes, which it may have started, could not be followed:");
                for (ProcessSample p : outcome.unfollowed()) out.println("  pid " + p.pid() + " " + SafeText.terminal(p.exe().isEmpty() ? p.comm() : p.exe()));
            }
        }
        outcome.restoredModes().forEach((file, mode) -> out.printf("Restored %s to mode %o%n", SafeText.terminal(String.valueOf(file)), mode));
    }

    /** The timings every stop's JSON begins with: when the launcher started, and its steps to this command. */
    private static ObjectNode launcherTimings(ObjectNode root, Timings t) {
        ObjectNode timings = root.putObject("timings");
        timings.put("launcherStartedAt", java.time.Instant.EPOCH.plus(t.launchedMicros(), java.time.temporal.ChronoUnit.MICROS).toString());
        if (t.realtimeMicros() > 0) timings.put("launcherToRealtime", (t.realtimeMicros() - t.launchedMicros()) / 1000.0);
        if (t.execMicros() > 0) timings.put("launcherToJvmExec", (t.execMicros() - t.launchedMicros()) / 1000);
        timings.put("launcherToCommand", (t.enteredMicros() - t.launchedMicros()) / 1000);
        return timings;
    }

    /** Which path killed, and why runaway-rt's was not taken ({@link RtKill.Reason}; KILLED when it was). */
    private static void killJson(ObjectNode root, String by, RtKill rtKill) {
        root.putObject("kill").put("by", by).put("rtKill", rtKill.reason().name()).put("rtKillWords", rtKill.words());
    }

    /**
     * runaway-rt killed the frozen cgroup before this JVM, and this JVM confirmed zero: the
     * report, in the shape of every stop's (the plan is the first lever's; there were no steps).
     */
    private int afterRtKill(Selector selector, FirstLever lever, RtKill rtKill, RtKillZero zero, long entered, long enteredMicros, long coreReady,
                            PrintWriter out) throws IOException {
        long growthStopped = entered + (lever.atMicros() - enteredMicros) * 1000;
        long killed = entered + (rtKill.atMicros() - enteredMicros) * 1000;
        Timings t = new Timings(launchedAtMicros(), launcherMicros(REALTIME_AT), launcherMicros(LAUNCHER_EXEC_AT), enteredMicros, entered, coreReady,
                -1, -1, growthStopped, zero.zeroNanos());
        if (!json) {
            out.println("runaway-rt killed " + SafeText.terminal(lever.cgroup()) + " (" + lever.members() + " processes, each one "
                    + SafeText.terminal(selector.label()) + " names) before this JVM started; " + SafeText.terminal(zero.note()));
            out.printf("Zero confirmed: growth stopped %d ms after the launcher started, killed at %d ms, zero %d ms after growth stopped"
                    + " (the %d s stable window not counted).%n", t.sinceLaunch(growthStopped), t.sinceLaunch(killed), t.growthToZero(),
                    StopEngine.STABLE_WINDOW.toSeconds());
            return 0;
        }
        ObjectMapper mapper = Json.TREES;
        ObjectNode root = mapper.createObjectNode();
        killJson(root, "RUNAWAY_RT", rtKill);
        ObjectNode p = root.putObject("plan");
        p.put("command", selector.label()).put("lever", "RT_CGROUP_KILL").put("priority", Priority.ofThisProcess().words());
        ObjectNode first = p.putObject("firstLever");
        first.put("by", "runaway-rt, before the JVM").put("frozen", true).put("killed", true).put("cgroup", lever.cgroup())
                .put("pidsMax", lever.pidsMax()).put("members", lever.members()).put("membersNotRead", lever.unknown()).put("readers", lever.readers());
        first.set("phaseMillis", mapper.valueToTree(lever.phaseMillis()));
        first.put("launcherToFrozen", (lever.atMicros() - t.launchedMicros()) / 1000.0);
        first.put("launcherToKilled", (rtKill.atMicros() - t.launchedMicros()) / 1000.0);
        // runaway-rt waited for the cgroup to empty before it started this JVM (or for its limit)
        if (rtKill.emptiedMicros() > 0) first.put("launcherToEmptied", (rtKill.emptiedMicros() - t.launchedMicros()) / 1000.0);
        root.put("status", zero.status().name()).put("zeroConfirmed", true).put("note", zero.note());
        root.put("millisToGrowthStopped", t.sinceLaunch(growthStopped));
        root.put("millisToZero", t.growthToZero());
        ObjectNode timings = launcherTimings(root, t);
        timings.put("launcherToGrowthStopped", t.sinceLaunch(growthStopped));
        timings.put("launcherToKilled", t.sinceLaunch(killed));
        timings.put("launcherToCgroupEmpty", t.sinceLaunch(zero.emptyNanos()));
        timings.put("launcherToZero", t.sinceLaunch(zero.zeroNanos()));
        timings.put("growthStoppedToZero", t.growthToZero());
        root.putArray("survivors");
        root.putArray("unfollowed");
        root.putArray("steps");
        out.println(Json.PRETTY.writeValueAsString(root));
        return 0;
    }

    /** Whose processes the key's definition found: {"only": uid or null, "spansUsers", "leftOut", "processesByUid": {"1000": 3}}. */
    static ObjectNode usersJson(ObjectMapper mapper, dev.runaway.stop.target.KeyUsers users) {
        ObjectNode u = mapper.createObjectNode();
        if (users.only().isPresent()) u.put("only", users.only().getAsInt());
        else u.putNull("only");
        u.put("spansUsers", users.spansUsers()).put("leftOut", users.leftOut());
        ObjectNode by = u.putObject("processesByUid");
        users.processesByUid().forEach((uid, n) -> by.put(Integer.toString(uid), n));
        return u;
    }

    private static ObjectNode toJson(StopPlan plan, StopEngine.Outcome outcome, Timings t, Priority priority,
                                     Optional<GrowthFirst.Frozen> early, GrowthFirst.Attempt attempt, Optional<FirstLever> rt, RtKill rtKill) {
        ObjectMapper mapper = Json.TREES;
        ObjectNode root = mapper.createObjectNode();
        killJson(root, "JVM", rtKill);
        ObjectNode p = root.putObject("plan");
        p.put("command", plan.command());
        p.put("lever", plan.chosen().name());
        ArrayNode order = p.putArray("order");
        plan.order().forEach(l -> order.add(l.name()));
        p.put("following", plan.targets().following().name());
        p.set("users", usersJson(mapper, plan.targets().users()));
        p.put("privilege", plan.privilege().words());
        p.put("priority", priority.words());
        early.ifPresent(f -> p.putObject("frozenBeforePlan").put("cgroup", f.cgroup()).put("members", f.members())
                .put("pidsCapped", f.pidsCapped()).put("resolveMillis", (f.resolvedNanos() - f.startedNanos()) / 1_000_000)
                .put("freezeMillis", (f.atNanos() - f.resolvedNanos()) / 1_000_000)
                .set("phaseMillis", mapper.valueToTree(f.phaseMillis())));
        ObjectNode tried = p.putObject("earlyFreeze");
        tried.put("result", attempt.why()).put("kept", early.isPresent()).set("phaseMillis", mapper.valueToTree(attempt.phaseMillis()));
        rt.ifPresent(l -> {
            ObjectNode first = p.putObject("firstLever");
            first.put("by", "runaway-rt, before the JVM").put("frozen", l.frozen()).put("refused", l.refused()).put("cgroup", l.cgroup())
                    .put("pidsMax", l.pidsMax()).put("members", l.members()).put("membersNotRead", l.unknown()).put("readers", l.readers());
            first.set("phaseMillis", mapper.valueToTree(l.phaseMillis()));
            if (l.atMicros() > 0) first.put("launcherToFrozen", (l.atMicros() - t.launchedMicros()) / 1000.0);
        });
        ArrayNode targets = p.putArray("targets");
        for (ProcessSample s : plan.members()) {
            targets.addObject().put("pid", s.pid()).put("startTicks", s.identity().startTicks()).put("exe", s.exe());
        }
        ArrayNode checks = p.putArray("levers");
        for (LeverCheck c : plan.checks().values()) {
            checks.addObject().put("lever", c.lever().name()).put("feasible", c.feasible().name()).put("why", c.why());
        }
        ObjectNode applies = p.putObject("applies");
        plan.applies().forEach((l, why) -> applies.put(l.name(), why));
        ObjectNode refused = p.putObject("refused");
        plan.refused().forEach((l, why) -> refused.put(l.name(), why));
        ArrayNode excluded = p.putArray("excluded");
        for (Exclusions.Excluded e : plan.targets().excluded()) {
            excluded.addObject().put("pid", e.process().pid()).put("name", e.name()).put("why", e.why().name());
        }
        ArrayNode unfollowedPlan = p.putArray("unfollowed");
        plan.targets().unfollowed().forEach(s -> unfollowedPlan.add(s.pid()));
        Targets.Lineage lineage = plan.targets().lineage();
        p.putObject("lineage").put("source", lineage.source().name()).put("who", lineage.who()).put("pid", lineage.pid())
                .put("sinceTicks", lineage.sinceTicks()).put("missed", lineage.missed());
        ArrayNode placed = p.putArray("placed");
        for (Placement pl : plan.targets().placements()) {
            ObjectNode n = placed.addObject().put("pid", pl.process().pid()).put("startTicks", pl.process().identity().startTicks())
                    .put("taken", pl.taken()).put("because", pl.because()).put("takeWith", pl.takeWith());
            ArrayNode ev = n.putArray("evidence");
            pl.evidence().stream().sorted().forEach(e -> ev.add(e.name()));
        }
        ArrayNode steps = root.putArray("steps");
        for (StopStep s : outcome.steps()) {
            steps.addObject().put("at", s.at().toString()).put("step", s.step()).put("action", s.action().name())
                    .put("lever", s.lever()).put("count", s.count()).put("result", s.result().name()).put("note", s.note())
                    .put("millis", s.millis());
        }
        root.put("status", outcome.status().name());
        root.put("zeroConfirmed", outcome.zeroConfirmed());
        root.put("millisToGrowthStopped", t.sinceLaunch(t.growthStoppedNanos()));
        root.put("millisToZero", t.growthToZero());
        ObjectNode timings = launcherTimings(root, t);
        timings.put("launcherToCoreReady", t.sinceLaunch(t.coreReadyNanos()));
        timings.put("launcherToEarlyFreezeDone", t.sinceLaunch(t.earlyFreezeNanos()));
        timings.put("launcherToPlan", t.sinceLaunch(t.plannedNanos()));
        timings.put("launcherToGrowthStopped", t.sinceLaunch(t.growthStoppedNanos()));
        timings.put("launcherToZero", t.sinceLaunch(t.zeroNanos()));
        timings.put("growthStoppedToZero", t.growthToZero());
        ArrayNode survivors = root.putArray("survivors");
        outcome.order().survivors().forEach(survivors::add);
        ArrayNode unfollowed = root.putArray("unfollowed");
        outcome.unfollowed().forEach(s -> unfollowed.add(s.pid()));
        ObjectNode restored = root.putObject("restoredModes");
        outcome.restoredModes().forEach((f, m) -> restored.put(f, Integer.toOctalString(m)));
        return root;
    }
}
