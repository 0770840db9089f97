// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import dev.runaway.model.ProcessIdentity;
import dev.runaway.sys.LibC;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The fork logs of samplers that have watched longer than a stop (the console, {@code top},
 * the {@code runaway metrics} service and the guard in it), offered to that stop: in the same
 * process directly, and to other processes by question: each sampler running as root keeps a
 * {@link ControlDoor} at {@code /run/runaway/lineage/PID.sock} (a root-owned directory), and a
 * stop asks it for the forks since its root began ({@link LineageQuestion}); the answer comes
 * from the sampler's memory, as it is at the question. A stop joins the oldest log that
 * reaches past its own subscription, so it knows every fork from that log's start on
 * (docs/guided-stop.md, "Lineage").
 */
public final class SharedLineage {
    public static final Path DEFAULT_DIR = Path.of("/run/runaway/lineage");
    private static final List<Published> IN_PROCESS = new CopyOnWriteArrayList<>();

    /** A log another sampler kept, joined: who kept it and since when it knows. */
    public record Source(String who, int pid, long sinceTicks) {
    }

    /** A join's outcome: the log joined, or empty and why none was (said in the stop's plan). */
    public record Join(Optional<Source> source, String missed) {
        static Join joined(Source s) {
            return new Join(Optional.of(s), "");
        }

        static Join none(String why) {
            return new Join(Optional.empty(), why);
        }
    }

    private SharedLineage() {
    }

    /** The directory of the doors: {@code -Drunaway.lineage.dir} (tests), else {@link #DEFAULT_DIR}. */
    public static Path dir() {
        String set = System.getProperty("runaway.lineage.dir");
        return set == null || set.isEmpty() ? DEFAULT_DIR : Path.of(set);
    }

    /** A sampler's log, offered while it runs. */
    public static final class Published implements AutoCloseable {
        private final ForkLog log;
        private final LineageQuestion.Keeper keeper;
        private ControlDoor door;

        private Published(ForkLog log, LineageQuestion.Keeper keeper) {
            this.log = log;
            this.keeper = keeper;
        }

        /** The answer to one question from a uid: the forks since the time it asked for, or why not. */
        LineageQuestion.Answer answer(byte[] line, int uid, boolean procHidesOthers) {
            Optional<LineageQuestion.Question> q = LineageQuestion.Question.parse(line);
            if (q.isEmpty()) {
                return new LineageQuestion.Refusal(LineageQuestion.Refusal.Why.USAGE, "LINEAGE ROOT_PID ROOT_START SINCE (boot ticks)");
            }
            if (uid != 0 && procHidesOthers) {
                return new LineageQuestion.Refusal(LineageQuestion.Refusal.Why.HIDDEN,
                        "/proc hides other users' processes here (hidepid): only root is answered");
            }
            return new LineageQuestion.Lineage(keeper, (int) ProcessHandle.current().pid(), log.snapshotSince(q.get().sinceTicks()));
        }

        @Override
        public void close() {
            IN_PROCESS.remove(this);
            if (door != null) door.close();
        }
    }

    /**
     * Offers {@code log} to stops in this process, and as root to stops in others through a door
     * (when the directory can be made root's alone; else only in this process, said once).
     */
    public static Published publish(ForkLog log, LineageQuestion.Keeper keeper) {
        return publish(log, keeper, dir().resolve(ProcessHandle.current().pid() + ".sock"));
    }

    private static final byte[] WARM_UP = "LINEAGE 1 1 1".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    static Published publish(ForkLog log, LineageQuestion.Keeper keeper, Path socket) {
        Published p = new Published(log, keeper);
        IN_PROCESS.add(p);
        if (LibC.INSTANCE.geteuid() == 0) {
            try {
                // The whole answer's path (the JSON writer) loaded before the door's socket exists: loaded
                // at the first question, during a fire, it waited for a starved thread, no answer in 10 s.
                LineageQuestion.encode(p.answer(WARM_UP, 0, false));
                p.door = ControlDoor.open(socket, "lineage", new ControlDoor.Answerer() {
                    @Override
                    public byte[] answer(byte[] line, int uid) {
                        return LineageQuestion.encode(p.answer(line, uid, uid != 0 && procHidesOthers()));
                    }

                    @Override
                    public byte[] refused(ControlDoor.Refusal why, String words) {
                        return LineageQuestion.encode(new LineageQuestion.Refusal(LineageQuestion.of(why), words));
                    }
                });
            } catch (IOException | RuntimeException e) {
                System.err.println("runaway: lineage kept in this process only (" + e.getMessage() + ")");
            }
        }
        return p;
    }

