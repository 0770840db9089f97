// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import dev.runaway.sandbox.ContainedRun;
import dev.runaway.sandbox.SandboxSample;
import dev.runaway.timeline.RecordingWriter;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;

/** The timeline of one {@code runaway run --record FILE}, in the recording format v1. */
final class RunRecording implements AutoCloseable {
    /** A run's recording rotates past this size (at 10 Hz a sample line is ~150 bytes: ~5 MiB an hour). */
    static final long MAX_BYTES = 64L << 20;

    private final RecordingWriter writer;
    private final PrintWriter err;
    private boolean failed;

    RunRecording(Path file, List<String> command, int tasksMax, PrintWriter err) throws IOException {
        var header = RecordingWriter.fields().put("source", "run").put("tasksMax", tasksMax);
        var args = header.putArray("command");
        command.forEach(args::add);
        this.writer = new RecordingWriter(file, MAX_BYTES, header);
        this.err = err;
    }

    void containment(String text) {
        write("event", RecordingWriter.fields().put("kind", "started").put("note", text));
    }

    void sample(SandboxSample s) {
        write("sample", RecordingWriter.fields().put("tasks", s.tasks()).put("processes", s.processes())
                .put("rssBytes", s.rssBytes()).put("failedForks", s.failedForks()));
    }

    void end(ContainedRun.Result r) {
        write("end", RecordingWriter.fields().put("exitStatus", r.exitStatus()).put("commandStatus", r.commandStatus())
                .put("timedOut", r.timedOut()).put("hitTaskCap", r.hitTaskCap()).put("peakTasks", r.peakTasks())
                .put("peakRssBytes", r.peakRssBytes()).put("straysKilled", r.straysKilled())
                .put("zeroConfirmed", r.teardown().zeroConfirmed()));
    }

    private synchronized void write(String type, com.fasterxml.jackson.databind.node.ObjectNode fields) {
        if (failed) return;
        try {
            writer.record(type, fields);
        } catch (IOException e) {
            failed = true; // the run goes on; losing the recording is said once
            err.println("runaway run: the recording stopped: " + e.getMessage());
        }
    }

    @Override
    public void close() throws IOException {
        writer.close();
    }
}
