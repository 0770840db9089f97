// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import dev.runaway.sys.ProcConnector;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Optional;

/**
 * The kernel's process events (the netlink proc connector): every fork and exit on the machine,
 * as they happen. With them an incremental scan knows which pids are new and which are gone
 * without listing /proc (53-80 ms of kernel time at 50,000 processes). Listening needs
 * CAP_NET_ADMIN; without it {@link #open()} is empty and scans list /proc as before. When the
 * socket's buffer overflowed (a fork storm outran the reader), the events are incomplete:
 * {@link #drain} says so and the caller lists /proc again.
 */
public final class ProcEvents implements AutoCloseable, EventFeed {
    private static final int PROC_EVENT_FORK = 0x1;
    private static final int PROC_EVENT_EXIT = 0x80000000;
    private static final int NLMSG_HDR = ProcConnector.NLMSG_HDR;
    private static final int CN_MSG = ProcConnector.CN_MSG;
    /** proc_event: what, cpu, timestamp_ns, then the event's data. */
    private static final int EVENT_DATA = NLMSG_HDR + CN_MSG + 16;
    private static final int RECEIVE_BUFFER = 16 << 20;
    private static final int MESSAGE_BYTES = 64 * 1024;

    private final ProcConnector connector;
    private final byte[] bytes = new byte[MESSAGE_BYTES];
    /** The received message, read as the kernel wrote it (native byte order). */
    private final ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder());

    /** What a drain found: new processes (tgids) and processes that exited, in arrival order. */
    public interface Sink {
        void forked(int tgid);

        void exited(int tgid);

        /** A new process and the process that forked it; by default only the new one is passed on. */
        default void forked(int parentTgid, int childTgid) {
            forked(childTgid);
        }

        /** As {@link #forked(int, int)}, with the kernel's stamp of the fork (CLOCK_MONOTONIC nanoseconds). */
        default void forked(int parentTgid, int childTgid, long monotonicNanos) {
            forked(parentTgid, childTgid);
        }
    }

    private ProcEvents(ProcConnector connector) {
        this.connector = connector;
    }

    /** Subscribes to the machine's process events, or empty when not allowed (no CAP_NET_ADMIN). */
    public static Optional<ProcEvents> open() {
        return ProcConnector.open(RECEIVE_BUFFER, MESSAGE_BYTES).map(ProcEvents::new);
    }

    /**
     * Hands every event queued since the last drain to the sink, without waiting. Returns false
     * when events were lost (the buffer overflowed): the caller must not trust them alone.
     */
    @Override
    public synchronized boolean drain(Sink sink) {
        if (connector.closed()) return false;
        boolean complete = true;
        while (true) {
            int got = connector.receive(bytes);
            if (got == ProcConnector.OVERFLOWED) {
                complete = false; // some were dropped; keep reading what is left
                continue;
            }
            if (got <= 0) return complete; // nothing more queued
            parse(got, sink);
        }
    }

    private void parse(int length, Sink sink) {
        int at = 0;
        while (at + EVENT_DATA + 16 <= length) {
            int messageLength = buffer.getInt(at);
            if (messageLength < NLMSG_HDR) return;
            int what = buffer.getInt(at + NLMSG_HDR + CN_MSG);
            int data = at + EVENT_DATA;
            if (what == PROC_EVENT_FORK) {
                int parentTgid = buffer.getInt(data + 4);
                int childPid = buffer.getInt(data + 8), childTgid = buffer.getInt(data + 12);
                long stamp = buffer.getLong(at + NLMSG_HDR + CN_MSG + 8);
                if (childPid == childTgid) sink.forked(parentTgid, childTgid, stamp); // a new thread is not a new process
            } else if (what == PROC_EVENT_EXIT) {
                int pid = buffer.getInt(data), tgid = buffer.getInt(data + 4);
                if (pid == tgid) sink.exited(tgid);
            }
            at += (messageLength + 3) & ~3;
        }
    }

    @Override
    public synchronized void close() {
        connector.close();
    }
}
