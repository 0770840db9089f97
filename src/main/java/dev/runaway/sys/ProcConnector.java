// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sys;

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;

import java.util.Optional;

/**
 * A netlink socket subscribed to the kernel's process events connector (every fork and exit on
 * the machine), read without waiting. Subscribing needs CAP_NET_ADMIN. Each message received is
 * an nlmsghdr ({@link #NLMSG_HDR} bytes), a cn_msg ({@link #CN_MSG} bytes) and a proc_event,
 * which the caller parses. One owner reads and closes it (not thread-safe).
 */
public final class ProcConnector implements AutoCloseable {
    /** Bytes of struct nlmsghdr. */
    public static final int NLMSG_HDR = 16;
    /** Bytes of struct cn_msg (without its data). */
    public static final int CN_MSG = 20;
    /** What {@link #receive} returns when the socket dropped events (its buffer overflowed). */
    public static final int OVERFLOWED = -1;

    private static final int CN_IDX_PROC = 1;
    private static final int CN_VAL_PROC = 1;
    private static final int PROC_CN_MCAST_LISTEN = 1;
    private static final short NLMSG_DONE = 3;

    private final int fd;
    private final Memory buffer;
    private boolean closed; // the descriptor's number may be reused by then: never read it again

    private ProcConnector(int fd, int bufferBytes) {
        this.fd = fd;
        this.buffer = new Memory(bufferBytes);
    }

    /**
     * Subscribes, asking the kernel to queue up to {@code queueBytes} of events, and receives
     * messages of up to {@code bufferBytes}; empty when not allowed (no CAP_NET_ADMIN) or no libc.
     */
    public static Optional<ProcConnector> open(int queueBytes, int bufferBytes) {
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
            size.setInt(0, queueBytes);
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
            listen.setShort(4, NLMSG_DONE);             // nlmsg_type
            listen.setInt(NLMSG_HDR, CN_IDX_PROC);      // cn_msg.id.idx
            listen.setInt(NLMSG_HDR + 4, CN_VAL_PROC);  // cn_msg.id.val
            listen.setShort(NLMSG_HDR + 16, (short) 4); // cn_msg.len
            listen.setInt(NLMSG_HDR + CN_MSG, PROC_CN_MCAST_LISTEN);
            net.send(fd, listen, NLMSG_HDR + CN_MSG + 4, 0);
            return Optional.of(new ProcConnector(fd, bufferBytes));
        } catch (LastErrorException refused) {
            if (fd >= 0) net.close(fd);
            return Optional.empty();
        }
    }

    /**
     * The next queued message, copied to the start of {@code into} (at least the buffer's size),
     * without waiting: its length; 0 when nothing is queued (or closed); {@link #OVERFLOWED} when
     * events were dropped since the last receive (what is still queued is read by the next one).
     */
    public int receive(byte[] into) {
        if (closed) return 0;
        long got;
        try {
            got = Netlink.INSTANCE.recv(fd, buffer, buffer.size(), Netlink.MSG_DONTWAIT);
        } catch (LastErrorException e) {
            return e.getErrorCode() == Errno.ENOBUFS ? OVERFLOWED : 0; // else EAGAIN: nothing queued
        }
        if (got <= 0) return 0;
        buffer.read(0, into, 0, (int) got);
        return (int) got;
    }

    public boolean closed() {
        return closed;
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        Netlink.INSTANCE.close(fd);
    }
}
