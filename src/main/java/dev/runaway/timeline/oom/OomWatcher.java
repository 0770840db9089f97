// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline.oom;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Watches for out-of-memory kills as they happen and tells a listener, one event per kill.
 *
 * <p>The kernel's kills come from /dev/kmsg, read from its end (only records written after the
 * watcher started). Where /dev/kmsg is not readable (an ordinary user where
 * {@code kernel.dmesg_restrict} is 1) they come from {@code journalctl -k -f} instead.
 * systemd-oomd's kills, and the managers' per-unit counts, come from {@code journalctl -f}
 * where the journal has entries. {@link #source()} says in words which sources are in use.
 *
 * <p>Each source is read by a daemon thread; the listener is called from those threads, one
 * event at a time. {@link #close()} stops the threads and the journalctl child it started
 * (that process only, by its handle), and returns once they are done: no event is delivered after it.
 */
public final class OomWatcher implements AutoCloseable {
    public static final Path DEV_KMSG = Path.of("/dev/kmsg");
    private static final int WAIT_MILLIS = 250;
    private static final long JOIN_MILLIS = 3_000;

    private final Consumer<OomEvent> listener;
    private final Object deliverLock = new Object();
    private final List<Thread> threads = new ArrayList<>();
    private final KmsgReader kmsg;
    private final BootClock clock;
    private final String kernelSource;
    private final String oomdSource;
    private final String source;
    private volatile boolean closed;
    private volatile Process journal;
    private volatile String problem = "";

    private OomWatcher(Consumer<OomEvent> listener, KmsgReader kmsg, BootClock clock,
                       String kernelSource, String oomdSource, String source) {
        this.listener = listener;
        this.kmsg = kmsg;
        this.clock = clock;
        this.kernelSource = kernelSource;
        this.oomdSource = oomdSource;
        this.source = source;
    }

    /** Watches this machine's sources, starting journalctl directly where it is needed. */
    public static OomWatcher start(Consumer<OomEvent> listener) {
        return start(listener, Launcher.direct());
    }

    /** Watches this machine's sources; journalctl children are started by {@code launcher}. */
    public static OomWatcher start(Consumer<OomEvent> listener, Launcher launcher) {
        return start(listener, launcher, DEV_KMSG);
    }

    /** As {@link #start(Consumer, Launcher)} with kmsg at {@code kmsgPath} (tests give one that is not readable). */
    static OomWatcher start(Consumer<OomEvent> listener, Launcher launcher, Path kmsgPath) {
        KmsgReader reader = null;
        String kmsgProblem = "";
        try {
            reader = new KmsgReader(kmsgPath, true);
        } catch (IOException e) {
            kmsgProblem = e.getMessage();
        }
        Journal.Presence presence = Journal.probe(launcher);
        boolean kmsgOk = reader != null;
        String kernel = kmsgOk ? kmsgPath.toString() : presence.hasEntries() ? "journalctl -k" : "none";
        String oomd = presence.hasEntries() ? "journalctl" : "none";
        String words;
        if (kmsgOk) {
            words = kmsgPath + " (the kernel's OOM kills, new records only); systemd-oomd: "
                    + (presence.hasEntries() ? "journalctl -f (its kills and the managers' counts)"
                    : "not watched, no journal to read it from (" + presence.why() + ")");
        } else if (presence.hasEntries()) {
            words = "journalctl -k -f (the kernel's OOM kills; " + kmsgProblem + "); systemd-oomd: journalctl -f";
        } else {
            words = "none: " + kmsgProblem + ", and no journal (" + presence.why() + ")";
        }
        OomWatcher watcher = new OomWatcher(listener, reader, BootClock.detect(), kernel, oomd, words);
        if (kmsgOk) watcher.startKmsgThread();
        if (presence.hasEntries()) watcher.startJournalThread(Journal.followCommand(Journal.matches(!kmsgOk, true)), launcher);
        return watcher;
    }

    /**
     * Watches one file in /dev/kmsg's format from its end: /dev/kmsg itself, or in tests a plain
     * file they append records to. Times are made wall-clock with {@code clock}.
     */
    public static OomWatcher onKmsg(Path path, BootClock clock, Consumer<OomEvent> listener) throws IOException {
        OomWatcher watcher = new OomWatcher(listener, new KmsgReader(path, true), clock, path.toString(), "none", path.toString());
        watcher.startKmsgThread();
        return watcher;
    }

    /**
     * Watches the JSON lines a journalctl-like {@code command} prints (for tests: a command that
     * prints a fixture), started by {@code launcher}.
     */
    public static OomWatcher onJournal(List<String> command, Launcher launcher, Consumer<OomEvent> listener) throws IOException {
        OomWatcher watcher = new OomWatcher(listener, null, BootClock.detect(), String.join(" ", command), String.join(" ", command),
                String.join(" ", command));
        watcher.journal = launcher.start(new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD));
        watcher.startJournalThread(watcher.journal);
        return watcher;
    }

    /** In words: which source each kind of kill comes from, and why where one is missing. */
    public String source() {
        return source;
    }

    /** Where the kernel's kills come from: "/dev/kmsg", "journalctl -k" or "none". */
    public String kernelSource() {
        return kernelSource;
    }

    /** Where systemd-oomd's kills come from: "journalctl" or "none". */
    public String oomdSource() {
        return oomdSource;
    }

    /** Empty while all is well; else what went wrong since (a source ended, a read failed). */
    public String problem() {
        return problem;
    }

    /** kmsg records overwritten in the ring buffer before the watcher read them. */
    public long lostRecords() {
        return kmsg == null ? 0 : kmsg.lost();
    }

    /** The journalctl child, while one runs. */
    public Optional<ProcessHandle> journalProcess() {
        Process process = journal;
        return process == null ? Optional.empty() : Optional.of(process.toHandle());
    }

    private void startKmsgThread() {
        start("runaway-oom-kmsg", this::readKmsg);
    }

    private void startJournalThread(List<String> command, Launcher launcher) {
        try {
            journal = launcher.start(new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD));
            startJournalThread(journal);
        } catch (IOException e) {
            problem = "journalctl did not start: " + e.getMessage();
        }
    }

    private void startJournalThread(Process process) {
        start("runaway-oom-journal", () -> readJournal(process));
    }

    private void start(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        threads.add(thread);
        thread.start();
    }

    private void readKmsg() {
        OomJoiner joiner = new OomJoiner(this::deliver);
        try {
            while (!closed) {
                for (String line : kmsg.read(WAIT_MILLIS)) KmsgRecord.parse(line).ifPresent(r -> joiner.accept(r.toLogLine(clock)));
                joiner.tick();
            }
        } catch (IOException | RuntimeException e) {
            problem = "reading " + kernelSource + " stopped: " + e.getMessage();
        }
        joiner.flush();
    }

    private void readJournal(Process process) {
        OomJoiner joiner = new OomJoiner(this::deliver);
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            while (!closed) {
                if (!in.ready()) {
                    if (!process.isAlive()) {
                        for (String line = in.readLine(); line != null; line = in.readLine()) JournalJson.parse(line).ifPresent(joiner::accept);
                        if (!closed) problem = "journalctl ended with status " + process.exitValue();
                        break;
                    }
                    joiner.tick();
                    Thread.sleep(100);
                    continue;
                }
                String line = in.readLine();
                if (line == null) break;
                JournalJson.parse(line).ifPresent(joiner::accept);
            }
        } catch (IOException e) {
            if (!closed) problem = "reading journalctl stopped: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        joiner.flush();
    }

    private void deliver(OomEvent event) {
        synchronized (deliverLock) {
            try {
                listener.accept(event);
            } catch (RuntimeException e) {
                problem = "the listener failed on " + event.summary() + ": " + e;
            }
        }
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        Process process = journal;
        if (process != null) Journal.stop(process);
        for (Thread thread : threads) {
            try {
                thread.join(JOIN_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        if (kmsg != null) kmsg.close();
    }
}
