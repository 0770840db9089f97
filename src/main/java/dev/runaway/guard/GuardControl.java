// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.guard;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;

/**
 * The guard's door for a person's decision from another process ({@code runaway guard
 * --release KEY}): a Unix socket, {@code /run/runaway/guard/control.sock}, one request a
 * connection, {@code RELEASE KEY} or {@code STOP KEY}, answered by one line, {@code OK words} or
 * {@code ERR words}. Who asks is the kernel's word (SO_PEERCRED), never the request's: root, or
 * the user whose processes are held.
 */
public final class GuardControl implements AutoCloseable {
    private static final int MAX_REQUEST = 4096;

    /** One request, parsed: what to do and to which group. */
    public record Request(Verb verb, String key) {
        public enum Verb { RELEASE, STOP }

        static Optional<Request> parse(String line) {
            int space = line.indexOf(' ');
            if (space < 0) return Optional.empty();
            try {
                Verb v = Verb.valueOf(line.substring(0, space));
                String key = line.substring(space + 1);
                return key.isEmpty() || key.contains("\n") ? Optional.empty() : Optional.of(new Request(v, key));
            } catch (IllegalArgumentException e) {
                return Optional.empty();
            }
        }

        String line() {
            return verb + " " + key + "\n";
        }
    }

    private final Guard guard;
    private final ServerSocketChannel server;
    private final Path socket;
    private final Thread thread;

    private GuardControl(Guard guard, ServerSocketChannel server, Path socket) {
        this.guard = guard;
        this.server = server;
        this.socket = socket;
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
            SocketChannel peer;
            try {
                peer = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            // One thread a connection: a peer that never writes holds only its own.
            Thread t = new Thread(() -> answerOne(peer), "runaway-guard-request");
            t.setDaemon(true);
            t.start();
        }
    }

    private void answerOne(SocketChannel peer) {
        try (peer) {
            int uid = uidOf(peer);
            String line = readLine(peer);
            String answer = Request.parse(line).map(r -> answer(r, uid)).orElse("ERR usage: RELEASE KEY or STOP KEY");
            peer.write(ByteBuffer.wrap((answer + "\n").getBytes(StandardCharsets.UTF_8)));
        } catch (IOException | RuntimeException e) {
            // the peer went away: nothing was decided for it
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

    private static String readLine(SocketChannel peer) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(MAX_REQUEST);
        while (buf.hasRemaining()) {
            if (peer.read(buf) < 0) break;
            if (new String(buf.array(), 0, buf.position(), StandardCharsets.UTF_8).contains("\n")) break;
        }
        String s = new String(buf.array(), 0, buf.position(), StandardCharsets.UTF_8);
        return s.contains("\n") ? s.substring(0, s.indexOf('\n')) : s;
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
            Files.deleteIfExists(socket);
        } catch (IOException e) {
            // gone with the directory
        }
    }

    /** The verbs, for help texts. */
    public static List<String> verbs() {
        return List.of("RELEASE KEY", "STOP KEY");
    }
}
