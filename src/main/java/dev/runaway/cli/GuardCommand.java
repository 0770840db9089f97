// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.runaway.guard.GuardControl;
import dev.runaway.guard.GuardPolicy;
import dev.runaway.guard.GuardState;
import dev.runaway.guard.HeldGroup;
import dev.runaway.metrics.MetricsExporter;
import dev.runaway.model.Json;
import dev.runaway.model.SafeText;
import dev.runaway.model.ShellWords;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/** {@code runaway guard}: holds a runaway when nobody is watching, and hands the decision to a person (docs/guard.md). */
@Command(name = "guard", mixinStandardHelpOptions = true,
        description = {"Holds a runaway reversibly when nobody is watching, and hands the decision to a person.",
                "It watches every fork and holds a group that crosses the policy's line: growing recursion, a cap refusing",
                "its forks, or exhaustion of memory or pids within minutes. A hold is reversible (its cgroup frozen, else",
                "SIGSTOP of exactly its members), never a kill; its owner is told on their desktop (Open Runaway, Stop,",
                "Release), the journal and the metrics say it, and scan, top and the console show it as HELD.",
                "Runs until stopped (stopping it releases its holds). Policy: /etc/runaway/guard.conf (" + Guide.DIR + "guard.html)."})
public final class GuardCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--policy", paramLabel = "FILE", description = "the policy (default: " + "/etc/runaway/guard.conf" + "; none there: the defaults)")
    Path policyFile = GuardPolicy.DEFAULT_FILE;

    @Option(names = "--dry-run", description = "say what it would hold, and hold nothing")
    boolean dryRun;

    @Option(names = "--status", description = "list what the running guard holds, and exit")
    boolean status;

    @Option(names = "--json", description = "with --status: as JSON")
    boolean json;

    @Option(names = "--release", paramLabel = "KEY", description = "ask the running guard to release the group KEY exactly as it was (root, or its owner)")
    String release;

    @Option(names = "--stop", paramLabel = "KEY", description = "ask the running guard to stop the held group KEY to zero (root, or its owner)")
    String stop;

    @Option(names = "--listen", paramLabel = "ADDR:PORT", converter = MetricsCommand.Listen.class,
            description = "also serve the metrics here (the same sampler as runaway metrics)")
    InetSocketAddress listen;

    @Option(names = "--textfile", paramLabel = "DIR", description = "also write the metrics as DIR/runaway.prom")
    Path textfile;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (status) return status(out);
        if (release != null || stop != null) return ask(release != null ? GuardControl.release(release) : GuardControl.stop(stop), out, err);
        GuardPolicy policy;
        try {
            policy = GuardPolicy.load(policyFile);
        } catch (GuardPolicy.Invalid e) {
            err.println("runaway guard: " + policyFile + ": " + e.getMessage());
            return 2;
        }
        MetricsExporter.Options options = new MetricsExporter.Options(Optional.ofNullable(listen), Optional.ofNullable(textfile),
                Duration.ofSeconds(15), 20, Optional.of(new MetricsExporter.GuardOptions(policy, dryRun)));
        dev.runaway.stop.act.OomShield.protectSelf(Path.of("/proc"), null); // it must outlive what it holds
        MetricsExporter running = MetricsExporter.start(options, err); // as runaway metrics: the log on stderr, the journal under systemd
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            running.close();
            stopped.countDown();
        }, "runaway-guard-stop"));
        stopped.await();
        return 0;
    }

    private int status(PrintWriter out) {
        Collection<HeldGroup> held = GuardState.read().values();
        if (json) {
            ObjectMapper m = Json.EPOCH_TIMES;
            ArrayNode a = m.createArrayNode();
            for (HeldGroup h : held) a.add(m.valueToTree(h));
            out.println(a.toPrettyString());
            return 0;
        }
        if (held.isEmpty()) {
            out.println("Nothing is held" + (GuardState.read().isEmpty() ? " (or no guard runs)" : ""));
            return 0;
        }
        for (HeldGroup h : held) {
            // The key, the reason and the cgroup are their owners' choice: escaped; the commands quote the key exactly.
            out.println((h.dryRun() ? "WOULD HOLD " : "HELD ") + SafeText.terminal(h.key()) + "  " + h.processes() + " processes, "
                    + (h.lever().isEmpty() ? "dry run" : h.lever()) + ", since " + h.since()
                    + (h.cgroup().isEmpty() ? "" : ", cgroup " + SafeText.terminal(h.cgroup())));
            out.println("  why: " + SafeText.terminal(h.why()));
            out.println("  release: runaway guard --release " + ShellWords.quote(h.key())
                    + "   stop: runaway guard --stop " + ShellWords.quote(h.key())); // the held user's processes only
        }
        return 0;
    }

    private static int ask(GuardControl.Request r, PrintWriter out, PrintWriter err) {
        try {
            String answer = GuardControl.ask(r);
            (answer.startsWith("OK") ? out : err).println(SafeText.terminal(answer)); // it names the key
            return answer.startsWith("OK") ? 0 : 1;
        } catch (IOException e) {
            err.println("runaway guard: no guard answers at " + GuardControl.socketPath() + " (" + SafeText.terminal(e.getMessage())
                    + "): is it running?");
            return 2;
        }
    }
}
