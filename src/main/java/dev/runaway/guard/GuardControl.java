// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.guard;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The guard's door for a person's decision from another process ({@code runaway guard
 * --release KEY}): a Unix socket, {@code /run/runaway/guard/control.sock}, one request a
 * connection, {@code RELEASE KEY} or {@code STOP KEY} ({@link Request}), answered by one
 * line, {@code OK words} or {@code ERR words}. Who asks is the kernel's word (SO_PEERCRED), never
 * the request's: root, or the user whose processes are held.
 *
 * <p>Anyone may connect (mode 0666), so the door is bounded and costs no thread per connection:
 * one thread accepts and reads every connection without blocking ({@link Selector}); a
 * connection that has not sent its line within {@link #READ_TIMEOUT} is closed; a uid other than
 * root may hold at most {@link #PER_UID} connections at once and all of them together
 * {@link #MAX_OPEN} (more are answered {@code ERR busy} and closed at once); a request is at most
 * {@link Request#MAX_BYTES} bytes; a whole line goes to {@link #DECIDERS} threads with a
 * queue of {@link #QUEUE} (a full queue: {@code ERR busy}). Root is never refused for being busy.
 */
public final class GuardControl implements AutoCloseable {
    static final Duration READ_TIMEOUT = Duration.ofSeconds(5);
    static final int PER_UID = 4;
    static final int MAX_OPEN = 64;
    static final int DECIDERS = 2;
    static final int QUEUE = 16;

    /** A connection being read: whose, what came so far, until when. */
    private record Pending(int uid, ByteBuffer line, long deadlineNanos) {
    }

    /**
     * One request, parsed: what to do and to which group. A line is taken only when it says
     * exactly one request: valid UTF-8 (never decoded with replacement characters, which could
     * make two different byte strings one key), a verb, one space, a key without NUL, CR or LF,
     * at most {@link #MAX_BYTES} bytes; so what is accepted is exactly what was sent
     * ({@link #line()} gives back its bytes).
     */
    public record Request(Verb verb, String key) {
        static final int MAX_BYTES = 4096;

        public enum Verb { RELEASE, STOP }

        static Optional<Request> parse(byte[] line) {
            if (line.length > MAX_BYTES) return Optional.empty();
            String s;
            try {
                s = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(line)).toString();
            } catch (CharacterCodingException e) {
                return Optional.empty();
            }
            int space = s.indexOf(' ');
            if (space < 0) return Optional.empty();
            Verb v;
            try {
                v = Verb.valueOf(s.substring(0, space));
            } catch (IllegalArgumentException e) {
                return Optional.empty();
            }
            String key = s.substring(space + 1);
            boolean bad = key.isEmpty() || key.chars().anyMatch(c -> c == 0 || c == '\r' || c == '\n');
            return bad ? Optional.empty() : Optional.of(new Request(v, key));
        }

        String line() {
            return verb + " " + key + "\n";
        }
    }

    private final Guard guard;
    private final ServerSocketChannel server;
    private final Selector selector;
    private final Path socket;
    private final Thread thread;
    private final ThreadPoolExecutor deciders;
    private final Map<Integer, AtomicInteger> openByUid = new ConcurrentHashMap<>();
    private final AtomicInteger openOthers = new AtomicInteger();

    private GuardControl(Guard guard, ServerSocketChannel server, Path socket) throws IOException {
        this.guard = guard;
        this.server = server;
        this.socket = socket;
        this.selector = Selector.open();
        server.configureBlocking(false);
        server.register(selector, SelectionKey.OP_ACCEPT);
        AtomicInteger n = new AtomicInteger();
        this.deciders = new ThreadPoolExecutor(DECIDERS, DECIDERS, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(QUEUE), r -> {
            Thread t = new Thread(r, "runaway-guard-request-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        this.thread = new Thread(this::serve, "runaway-guard-control");
        thread.setDaemon(true);
    }

    public static Path socketPath() {
        return GuardState.dir().resolve("control.sock");
    }

    /** Opens the door (root only: the directory is root's); anyone may connect, the peer's uid decides. */
    public static GuardControl open(Guard guard) throws IOException {
        Path dir = GuardState.dir();
        dev.runaway.procfs.RootFiles.directory(dir);
        Path socket = socketPath();
        Files.deleteIfExists(socket);
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-rw-rw-"));
        GuardControl c = new GuardControl(guard, server, socket);
        c.thread.start();
        return c;
    }

    private void serve() {
        while (server.isOpen()) {
            try {
                selector.select(250);
                for (SelectionKey k : new ArrayList<>(selector.selectedKeys())) {
                    selector.selectedKeys().remove(k);
                    if (!k.isValid()) continue;
                    if (k.isAcceptable()) acceptAll();
                    else if (k.isReadable()) read(k);
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
                    refuse(peer, "ERR busy: uid " + uid + " has " + mine.get() + " requests open (at most " + PER_UID
                            + "), all users " + openOthers.get() + " (at most " + MAX_OPEN + ")");
                    continue;
                }
                mine.incrementAndGet();
                openOthers.incrementAndGet();
            }
            peer.configureBlocking(false);
            peer.register(selector, SelectionKey.OP_READ,
                    new Pending(uid, ByteBuffer.allocate(Request.MAX_BYTES + 1), System.nanoTime() + READ_TIMEOUT.toNanos()));
        }
    }

    private void read(SelectionKey k) {
        SocketChannel peer = (SocketChannel) k.channel();
        Pending p = (Pending) k.attachment();
        int n;
        try {
            n = peer.read(p.line());
        } catch (IOException e) {
            done(k, null);
            return;
        }
        int newline = indexOf(p.line(), (byte) '\n');
        if (newline < 0 && n >= 0 && p.line().hasRemaining()) return; // more to come
        k.cancel();
        if (newline < 0 && !p.line().hasRemaining()) {
            done(k, "ERR too long: a request is at most " + Request.MAX_BYTES + " bytes");
            return;
        }
        byte[] line = new byte[newline < 0 ? p.line().position() : newline];
        System.arraycopy(p.line().array(), 0, line, 0, line.length);
        try {
            deciders.execute(() -> done(k, Request.parse(line).map(r -> answer(r, p.uid()))
                    .orElse("ERR usage: RELEASE KEY or STOP KEY (one line, UTF-8, at most " + Request.MAX_BYTES + " bytes)")));
        } catch (RejectedExecutionException busy) {
            done(k, "ERR busy: " + QUEUE + " requests wait already; ask again");
        }
    }

    private static int indexOf(ByteBuffer b, byte wanted) {
        for (int i = 0; i < b.position(); i++) if (b.array()[i] == wanted) return i;
        return -1;
    }

    private void closeIdle(long now) {
        for (SelectionKey k : selector.keys()) {
            if (k.isValid() && k.attachment() instanceof Pending p && now - p.deadlineNanos() > 0) {
                k.cancel();
                done(k, "ERR timeout: no request within " + READ_TIMEOUT.toSeconds() + " s");
            }
        }
    }

    /** Answers ANSWER (none: the peer went away) and closes the connection, which frees its place. */
    private void done(SelectionKey k, String answer) {
        SocketChannel peer = (SocketChannel) k.channel();
        int uid = ((Pending) k.attachment()).uid();
        k.cancel();
        if (answer != null) refuse(peer, answer);
        else closeQuietly(peer);
        if (uid != 0) {
            openByUid.computeIfPresent(uid, (u, n) -> n.decrementAndGet() <= 0 ? null : n);
            openOthers.decrementAndGet();
        }
    }

    /** Writes one line without waiting for a peer that does not read, and closes. */
    private static void refuse(SocketChannel peer, String answer) {
        try {
            peer.configureBlocking(false);
            ByteBuffer out = ByteBuffer.wrap((answer + "\n").getBytes(StandardCharsets.UTF_8));
            while (out.hasRemaining() && peer.write(out) > 0) {
                // a short answer fits the socket's buffer
            }
        } catch (IOException | RuntimeException e) {
            // the peer went away
        }
        closeQuietly(peer);
    }

    private static void closeQuietly(SocketChannel peer) {
        try {
            peer.close();
        } catch (IOException e) {
            // already gone
        }
    }

    private String answer(Request r, int uid) {
        Optional<HeldGroup> held = guard.status().stream().filter(h -> h.key().equals(r.key())).findFirst();
        if (held.isEmpty()) return "ERR not held: " + r.key();
        if (uid != 0 && uid != held.get().owner()) return "ERR refused: the group is not yours (uid " + uid + "), and only root or its owner decide";
        String by = uid == 0 ? "root" : "uid " + uid;
        return switch (r.verb()) {
            case RELEASE -> guard.release(r.key(), by).map(done -> "OK released: " + String.join("; ", done)).orElse("ERR not held: " + r.key());
            case STOP -> guard.stopToZero(r.key(), "asked by " + by).map(o -> "OK " + o.status()).orElse("ERR could not stop " + r.key());
        };
    }

    private static int uidOf(SocketChannel peer) throws IOException {
        jdk.net.UnixDomainPrincipal who = peer.getOption(jdk.net.ExtendedSocketOptions.SO_PEERCRED);
        return uidOfName(who.user().getName());
    }

    /** A user's uid by name (the principal names the peer's uid as a name, or as digits when it has none). */
    static int uidOfName(String name) throws IOException {
        return Users.uidOf(name).orElseThrow(() -> new IOException("no uid for " + name));
    }

    /** Sends one request to the running guard; its answer line. */
    public static String ask(Request r) throws IOException {
        try (SocketChannel c = SocketChannel.open(UnixDomainSocketAddress.of(socketPath()))) {
            c.write(ByteBuffer.wrap(r.line().getBytes(StandardCharsets.UTF_8)));
            c.shutdownOutput();
            ByteBuffer buf = ByteBuffer.allocate(64 * 1024);
            while (buf.hasRemaining() && c.read(buf) >= 0) {
                // until the guard closes
            }
            return new String(buf.array(), 0, buf.position(), StandardCharsets.UTF_8).trim();
        }
    }

    /** A request in words for the command line. */
    public static Request release(String key) {
        return new Request(Request.Verb.RELEASE, key);
    }

    public static Request stop(String key) {
        return new Request(Request.Verb.STOP, key);
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

    /** The verbs, for help texts. */
    public static List<String> verbs() {
        return List.of("RELEASE KEY", "STOP KEY");
    }
}
