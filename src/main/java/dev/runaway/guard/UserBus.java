// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.guard;

import org.freedesktop.dbus.connections.BusAddress;
import org.freedesktop.dbus.connections.config.TransportConfig;
import org.freedesktop.dbus.connections.transports.AbstractTransport;
import org.freedesktop.dbus.connections.transports.AbstractUnixTransport;
import org.freedesktop.dbus.spi.transport.ITransportProvider;

import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;

/**
 * dbus-java's transport to a user's session bus from root: only the socket's connect(2) runs as
 * the user ({@link OwnerSocket}: non-blocking, on a short-lived thread of its own, with a
 * timeout), the rest of the connection as root.
 *
 * <p>A session bus admits only its own user (dbus-daemon's default policy; root is refused), and
 * takes who connected from the socket (SO_PEERCRED, fixed at connect): so the connect must be the
 * user's. But a thread keeps the credentials of the thread that started it, and building a
 * dbus-java connection starts its reader and handler threads: built as the user, those threads
 * would stay the user's for the life of the guard, and the user could signal the guard through
 * them (kill(2) of a thread's id is allowed when the real uids match; a SIGKILL ends the whole
 * guard with its holds frozen). Connected here, the user's credentials last for one non-blocking
 * system call on a thread that ends after it, and no thread is started under them.
 *
 * <p>Address: {@code runawayuser:path=SOCKET,uid=UID,gid=GID} ({@link #address}); registered
 * with dbus-java as a transport provider (META-INF/services).
 */
public final class UserBus extends AbstractUnixTransport {
    static final String TYPE = "runawayuser";
    /** The connect gives up after this: a bus that does not accept is said in the journal, not waited for. */
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(3);

    private final Path socket;
    private final int uid;
    private final int gid;
    private volatile SocketChannel channel;

    UserBus(BusAddress address, TransportConfig config) {
        super(address, config);
        this.socket = Path.of(address.getParameterValue("path"));
        this.uid = Integer.parseInt(address.getParameterValue("uid"));
        this.gid = Integer.parseInt(address.getParameterValue("gid"));
    }

    /** The address of the session bus at SOCKET, to be joined as uid/gid. */
    static String address(Path socket, int uid, int gid) {
        return TYPE + ":path=" + socket + ",uid=" + uid + ",gid=" + gid;
    }

    @Override
    protected SocketChannel connectImpl() throws IOException {
        channel = OwnerSocket.connect(socket, uid, gid, CONNECT_TIMEOUT);
        return channel;
    }

    @Override
    protected boolean hasFileDescriptorSupport() {
        return false;
    }

    @Override
    public int getUid(SocketChannel peer) {
        return -1; // a client only: no peer to ask
    }

    @Override
    protected SocketChannel acceptImpl() throws IOException {
        throw new IOException("a user's bus is joined, never served");
    }

    @Override
    protected void bindImpl() throws IOException {
        throw new IOException("a user's bus is joined, never served");
    }

    @Override
    protected boolean isBound() {
        return false;
    }

    /** Closing from another thread (the notice's deadline) ends a read that waits on a bus that does not answer. */
    @Override
    protected void closeTransport() throws IOException {
        SocketChannel c = channel;
        if (c != null) c.close();
    }

    /** dbus-java finds the transport by the address's type through this (ServiceLoader). */
    public static final class Provider implements ITransportProvider {
        @Override
        public String getTransportName() {
            return "runaway-user-bus";
        }

        @Override
        public AbstractTransport createTransport(BusAddress address, TransportConfig config) {
            return new UserBus(address, config);
        }

        @Override
        public String getSupportedBusType() {
            return TYPE.toUpperCase(java.util.Locale.ROOT);
        }

        @Override
        public String createDynamicSessionAddress(boolean listening) {
            throw new UnsupportedOperationException("a user's bus is joined, never made");
        }
    }
}
