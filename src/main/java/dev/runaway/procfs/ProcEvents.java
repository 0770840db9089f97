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
 *
 * <p>The kernel reports these events with the pids of the initial pid namespace, and ignores a
 * listen request from any other (a container's, a systemd-nspawn guest's); yet a socket there
 * still receives them whenever something on the host listens, naming the host's pids. Followed,
 * they made a guard in a guest read the wrong processes and miss its own new ones (issue 39: the
 * linear drill held only at its cap of 400 levels, past a tenth of the machine). So the events
 * are taken only once they named a thread this process started by the ids it has here.
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
        Optional<ProcEvents> events = ProcConnector.open(RECEIVE_BUFFER, MESSAGE_BYTES).map(ProcEvents::new);
        if (events.isPresent() && !events.get().namesOurOwnThread()) {
            events.get().close();
            return Optional.empty();
        }
        return events;
    }

    /** How long a listener waits for its own thread's event before it gives the events up. */
    private static final long OWN_EVENT_WAIT_NANOS = 1_000_000_000L;

    /**
     * Starts a thread and waits for its fork event: true when one names this process and that
     * thread by the ids they have in this pid namespace (the kernel sends it before the thread
     * runs, so in the initial namespace it is there at once). What is read meanwhile is dropped:
     * nobody follows these events yet.
     */
    private boolean namesOurOwnThread() {
        int self = (int) ProcessHandle.current().pid();
        int[] tid = {-1};
        Thread probe = new Thread(() -> tid[0] = threadId(), "runaway-events-check");
        probe.start();
        try {
            probe.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        if (tid[0] < 0) return false;
        long deadline = System.nanoTime() + OWN_EVENT_WAIT_NANOS;
        while (System.nanoTime() < deadline) {
            int got = connector.receive(bytes);
            if (got == ProcConnector.OVERFLOWED) continue;
            if (got > 0 && namesThread(got, self, tid[0])) return true;
            if (got <= 0) {
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
        }
        return false;
    }

    /** Whether the buffer holds the fork event of thread TID of process SELF. */
    private boolean namesThread(int length, int self, int tid) {
        for (int at = 0; at + EVENT_DATA + 16 <= length; ) {
            int messageLength = buffer.getInt(at);
            if (messageLength < NLMSG_HDR) return false;
            int data = at + EVENT_DATA;
            // A thread's "parent" in the event is its process's parent: only the child's ids say whose it is.
            if (buffer.getInt(at + NLMSG_HDR + CN_MSG) == PROC_EVENT_FORK && buffer.getInt(data + 8) == tid
                    && buffer.getInt(data + 12) == self) return true;
            at += (messageLength + 3) & ~3;
        }
        return false;
    }

    /** The calling thread's id in this pid namespace (/proc/thread-self names it), or -1. */
    private static int threadId() {
        try {
            String link = java.nio.file.Files.readSymbolicLink(java.nio.file.Path.of("/proc/thread-self")).toString();
            return Integer.parseInt(link.substring(link.lastIndexOf('/') + 1));
        } catch (java.io.IOException | RuntimeException e) {
            return -1;
        }
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
