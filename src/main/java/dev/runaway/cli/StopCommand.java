package dev.runaway.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.runaway.analysis.TargetSet;
import dev.runaway.model.ProcessSample;
import dev.runaway.procfs.ProcStat;
import dev.runaway.procfs.PulseReader;
import dev.runaway.stop.Actuator;
import dev.runaway.stop.CommandRescan;
import dev.runaway.stop.Disposable;
import dev.runaway.stop.HelperClient;
import dev.runaway.stop.StepEvents;
import dev.runaway.timeline.IncidentAppender;
import dev.runaway.stop.OomShield;
import dev.runaway.stop.Planner;
import dev.runaway.stop.StopEngine;
import dev.runaway.stop.StopPlan;
import dev.runaway.sys.LibC;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/** {@code runaway stop}: the guided stop from the command line. */
@Command(name = "stop", mixinStandardHelpOptions = true,
        description = {"The guided stop: stop growth first, kill the fixed set, confirm zero, put back what was changed.",
                "Prints the plan (targets, and each lever with why it applies or not), asks once, then runs it."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:zero confirmed", "1:not confirmed by the user", "2:usage", "3:zero not reached (survivors listed)",
                "4:refused (the reason is printed)"})
public final class StopCommand implements Callable<Integer> {
    static final Path PROC = Path.of("/proc");
    static final Path INSTALLED_HELPER = dev.runaway.stop.InstalledHelper.PATH;

    @Spec
    CommandSpec spec;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Selection selection;

    static final class Selection {
        @Option(names = "--command", paramLabel = "KEY", description = "every process of this command key (see runaway scan), and all below them")
        String command;

        @Option(names = "--pid", paramLabel = "PID", description = "this process and all below it")
        Integer pid;

        @Option(names = "--chain", paramLabel = "ROOTPID", description = "the chain whose top is ROOTPID: it and all below it")
        Integer chain;

        @Option(names = "--cgroup", paramLabel = "PATH", description = "every process in this v2 cgroup (as /proc/PID/cgroup prints it)")
        String cgroup;
    }

    /** Where the confirmation is read from (a test gives its own). */
    java.io.InputStream input = System.in;

