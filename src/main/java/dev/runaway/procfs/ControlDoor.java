// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A root process's door for one-line requests from other processes (the guard's decisions, a
 * sampler's lineage): a Unix socket anyone may connect to (mode 0666), one request a connection,
 * answered and closed. Who asks is the kernel's word (SO_PEERCRED), never the request's.
 *
 * <p>Because anyone may connect, the door is bounded and costs no thread per connection: one
 * thread accepts, reads and writes every connection without blocking ({@link Selector}); a
 * connection that has not sent its line within {@link #READ_TIMEOUT}, or not read its answer
 * within {@link #WRITE_TIMEOUT}, is closed; a uid other than root may hold at most
 * {@link #PER_UID} connections at once and all of them together {@link #MAX_OPEN} (more are
 * refused {@link Refusal#BUSY} at once); a request is at most {@link #MAX_REQUEST_BYTES} bytes;
 * a whole line goes to {@link #DECIDERS} threads with a queue of {@link #QUEUE}. Root is never
 * refused for being busy.
 */
public final class ControlDoor implements AutoCloseable {
    public static final Duration READ_TIMEOUT = Duration.ofSeconds(5);
    public static final Duration WRITE_TIMEOUT = Duration.ofSeconds(10);
    public static final int PER_UID = 4;
    public static final int MAX_OPEN = 64;
    public static final int DECIDERS = 2;
    public static final int QUEUE = 16;
    public static final int MAX_REQUEST_BYTES = 4096;

    /** Why the door itself answered, before any request was decided. */
    public enum Refusal { BUSY, TIMEOUT, TOO_LONG }

    /** What a door is for: the answer to one request line (without its newline) from a uid, and its refusals. */
    public interface Answerer {
        byte[] answer(byte[] line, int uid);

        byte[] refused(Refusal why, String words);
    }

    /** A connection being read: whose, what came so far, until when. */
    private record Reading(int uid, ByteBuffer line, long deadlineNanos) {
    }

    /** A connection being answered: whose, what is left to write, until when. */
    private record Writing(int uid, ByteBuffer answer, long deadlineNanos) {
    }

    private final Answerer answerer;
    private final ServerSocketChannel server;
    private final Selector selector;
    private final Path socket;
    private final Thread thread;
    private final ThreadPoolExecutor deciders;
    private final Queue<Runnable> onSelectorThread = new ConcurrentLinkedQueue<>();
    private final Map<Integer, AtomicInteger> openByUid = new ConcurrentHashMap<>();
    private final AtomicInteger openOthers = new AtomicInteger();

    private ControlDoor(String name, Answerer answerer, ServerSocketChannel server, Path socket) throws IOException {
        this.answerer = answerer;
        this.server = server;
        this.socket = socket;
        this.selector = Selector.open();
        server.configureBlocking(false);
        server.register(selector, SelectionKey.OP_ACCEPT);
        AtomicInteger n = new AtomicInteger();
        this.deciders = new ThreadPoolExecutor(DECIDERS, DECIDERS, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(QUEUE), r -> {
            Thread t = new Thread(r, "runaway-" + name + "-request-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        this.thread = new Thread(this::serve, "runaway-" + name + "-door");
        thread.setDaemon(true);
    }

    /** Opens a door at {@code socket} (its directory made root's first), named {@code name} in its threads. */
    public static ControlDoor open(Path socket, String name, Answerer answerer) throws IOException {
        RootFiles.directory(socket.getParent());
        Files.deleteIfExists(socket);
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-rw-rw-"));
        ControlDoor d = new ControlDoor(name, answerer, server, socket);
        d.thread.start();
        return d;
    }

    public Path socket() {
        return socket;
    }

    private void serve() {
        dev.runaway.sys.Sched.favoured(); // a share beside a runaway's tasks; not real-time: anyone may connect
        while (server.isOpen()) {
            try {
                selector.select(250);
                for (Runnable r; (r = onSelectorThread.poll()) != null; ) r.run();
                for (SelectionKey k : new ArrayList<>(selector.selectedKeys())) {
                    selector.selectedKeys().remove(k);
                    if (!k.isValid()) continue;
                    if (k.isAcceptable()) acceptAll();
                    else if (k.isReadable()) read(k);
                    else if (k.isWritable()) write(k);
                }
                closeIdle(System.nanoTime());
            } catch (IOException | RuntimeException e) {
                if (!server.isOpen()) break; // closed
            }
        }
        for (SelectionKey k : selector.keys()) if (k.channel() instanceof SocketChannel peer) closeQuietly(peer);
        try {
            selector.close();
        } catch (IOException e) {
            // nothing left to close
        }
    }

    private void acceptAll() throws IOException {
        for (SocketChannel peer; (peer = server.accept()) != null; ) {
            int uid;
            try {
                uid = uidOf(peer);
            } catch (IOException | RuntimeException e) {
                peer.close();
                continue;
            }
            if (uid != 0) {
                AtomicInteger mine = openByUid.computeIfAbsent(uid, u -> new AtomicInteger());
                if (mine.get() >= PER_UID || openOthers.get() >= MAX_OPEN) {
                    peer.configureBlocking(false);
                    writeAtOnce(peer, answerer.refused(Refusal.BUSY, "uid " + uid + " has " + mine.get() + " requests open (at most "
                            + PER_UID + "), all users " + openOthers.get() + " (at most " + MAX_OPEN + ")"));
                    closeQuietly(peer);
                    continue;
                }
                mine.incrementAndGet();
                openOthers.incrementAndGet();
            }
            peer.configureBlocking(false);
            peer.register(selector, SelectionKey.OP_READ,
                    new Reading(uid, ByteBuffer.allocate(MAX_REQUEST_BYTES + 1), System.nanoTime() + READ_TIMEOUT.toNanos()));
        }
    }

    private void read(SelectionKey k) {
        SocketChannel peer = (SocketChannel) k.channel();
        Reading p = (Reading) k.attachment();
        int n;
        try {
            n = peer.read(p.line());
        } catch (IOException e) {
            finish(k, p.uid());
            return;
        }
        int newline = indexOf(p.line(), (byte) '\n');
        if (newline < 0 && n >= 0 && p.line().hasRemaining()) return; // more to come
        k.interestOps(0);
        if (newline < 0 && !p.line().hasRemaining()) {
            answer(k, p.uid(), answerer.refused(Refusal.TOO_LONG, "a request is at most " + MAX_REQUEST_BYTES + " bytes"));
            return;
        }
        byte[] line = new byte[newline < 0 ? p.line().position() : newline];
        System.arraycopy(p.line().array(), 0, line, 0, line.length);
        try {
            deciders.execute(() -> {
                byte[] answer;
                // Root's question (a stop's) is answered ahead of a runaway's tasks; a user's is not.
                try (var raised = p.uid() == 0 ? dev.runaway.sys.Sched.raisedWhile() : null) {
                    answer = answerer.answer(line, p.uid());
                } catch (RuntimeException e) {
                    answer = null; // closed without an answer: the asker says it got none
                }
                byte[] a = answer;
                onSelectorThread.add(() -> answer(k, p.uid(), a));
                selector.wakeup();
            });
        } catch (RejectedExecutionException busy) {
            answer(k, p.uid(), answerer.refused(Refusal.BUSY, QUEUE + " requests wait already; ask again"));
        }
    }

    /** Starts writing ANSWER (null: none) on the selector's thread; the connection closes once it is written. */
    private void answer(SelectionKey k, int uid, byte[] answer) {
        if (answer == null || !k.isValid()) {
            finish(k, uid);
            return;
        }
        k.attach(new Writing(uid, ByteBuffer.wrap(answer), System.nanoTime() + WRITE_TIMEOUT.toNanos()));
        k.interestOps(SelectionKey.OP_WRITE);
        write(k);
    }

    private void write(SelectionKey k) {
        Writing w = (Writing) k.attachment();
        try {
            while (w.answer().hasRemaining() && ((SocketChannel) k.channel()).write(w.answer()) > 0) {
                // as much as the socket takes now
            }
        } catch (IOException e) {
            finish(k, w.uid());
            return;
        }
        if (!w.answer().hasRemaining()) finish(k, w.uid());
    }

    private static int indexOf(ByteBuffer b, byte wanted) {
        for (int i = 0; i < b.position(); i++) if (b.array()[i] == wanted) return i;
        return -1;
    }

    private void closeIdle(long now) {
        for (SelectionKey k : selector.keys()) {
            if (!k.isValid()) continue;
            if (k.attachment() instanceof Reading p && k.interestOps() == SelectionKey.OP_READ && now - p.deadlineNanos() > 0) {
                answer(k, p.uid(), answerer.refused(Refusal.TIMEOUT, "no request within " + READ_TIMEOUT.toSeconds() + " s"));
            } else if (k.attachment() instanceof Writing w && now - w.deadlineNanos() > 0) {
                finish(k, w.uid()); // a peer that does not read its answer
            }
        }
    }

    /** Closes the connection, which frees its place. */
    private void finish(SelectionKey k, int uid) {
        k.cancel();
        closeQuietly((SocketChannel) k.channel());
        if (uid != 0) {
            openByUid.computeIfPresent(uid, (u, n) -> n.decrementAndGet() <= 0 ? null : n);
            openOthers.decrementAndGet();
        }
    }

    /** Writes a short answer without waiting for a peer that does not read. */
    private static void writeAtOnce(SocketChannel peer, byte[] answer) {
        try {
            ByteBuffer out = ByteBuffer.wrap(answer);
            while (out.hasRemaining() && peer.write(out) > 0) {
                // a short answer fits the socket's buffer
            }
        } catch (IOException | RuntimeException e) {
            // the peer went away
        }
    }

    private static void closeQuietly(SocketChannel peer) {
        try {
            peer.close();
        } catch (IOException e) {
            // already gone
        }
    }

    private static int uidOf(SocketChannel peer) throws IOException {
        jdk.net.UnixDomainPrincipal who = peer.getOption(jdk.net.ExtendedSocketOptions.SO_PEERCRED);
        return uidOfName(who.user().getName());
    }

    /** A user's uid by name (the principal names the peer's uid as a name, or as digits when it has none). */
    public static int uidOfName(String name) throws IOException {
        return Users.uidOf(name).orElseThrow(() -> new IOException("no uid for " + name));
    }

    /**
     * Sends one request line (with its newline) to the door at {@code socket}; its whole answer,
     * at most {@code maxBytes} (more: refused as not a door of ours), read within {@code timeout}.
     */
    public static byte[] ask(Path socket, byte[] line, int maxBytes, Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (SocketChannel c = SocketChannel.open(StandardProtocolFamily.UNIX);
             Selector s = Selector.open()) {
            c.connect(UnixDomainSocketAddress.of(socket));
            c.write(ByteBuffer.wrap(line));
            c.shutdownOutput();
            c.configureBlocking(false);
            c.register(s, SelectionKey.OP_READ);
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            ByteBuffer buf = ByteBuffer.allocate(64 * 1024);
            while (true) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new IOException(socket + " did not answer within " + timeout.toMillis() + " ms"
                            + (out.size() > 0 ? " (" + out.size() + " bytes of an answer came)" : ""));
                }
                s.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                s.selectedKeys().clear();
                int n;
                while ((n = c.read(buf)) > 0) {
                    out.write(buf.array(), 0, buf.position());
                    buf.clear();
                    if (out.size() > maxBytes) throw new IOException(socket + " answered more than " + maxBytes + " bytes");
                }
                if (n < 0) return out.toByteArray();
            }
        }
    }

    @Override
    public void close() {
        try {
            server.close();
            selector.wakeup();
            Files.deleteIfExists(socket);
        } catch (IOException e) {
            // gone with the directory
        }
        deciders.shutdown();
    }
}
