// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.guard;

import dev.runaway.sys.LibC;
import dev.runaway.sys.ThreadCredentials;

import java.io.IOException;
import java.net.SocketException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Connects to a socket a user owns (their session bus) so that the kernel records the user as the
 * peer (SO_PEERCRED, fixed at connect), without ever giving the user a wait of the guard's as
 * that user. A thread that runs as the user can be signalled by them (kill(2) of its id ends the
 * whole guard), so nothing that the user controls may keep it waiting:
 * <ul>
 * <li>the path is resolved as root, {@code O_PATH | O_NOFOLLOW} (a FUSE mount of theirs refuses
 * root at once rather than hanging), and must name a socket the user owns;</li>
 * <li>the connect as the user goes through {@code /proc/self/fd/N}, so no lookup in their files
 * happens under their uid, and it is non-blocking: a listener with a full backlog answers EAGAIN
 * at once instead of parking the thread;</li>
 * <li>it runs on a thread of its own, started as root for this one connect and ended after it
 * ({@link ThreadCredentials} puts root's credentials back before it ends); EAGAIN is tried again
 * from root's side until the deadline.</li>
 * </ul>
 * The connected channel is returned in blocking mode, for the caller to use as root.
 */
final class OwnerSocket {
    private static final Duration RETRY = Duration.ofMillis(50);
    /** The one thread that is ever the user's, for one connect (15 characters: the kernel's comm shows it whole). */
    static final String CONNECT_THREAD = "owner-connect";

    private OwnerSocket() {
    }

    static SocketChannel connect(Path socket, int uid, int gid, Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        int fd = LibC.INSTANCE.open(socket.toString(), LibC.O_PATH | LibC.O_NOFOLLOW | LibC.O_CLOEXEC);
        if (fd < 0) throw new IOException("cannot open " + socket + " (not there, or a symbolic link)");
        try {
            Path handle = Path.of("/proc/self/fd/" + fd);
            int mode = (Integer) Files.getAttribute(handle, "unix:mode");
            int owner = (Integer) Files.getAttribute(handle, "unix:uid");
            if ((mode & 0170000) != 0140000 || owner != uid) {
                throw new IOException(socket + " is not a socket of uid " + uid + " (mode " + Integer.toOctalString(mode) + ", uid " + owner + ")");
            }
            while (true) {
                try {
                    SocketChannel c = connectOnce(handle, uid, gid, deadline);
                    c.configureBlocking(true);
                    return c;
                } catch (java.net.ConnectException refused) {
                    throw refused; // nobody listens
                } catch (SocketException busy) {
                    // EAGAIN: the listener's backlog is full (it does not accept); root waits, not the user
                    if (System.nanoTime() + RETRY.toNanos() - deadline > 0) {
                        throw new IOException("the session bus " + socket + " of uid " + uid + " did not accept within "
                                + timeout.toMillis() + " ms: " + busy.getMessage());
                    }
                    sleep(RETRY);
                }
            }
        } finally {
            LibC.INSTANCE.close(fd);
        }
    }

    /** One non-blocking connect as the user, on a thread that exists only for it. */
    private static SocketChannel connectOnce(Path handle, int uid, int gid, long deadline) throws IOException {
        CompletableFuture<SocketChannel> done = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                done.complete(ThreadCredentials.as(uid, gid, () -> {
                    SocketChannel c = SocketChannel.open(StandardProtocolFamily.UNIX);
                    try {
                        c.configureBlocking(false);
                        c.connect(UnixDomainSocketAddress.of(handle)); // a Unix socket connects at once or says EAGAIN
                        return c;
                    } catch (IOException | RuntimeException e) {
                        c.close();
                        throw e;
                    }
                }));
            } catch (Throwable e) {
                done.completeExceptionally(e);
            }
        }, CONNECT_THREAD);
        t.setDaemon(true);
        t.start();
        try {
            return done.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) throw io;
            throw new IOException("cannot connect as uid " + uid + ": " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            done.thenAccept(OwnerSocket::closeQuietly); // never used if it comes late
            throw new IOException("the connect as uid " + uid + " did not return in time");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
    }

    private static void closeQuietly(SocketChannel c) {
        try {
            c.close();
        } catch (IOException e) {
            // nothing to free
        }
    }

    private static void sleep(Duration d) throws IOException {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
    }
}
