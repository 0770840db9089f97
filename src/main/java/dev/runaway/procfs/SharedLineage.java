// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runaway.model.Json;
import dev.runaway.sys.LibC;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The fork logs of samplers that have watched longer than a stop (the console, {@code top},
 * the {@code runaway metrics} service), offered to that stop: in the same process directly,
 * and to other processes as a file each sampler running as root rewrites (atomically, by
 * rename) in a root-owned directory, {@code /run/runaway/lineage/PID.json}, every 250 ms when
 * something changed and every second regardless. A stop joins the oldest log that reaches past
 * its own subscription, so it knows every fork from that log's start on (docs/guided-stop.md,
 * "Lineage").
 */
public final class SharedLineage {
    public static final Path DEFAULT_DIR = Path.of("/run/runaway/lineage");
    static final long WRITE_EVERY_MILLIS = 250;
    static final long HEARTBEAT_MILLIS = 1000;
    private static final long MAX_FILE_BYTES = 64L << 20;
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

    /** The directory of the files: {@code -Drunaway.lineage.dir} (tests), else {@link #DEFAULT_DIR}. */
    public static Path dir() {
        String set = System.getProperty("runaway.lineage.dir");
        return set == null || set.isEmpty() ? DEFAULT_DIR : Path.of(set);
    }

    /** A sampler's log, offered while it runs. */
    public static final class Published implements AutoCloseable {
        private final ForkLog log;
        private final String who;
        private final Path file;
        private final Thread writer;
        private volatile boolean closed;

        private Published(ForkLog log, String who, Path file) {
            this.log = log;
            this.who = who;
            this.file = file;
            this.writer = file == null ? null : new Thread(this::writeLoop, "runaway-lineage-writer");
        }

        private void writeLoop() {
            int written = -1;
            long last = 0;
            while (!closed) {
                try {
                    Thread.sleep(WRITE_EVERY_MILLIS);
                    long now = System.nanoTime();
                    if (log.changes() != written || now - last >= HEARTBEAT_MILLIS * 1_000_000L) {
                        written = log.changes();
                        write(file, who, log.snapshot());
                        last = now;
                    }
                } catch (InterruptedException e) {
                    return;
                } catch (IOException | RuntimeException e) {
                    System.err.println("runaway: the lineage file " + file + " could not be written: " + e.getMessage()
                            + "; a later stop in another process follows only its own process events");
                    return;
                }
            }
        }

        @Override
        public void close() {
            closed = true;
            IN_PROCESS.remove(this);
            if (writer != null) {
                writer.interrupt();
                try {
                    writer.join(2000);
                    Files.deleteIfExists(file);
                } catch (InterruptedException | IOException e) {
                    // a file left behind names a gone writer: readers skip it (taken before they began)
                }
            }
        }
    }

    /**
     * Offers {@code log} to stops in this process, and as root to stops in others through a file
     * (when the directory can be made root's alone; else only in this process, said once).
     */
    public static Published publish(ForkLog log, String who) {
        Path file = null;
        if (LibC.INSTANCE.geteuid() == 0) {
            try {
                Path dir = dir();
                RootFiles.directory(dir);
                file = dir.resolve(ProcessHandle.current().pid() + ".json");
            } catch (IOException | RuntimeException e) {
                System.err.println("runaway: lineage kept in this process only (" + e.getMessage() + ")");
            }
        }
        Published p = new Published(log, who, file);
        IN_PROCESS.add(p);
        if (p.writer != null) {
            p.writer.setDaemon(true);
            p.writer.start();
        }
        return p;
    }

    /**
     * Joins into {@code own} the oldest log that reaches past its subscription: one of this
     * process's samplers at once, else a file, waiting up to {@code patience} for one written
     * after {@code own} subscribed. Empty when there is none (then {@code own} alone knows), with
     * the reason: no sampler, a file last written before the stop began (its writer starved or
     * gone), a log that began again after lost events.
     */
    public static Join joinInto(ForkLog own, Duration patience) {
        Published oldest = null;
        for (Published p : IN_PROCESS) if (oldest == null || p.log.since() < oldest.log.since()) oldest = p;
        String inProcess = null;
        if (oldest != null) {
            ForkLog.Snapshot snapshot = oldest.log.snapshot();
            if (own.splice(snapshot)) return Join.joined(new Source(oldest.who, (int) ProcessHandle.current().pid(), own.since()));
            inProcess = oldest.who + " in this process: " + own.spliceRefusal(snapshot);
        }
        Join files = joinFromFiles(own, dir(), patience);
        return inProcess == null || files.source().isPresent() ? files : Join.none(inProcess + "; " + files.missed());
    }

