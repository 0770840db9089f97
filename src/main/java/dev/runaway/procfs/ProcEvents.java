// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import dev.runaway.sys.Netlink;

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
    private static final int CN_IDX_PROC = 1;
    private static final int CN_VAL_PROC = 1;
    private static final int PROC_CN_MCAST_LISTEN = 1;
    private static final int PROC_EVENT_FORK = 0x1;
    private static final int PROC_EVENT_EXIT = 0x80000000;
    private static final int NLMSG_HDR = 16;
    private static final int CN_MSG = 20;
    /** proc_event: what, cpu, timestamp_ns, then the event's data. */
    private static final int EVENT_DATA = NLMSG_HDR + CN_MSG + 16;
    private static final int RECEIVE_BUFFER = 16 << 20;

    private final int fd;
    private final Memory buffer = new Memory(64 * 1024);
    private boolean closed; // the descriptor's number may be reused by then: never read it again

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

    private ProcEvents(int fd) {
        this.fd = fd;
    }

    /** Subscribes to the machine's process events, or empty when not allowed (no CAP_NET_ADMIN). */
    public static Optional<ProcEvents> open() {
        Netlink net;
        try {
            net = Netlink.INSTANCE;
        } catch (UnsatisfiedLinkError noLibc) {
            return Optional.empty();
        }
        int fd = -1;
        try {
            fd = net.socket(Netlink.AF_NETLINK, Netlink.SOCK_DGRAM | Netlink.SOCK_CLOEXEC, Netlink.NETLINK_CONNECTOR);
            Memory size = new Memory(4);
            size.setInt(0, RECEIVE_BUFFER);
            try {
                net.setsockopt(fd, Netlink.SOL_SOCKET, Netlink.SO_RCVBUFFORCE, size, 4); // beyond rmem_max: root only
            } catch (LastErrorException notRoot) {
                net.setsockopt(fd, Netlink.SOL_SOCKET, Netlink.SO_RCVBUF, size, 4);
            }
            Memory address = new Memory(12); // sockaddr_nl: family, pad, pid, groups
            address.clear();
            address.setShort(0, (short) Netlink.AF_NETLINK);
            address.setInt(8, CN_IDX_PROC);
            net.bind(fd, address, 12);
            Memory listen = new Memory(NLMSG_HDR + CN_MSG + 4);
            listen.clear();
            listen.setInt(0, NLMSG_HDR + CN_MSG + 4);  // nlmsg_len
            listen.setShort(4, (short) 3);              // NLMSG_DONE
            listen.setInt(NLMSG_HDR, CN_IDX_PROC);      // cn_msg.id.idx
            listen.setInt(NLMSG_HDR + 4, CN_VAL_PROC);  // cn_msg.id.val
            listen.setShort(NLMSG_HDR + 16, (short) 4); // cn_msg.len
            listen.setInt(NLMSG_HDR + CN_MSG, PROC_CN_MCAST_LISTEN);
            net.send(fd, listen, NLMSG_HDR + CN_MSG + 4, 0);
            return Optional.of(new ProcEvents(fd));
        } catch (LastErrorException refused) {
            if (fd >= 0) net.close(fd);
            return Optional.empty();
        }
    }

    /**
     * Hands every event queued since the last drain to the sink, without waiting. Returns false
     * when events were lost (the buffer overflowed): the caller must not trust them alone.
     */
    @Override
    public synchronized boolean drain(Sink sink) {
        if (closed) return false;
        boolean complete = true;
        while (true) {
            long got;
            try {
                got = Netlink.INSTANCE.recv(fd, buffer, buffer.size(), Netlink.MSG_DONTWAIT);
            } catch (LastErrorException e) {
                if (e.getErrorCode() == Netlink.ENOBUFS) {
                    complete = false; // some were dropped; keep reading what is left
                    continue;
                }
                return complete; // EAGAIN: nothing more queued
            }
            if (got <= 0) return complete;
            parse((int) got, sink);
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
        if (closed) return;
        closed = true;
        Netlink.INSTANCE.close(fd);
    }
}