    @Option(names = "--yes", description = "do not ask")
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
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        String refusal = refusal();
        if (refusal != null) {
            err.println("runaway stop: refused: " + refusal);
            return 4;
        }
        PulseReader pulse = PulseReader.live();
        Supplier<TargetSet> rescan = rescan(pulse);
        TargetSet targets = rescan.get();
        if (targets.samples().isEmpty()) {
            err.println("runaway stop: nothing matches " + targets.command() + " (see runaway scan)");
            return 4;
        }
        boolean root = LibC.INSTANCE.geteuid() == 0;
        StopPlan plan = new Planner(Disposable.forThisUser(), root).plan(targets);
        if (!json) plan.describe().forEach(out::println);
        out.flush();
        try (Actuator actuator = new Actuator(PROC, root ? () -> null : StopCommand::startInstalledHelper)) {
            if (!root && plan.privilege().startsWith("the helper is needed")) {
                // Started now, while the plan is read: once pids run out, pkexec cannot start.
                err.println("runaway stop: starting the helper now (pkexec may ask for a password)");
                if (!actuator.warmUp()) err.println("runaway stop: the helper is not available ("
                        + actuator.helperUnavailable().orElse("it did not start") + "); only your own processes can be stopped");
            }
            OomShield.protectSelf(PROC, actuator.hasHelper() ? actuator : null).ifPresent(err::println);
            if (!yes && !confirmed(out, plan)) {
                err.println("runaway stop: not confirmed; nothing was done");
                return 1;
            }
            IncidentAppender incident = record == null ? null : IncidentAppender.open(record, "stop");
            StopEngine engine = new StopEngine(actuator, rescan, step -> {
                if (!json) {
                    out.println("  " + step);
                    out.flush();
                }
                if (incident != null) appendStep(incident, step, plan.command(), err);
            });
            StopEngine.Outcome outcome;
            try {
                outcome = engine.run(plan, keepRevoked);
            } finally {
                if (incident != null) incident.close();
            }
            if (json) out.println(new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(toJson(plan, outcome)));
            else summary(out, outcome);
            return outcome.zeroConfirmed() ? 0 : 3;
        }
    }

    private static void appendStep(IncidentAppender incident, StopEngine.Step step, String command, PrintWriter err) {
        try {
            incident.event(StepEvents.of(step, command, incident.timeline()));
        } catch (IOException e) {
            err.println("runaway stop: could not add the step to the incident: " + e.getMessage()); // the stop goes on
        }
    }

    /** Targets that are never taken, whatever the command line says. */
    private String refusal() {
        Integer pid = selection.pid != null ? selection.pid : selection.chain;
        if (pid != null) {
            if (pid <= 1) return "pid " + pid + " is init or the kernel";
            if (pid == ProcessHandle.current().pid()) return "pid " + pid + " is this console";
            if (ProcStat.read(PROC, pid).isEmpty()) return "no process " + pid;
        }
        if (selection.cgroup != null && (!selection.cgroup.startsWith("/") || selection.cgroup.equals("/")
                || selection.cgroup.contains(".."))) {
            return "'" + selection.cgroup + "' is not a cgroup below the root (write it as /proc/PID/cgroup prints it)";
        }
        return null;
    }

    private Supplier<TargetSet> rescan(PulseReader pulse) {
        if (selection.command != null) return new CommandRescan(PROC, selection.command, pulse);
        if (selection.cgroup != null) {
            String cgroup = selection.cgroup;
            return new CommandRescan(PROC, "cgroup " + cgroup, (p, key) -> p.cgroup().equals(cgroup) || p.cgroup().startsWith(cgroup + "/"), pulse);
        }
        int pid = selection.pid != null ? selection.pid : selection.chain;
        long start = ProcStat.read(PROC, pid).map(ProcStat::startTicks).orElse(-1L);
        return new CommandRescan(PROC, "pid " + pid, (p, key) -> p.pid() == pid && p.identity().startTicks() == start, pulse);
    }

    private boolean confirmed(PrintWriter out, StopPlan plan) throws IOException {
        out.print("Stop these " + plan.targets().size() + " processes? Type yes: ");
        out.flush();
        String answer = new BufferedReader(new InputStreamReader(input, StandardCharsets.UTF_8)).readLine();
        return answer != null && answer.trim().equalsIgnoreCase("yes");
    }

    /** The installed helper through pkexec (polkit asks for the password), or none. */
    static HelperClient startInstalledHelper() {
        return dev.runaway.stop.InstalledHelper.start();
    }

    private static void summary(PrintWriter out, StopEngine.Outcome outcome) {
        if (outcome.zeroConfirmed()) {
            out.printf("Zero confirmed: %d ms from confirmation to zero (the %d s stable window not counted).%n",
                    outcome.millisToZero(), StopEngine.STABLE_WINDOW.toSeconds());
        } else {
            out.println("Zero NOT reached. Survivors:");
            for (ProcessSample p : outcome.survivors()) out.println("  pid " + p.pid() + " " + (p.exe().isEmpty() ? p.comm() : p.exe()));
        }
        if (!outcome.restoredModes().isEmpty()) {
            outcome.restoredModes().forEach((file, mode) -> out.printf("Restored %s to mode %o%n", file, mode));
        }
    }

    private static ObjectNode toJson(StopPlan plan, StopEngine.Outcome outcome) {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode root = mapper.createObjectNode();
        ObjectNode p = root.putObject("plan");
        p.put("command", plan.command());
        p.put("lever", plan.chosen().name());
        ArrayNode targets = p.putArray("targets");
        for (ProcessSample t : plan.targets()) {
            targets.addObject().put("pid", t.pid()).put("startTicks", t.identity().startTicks()).put("exe", t.exe());
        }
        ObjectNode applies = p.putObject("applies");
        plan.applies().forEach((l, why) -> applies.put(l.name(), why));
        ObjectNode refused = p.putObject("refused");
        plan.refused().forEach((l, why) -> refused.put(l.name(), why));
        ArrayNode steps = root.putArray("steps");
        for (StopEngine.Step s : outcome.steps()) {
            steps.addObject().put("at", s.at().toString()).put("step", s.step()).put("lever", s.lever())
                    .put("count", s.count()).put("note", s.note()).put("millis", s.millis());
        }
        root.put("zeroConfirmed", outcome.zeroConfirmed());
        root.put("millisToZero", outcome.millisToZero());
        ArrayNode survivors = root.putArray("survivors");
        outcome.survivors().forEach(s -> survivors.add(s.pid()));
        ObjectNode restored = root.putObject("restoredModes");
        outcome.restoredModes().forEach((f, m) -> restored.put(f, Integer.toOctalString(m)));
        return root;
    }
}