    /** The files' part of {@link #joinInto}: the oldest log of {@code dir} written after {@code own} subscribed. */
    static Join joinFromFiles(ForkLog own, Path dir, Duration patience) {
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) return Join.none("no sampler's lineage file (no " + dir + ")");
        long deadline = System.nanoTime() + patience.toNanos();
        Candidate newest = null;
        String refused = null;
        do {
            Candidate best = null;
            for (Candidate c : candidates(dir)) {
                if (newest == null || c.snapshot.takenTicks() > newest.snapshot.takenTicks()) newest = c;
                if (c.snapshot.takenTicks() >= own.subscribedTicks() && (best == null || c.snapshot.sinceTicks() < best.snapshot.sinceTicks())) {
                    best = c;
                }
            }
            if (best != null) {
                if (own.splice(best.snapshot)) return Join.joined(new Source(best.who, best.pid, own.since()));
                refused = best.who + "'s (pid " + best.pid + "): " + own.spliceRefusal(best.snapshot);
            }
            if (newest == null) return Join.none("no sampler's lineage file in " + dir);
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        } while (System.nanoTime() < deadline);
        if (refused != null) return Join.none("the lineage file " + refused);
        return Join.none("the newest lineage file, " + newest.who + "'s (pid " + newest.pid + "): "
                + own.spliceRefusal(newest.snapshot) + ", and none was written within " + patience.toMillis() + " ms");
    }

    private record Candidate(String who, int pid, ForkLog.Snapshot snapshot) {
    }

    private static List<Candidate> candidates(Path dir) {
        List<Candidate> out = new ArrayList<>();
        try {
            RootFiles.refuseUnsafe(dir, true, MAX_FILE_BYTES);
        } catch (IOException | RuntimeException unsafe) {
            return out;
        }
        String boot = bootId();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.json")) {
            for (Path f : files) read(f, boot).ifPresent(out::add);
        } catch (IOException e) {
            // an unreadable directory offers nothing
        }
        return out;
    }

    private static Optional<Candidate> read(Path file, String boot) {
        try (InputStream in = Channels.newInputStream(Files.newByteChannel(file, Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)))) {
            RootFiles.refuseUnsafe(file, false, MAX_FILE_BYTES);
            JsonNode n = Json.TREES.readTree(in);
            if (n.path("version").asInt() != 1 || !n.path("bootId").asText().equals(boot)) return Optional.empty();
            List<long[]> records = new ArrayList<>();
            for (JsonNode r : n.path("records")) {
                if (r.size() != 5) return Optional.empty();
                records.add(new long[]{r.get(0).asLong(), r.get(1).asLong(), r.get(2).asLong(), r.get(3).asLong(), r.get(4).asLong()});
            }
            return Optional.of(new Candidate(n.path("who").asText(), n.path("pid").asInt(),
                    new ForkLog.Snapshot(n.path("since").asLong(), n.path("taken").asLong(), records)));
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // being replaced, or not ours: skipped
        }
    }

    /** Writes a snapshot beside the file and renames it over: a reader sees the old file or the new one whole. */
    static void write(Path file, String who, ForkLog.Snapshot s) throws IOException {
        // Streamed, not a tree: a sampler at 50,000 processes rewrites this every second.
        RootFiles.replace(file, out -> {
            try (com.fasterxml.jackson.core.JsonGenerator g = Json.TREES.getFactory().createGenerator(out)) {
                g.writeStartObject();
                g.writeNumberField("version", 1);
                g.writeStringField("bootId", bootId());
                g.writeStringField("who", who);
                g.writeNumberField("pid", ProcessHandle.current().pid());
                g.writeNumberField("since", s.sinceTicks());
                g.writeNumberField("taken", s.takenTicks());
                g.writeArrayFieldStart("records");
                for (long[] r : s.records()) g.writeArray(r, 0, r.length);
                g.writeEndArray();
                g.writeEndObject();
            }
        });
    }

    private static String bootId() {
        // Files.readString reads one byte of a /proc/sys file on JDK 17 (docs/progress.md, known gaps).
        return new ProcReader(Path.of("/proc")).text("sys/kernel/random/boot_id").orElse("").trim();
    }
}
