// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline.oom;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Consumer;

/**
 * Turns log lines, in the order a log gives them, into one event per kill.
 *
 * <p>The kernel: the report's "memory: usage ..., limit ..." and "oom-kill:" lines are held
 * until the "Killed process" line of the same pid, which makes the event (a kill whose header
 * was rate-limited away has that line alone). A report start drops whatever a previous report
 * left unfinished.
 *
 * <p>systemd-oomd: its "Killed CGROUP" line and the manager's "UNIT: systemd-oomd killed N
 * process(es)" come from two processes, in either order, usually within a second. Whichever
 * comes first waits up to {@link #OOMD_WINDOW} for the other, keyed by the unit; alone at the end
 * of the window, it makes the event by itself (a kill without its count, or a count without
 * oomd's line). Waiting is measured on the lines' own clock, and {@link #expire} lets a live
 * reader move that clock on when its log is quiet.
 *
 * <p>Not thread-safe: one joiner per log stream.
 */
public final class OomJoiner {
    /** How long oomd's line and the manager's count wait for each other. */
    public static final Duration OOMD_WINDOW = Duration.ofSeconds(30);
    /** The kernel prints a whole report within microseconds; a journal may stamp it a little later. */
    private static final Duration REPORT_WINDOW = Duration.ofSeconds(5);

    private final Consumer<OomEvent> out;
    private final Map<String, LogLine> oomdKills = new LinkedHashMap<>();
    private final Map<String, LogLine> counts = new LinkedHashMap<>();
    private LogLine summaryLine;
    private LogLine summaryStart;
    private KernelOomLines.Summary summary;
    private OptionalLong limitBytes = OptionalLong.empty();
    private Instant limitTime;
    private Instant lastLineTime;
    private long lastLineNanos;

    public OomJoiner(Consumer<OomEvent> out) {
        this.out = out;
    }

    /** Every event in these lines (in log order), sorted by time. */
    public static List<OomEvent> join(Iterable<LogLine> lines) {
        List<OomEvent> events = new ArrayList<>();
        OomJoiner joiner = new OomJoiner(events::add);
        for (LogLine line : lines) joiner.accept(line);
        joiner.flush();
        events.sort(Comparator.comparing(OomEvent::time));
        return events;
    }

    public void accept(LogLine line) {
        lastLineTime = line.time();
        lastLineNanos = System.nanoTime();
        expire(line.time());
        switch (line.origin()) {
            case KERNEL -> kernel(line);
            case OOMD -> OomdLines.kill(line.text()).ifPresent(kill -> oomdKill(line, kill));
            case MANAGER -> OomdLines.count(line.text()).ifPresent(count -> count(line, count));
            case OTHER -> { }
        }
    }

    /** Emits the oomd kills and counts that waited longer than the window by {@code now}. */
    public void expire(Instant now) {
        Instant cutoff = now.minus(OOMD_WINDOW);
        drain(oomdKills, cutoff, this::emitOomd);
        drain(counts, cutoff, this::emitCount);
    }

    /**
     * For a live reader whose log is quiet: moves the lines' clock on by the real time passed
     * since the last line, and expires by it (a log replayed from a fixture keeps its own times).
     */
    public void tick() {
        if (lastLineTime != null) expire(lastLineTime.plusNanos(System.nanoTime() - lastLineNanos));
    }

    /** The end of the log: everything still waiting is emitted as it is. */
    public void flush() {
        drain(oomdKills, Instant.MAX, this::emitOomd);
        drain(counts, Instant.MAX, this::emitCount);
    }

    private void kernel(LogLine line) {
        String text = line.text();
        if (KernelOomLines.isReportStart(text)) {
            summary = null;
            summaryLine = null;
            summaryStart = null;
            limitBytes = OptionalLong.empty();
            return;
        }
        OptionalLong limit = KernelOomLines.memcgLimitBytes(text);
        if (limit.isPresent()) {
            limitBytes = limit;
            limitTime = line.time();
            return;
        }
        if (summary(line)) return;
        KernelOomLines.killed(text).ifPresent(killed -> emitKernel(line, killed));
    }