    private static boolean procHidesOthers() {
        return LineageQuestion.procHidesOthers(new ProcReader(Path.of("/proc")).text("self/mountinfo").orElse(""));
    }

    /**
     * Joins into {@code own} the oldest log that reaches past its subscription: one of this
     * process's samplers at once, else the answers of the samplers' doors to the question of the
     * forks since {@code root} began, each asked within {@code patience}. Empty when there is none
     * (then {@code own} alone knows), with the reason: no sampler, none answered in time, a
     * refusal, a log that began again after lost events.
     */
    public static Join joinInto(ForkLog own, ProcessIdentity root, Duration patience) {
        Published oldest = null;
        for (Published p : IN_PROCESS) if (oldest == null || p.log.since() < oldest.log.since()) oldest = p;
        String inProcess = null;
        if (oldest != null) {
            ForkLog.Snapshot snapshot = oldest.log.snapshotSince(root.startTicks());
            if (own.splice(snapshot)) {
                return Join.joined(new Source(oldest.keeper.words(), (int) ProcessHandle.current().pid(), own.since()));
            }
            inProcess = oldest.keeper.words() + " in this process: " + own.spliceRefusal(snapshot);
        }
        Join asked = ask(own, new LineageQuestion.Question(root.pid(), root.startTicks(), root.startTicks()), dir(), patience);
        return inProcess == null || asked.source().isPresent() ? asked : Join.none(inProcess + "; " + asked.missed());
    }

    /** The doors' part of {@link #joinInto}: the oldest log the samplers of {@code dir} answer with. */
    static Join ask(ForkLog own, LineageQuestion.Question q, Path dir, Duration patience) {
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) return Join.none("no sampler's door (no " + dir + ")");
        try {
            RootFiles.refuseUnsafe(dir, true, Long.MAX_VALUE);
        } catch (IOException | RuntimeException unsafe) {
            return Join.none("the samplers' directory " + dir + " is not root's alone: " + unsafe.getMessage());
        }
        long deadline = System.nanoTime() + patience.toNanos();
        List<String> missed = new ArrayList<>();
        LineageQuestion.Lineage best = null;
        try (DirectoryStream<Path> doors = Files.newDirectoryStream(dir, "*.sock")) {
            for (Path door : doors) {
                String pid = door.getFileName().toString().replace(".sock", "");
                long left = Math.max(1, deadline - System.nanoTime());
                try {
                    LineageQuestion.Answer a = LineageQuestion.decode(
                            ControlDoor.ask(door, q.line(), LineageQuestion.MAX_ANSWER_BYTES, Duration.ofNanos(left)));
                    if (a instanceof LineageQuestion.Refusal r) {
                        missed.add("the sampler of pid " + pid + " refused: " + r.why() + " (" + r.words() + ")");
                    } else if (a instanceof LineageQuestion.Lineage l) {
                        String refusal = own.spliceRefusal(l.snapshot());
                        if (refusal != null) missed.add(l.keeper().words() + "'s (pid " + l.pid() + "): " + refusal);
                        else if (best == null || l.snapshot().sinceTicks() < best.snapshot().sinceTicks()) best = l;
                    }
                } catch (java.net.ConnectException | java.nio.file.NoSuchFileException gone) {
                    missed.add("the sampler of pid " + pid + " is gone (its door does not answer)");
                } catch (IOException | RuntimeException e) {
                    missed.add("the sampler of pid " + pid + ": " + e.getMessage());
                }
            }
        } catch (IOException e) {
            return Join.none("the samplers' directory " + dir + " could not be read: " + e.getMessage());
        }
        if (best != null && own.splice(best.snapshot())) return Join.joined(new Source(best.keeper().words(), best.pid(), own.since()));
        return Join.none(missed.isEmpty() ? "no sampler's door in " + dir : String.join("; ", missed));
    }
}
