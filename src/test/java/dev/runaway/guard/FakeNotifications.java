// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.guard;

import org.freedesktop.dbus.connections.impl.DBusConnection;
import org.freedesktop.dbus.connections.impl.DBusConnectionBuilder;
import org.freedesktop.dbus.types.UInt32;
import org.freedesktop.dbus.types.Variant;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A desktop's notification service on a test's own session bus: it keeps what it is shown, and a
 * "person" can choose an action. In this JVM, or ({@link #main}) as a process of another user's,
 * whose bus only that user may join ({@link FakeNotificationsAsUser}).
 */
final class FakeNotifications implements Notifications, AutoCloseable {
    record Shown(int id, String summary, String body, List<String> actions, int expireTimeout) {
        /** One line of the service run as a process: {@code shown ID TIMEOUT<TAB>SUMMARY<TAB>ACTION,ACTION...}. */
        String line() {
            return "shown " + id + " " + expireTimeout + "\t" + summary + "\t" + String.join(",", actions);
        }

        static Shown ofLine(String line) {
            String[] head = line.split("\t", 3);
            String[] words = head[0].split(" ");
            return new Shown(Integer.parseInt(words[1]), head[1], "", List.of(head[2].split(",")), Integer.parseInt(words[2]));
        }
    }

    final LinkedBlockingQueue<Shown> shown = new LinkedBlockingQueue<>();
    final LinkedBlockingQueue<Integer> closed = new LinkedBlockingQueue<>();
    /** The desktop-entry hint of each notification shown, in order ("" without one). */
    final LinkedBlockingQueue<String> desktopEntries = new LinkedBlockingQueue<>();
    private final AtomicInteger ids = new AtomicInteger();
    private final DBusConnection bus;
    private final Consumer<String> echo;

    FakeNotifications(Path socket) throws Exception {
        this(socket, line -> { });
    }

    private FakeNotifications(Path socket, Consumer<String> echo) throws Exception {
        this.echo = echo;
        bus = DBusConnectionBuilder.forAddress("unix:path=" + socket).withShared(false).build();
        bus.requestBusName(BUS_NAME);
        bus.exportObject(PATH, this);
    }

    @Override
    public UInt32 Notify(String appName, UInt32 replacesId, String appIcon, String summary, String body, List<String> actions,
                         Map<String, Variant<?>> hints, Integer expireTimeout) {
        int id = ids.incrementAndGet();
        Shown s = new Shown(id, summary, body, actions, expireTimeout);
        Variant<?> entry = hints.get("desktop-entry");
        desktopEntries.add(entry == null ? "" : String.valueOf(entry.getValue()));
        shown.add(s);
        echo.accept(s.line());
        return new UInt32(id);
    }

    @Override
    public void CloseNotification(UInt32 id) {
        closed.add(id.intValue());
        echo.accept("closed " + id.intValue());
    }

    /** The person clicks ACTION on notification ID. */
    void choose(int id, String action) throws Exception {
        bus.sendMessage(new ActionInvoked(PATH, new UInt32(id), action));
    }

    @Override
    public String getObjectPath() {
        return PATH;
    }

    @Override
    public void close() throws Exception {
        bus.close();
    }

    /**
     * The service as a process of whoever runs it, on the bus at args[0]: prints {@code ready},
     * then a line for each notification shown ({@link Shown#line}) and {@code closed ID}; reads
     * {@code choose ID ACTION} lines until its input ends.
     */
    public static void main(String[] args) throws Exception {
        try (FakeNotifications n = new FakeNotifications(Path.of(args[0]), line -> {
            System.out.println(line);
            System.out.flush();
        })) {
            System.out.println("ready");
            System.out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line; (line = in.readLine()) != null; ) {
                String[] w = line.split(" ");
                if (w.length == 3 && w[0].equals("choose")) n.choose(Integer.parseInt(w[1]), w[2]);
            }
        }
    }
}