    /**
     * Holds an oom-kill line. It is printed in pieces (pr_cont), and another CPU's printk can
     * split it into two records, the second starting with a comma: those are put back together.
     */
    private boolean summary(LogLine line) {
        LogLine whole = summaryStart != null && line.text().startsWith(",")
                ? new LogLine(summaryStart.time(), line.origin(), summaryStart.text() + line.text()) : line;
        summaryStart = null;
        var parsed = KernelOomLines.summary(whole.text());
        if (parsed.isPresent()) {
            summary = parsed.get();
            summaryLine = whole;
            return true;
        }
        if (whole.text().startsWith("oom-kill:")) {
            summaryStart = whole;
            return true;
        }
        return false;
    }

    private void emitKernel(LogLine line, KernelOomLines.Killed killed) {
        boolean joined = summary != null && (summary.pid() == killed.pid() || summary.pid() < 0)
                && within(summaryLine.time(), line.time(), REPORT_WINDOW);
        boolean limitKnown = limitBytes.isPresent() && within(limitTime, line.time(), REPORT_WINDOW);
        String constraint = joined ? summary.constraint()
                : killed.reason().startsWith("Memory cgroup") ? "CONSTRAINT_MEMCG" : "";
        out.accept(new OomEvent(line.time(), OomEvent.Source.KERNEL, killed.pid(), killed.command(), 1,
                joined ? summary.taskCgroup() : "", constraint, joined ? summary.limitCgroup() : "",
                limitKnown ? limitBytes.getAsLong() : OomEvent.UNKNOWN,
                killed.totalVmBytes(), killed.anonRssBytes(), killed.fileRssBytes(), killed.shmemRssBytes(),
                joined ? summaryLine.text() + "\n" + line.text() : line.text()));
        summary = null;
        summaryLine = null;
        limitBytes = OptionalLong.empty();
    }

    private void oomdKill(LogLine line, OomdLines.Kill kill) {
        LogLine count = counts.remove(kill.unit());
        if (count != null) {
            emit(line, kill, OomdLines.count(count.text()).orElseThrow().processes(), line.text() + "\n" + count.text());
        } else {
            LogLine earlier = oomdKills.put(kill.unit(), line);
            if (earlier != null) emitOomd(earlier); // the same unit killed twice before any count: two kills
        }
    }

    private void count(LogLine line, OomdLines.Count count) {
        LogLine kill = oomdKills.remove(count.unit());
        if (kill != null) {
            emit(kill, OomdLines.kill(kill.text()).orElseThrow(), count.processes(), kill.text() + "\n" + line.text());
        } else {
            LogLine earlier = counts.put(count.unit(), line);
            if (earlier != null) emitCount(earlier);
        }
    }

    private void emitOomd(LogLine line) {
        emit(line, OomdLines.kill(line.text()).orElseThrow(), OomEvent.UNKNOWN, line.text());
    }

    private void emitCount(LogLine line) {
        OomdLines.Count count = OomdLines.count(line.text()).orElseThrow();
        out.accept(new OomEvent(line.time(), OomEvent.Source.OOMD, -1, count.unit(), count.processes(), "", "", "",
                OomEvent.UNKNOWN, OomEvent.UNKNOWN, OomEvent.UNKNOWN, OomEvent.UNKNOWN, OomEvent.UNKNOWN, line.text()));
    }

    private void emit(LogLine killLine, OomdLines.Kill kill, long processes, String message) {
        out.accept(new OomEvent(killLine.time(), OomEvent.Source.OOMD, -1, kill.unit(), processes, kill.cgroup(),
                kill.constraint(), kill.monitored(), OomEvent.UNKNOWN,
                OomEvent.UNKNOWN, OomEvent.UNKNOWN, OomEvent.UNKNOWN, OomEvent.UNKNOWN, message));
    }

    private static void drain(Map<String, LogLine> waiting, Instant cutoff, Consumer<LogLine> emit) {
        for (Iterator<LogLine> it = waiting.values().iterator(); it.hasNext(); ) {
            LogLine line = it.next();
            if (line.time().isBefore(cutoff) || cutoff.equals(Instant.MAX)) {
                it.remove();
                emit.accept(line);
            }
        }
    }

    private static boolean within(Instant a, Instant b, Duration window) {
        return Duration.between(a, b).abs().compareTo(window) <= 0;
    }
}
