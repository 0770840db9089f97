// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.guard;

import dev.runaway.procfs.Users;
import org.freedesktop.dbus.DBusAsyncReply;
import org.freedesktop.dbus.connections.impl.DBusConnection;
import org.freedesktop.dbus.connections.impl.DBusConnectionBuilder;
import org.freedesktop.dbus.connections.transports.AbstractTransport;
import org.freedesktop.dbus.interfaces.DBusInterface;
import org.freedesktop.dbus.types.UInt32;
import org.freedesktop.dbus.types.Variant;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Tells the person who owns a held group, on their desktop: a freedesktop notification on their
 * own session bus ({@code /run/user/UID/bus}, joined as that user: {@link UserBus}), critical and
 * without timeout, with the actions "Open Runaway" (the notification's default), "Stop" and
 * "Release". Without a session bus (over SSH, a server)
 * the journal line, the metrics, {@code top} and {@code runaway guard --status} say it instead.
 *
 * <p>The session bus is the user's, so everything on it is bounded: a notice (connect,
 * authentication, Notify) gives up after {@link #NOTICE_TIMEOUT} (its connection closed from a
 * watchdog, which ends a read that waits on a bus that does not answer) and its connection is
 * closed on every failure; the actions of a notification are rate-limited ({@link Budget}: a burst
 * of {@link Budget#BURST}, then one a second; the rest are dropped where they arrive), and "Open
 * Runaway" opens at most one console per hold.
 */
public final class DesktopNotices implements Guard.Notices {
    /** The desktop file's id (packaging/desktop/dev.runaway.Runaway.desktop): the notification's desktop-entry hint. */
    static final String DESKTOP_ID = "dev.runaway.Runaway";
    static final Duration NOTICE_TIMEOUT = Duration.ofSeconds(5);

    /** Opens the console for a user in their own session, on its display; says what it started. */
    public interface Console {
        String open(int uid, LoginSessions.Session session, DBusConnection theirBus, Duration timeout) throws Exception;
    }

    /** A notification shown: its connection (the owner's bus), its id, and what its actions did so far. */
    private record Shown(DBusConnection bus, UInt32 id, AtomicBoolean consoleOpened, Budget actions) {
    }

    /** A token bucket: BURST actions at once, then one a second (a click, then Release, pass; a flood of signals does not). */
    static final class Budget {
        static final int BURST = 3;
        private double tokens = BURST;
        private long atNanos = System.nanoTime();

        synchronized boolean take() {
            long now = System.nanoTime();
            tokens = Math.min(BURST, tokens + (now - atNanos) / 1e9);
            atNanos = now;
            if (tokens < 1) return false;
            tokens -= 1;
            return true;
        }
    }

    private final PrintWriter log;
    private final Console console;
    private final LoginSessions sessions;
    private final Map<String, Shown> shown = new HashMap<>();
    private final ExecutorService work = Executors.newSingleThreadExecutor(r -> daemon(r, "runaway-guard-notices"));
    private final ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "runaway-guard-notices-deadline"));

    DesktopNotices(PrintWriter log, Console console, LoginSessions sessions) {
        this.log = log;
        this.console = console;
        this.sessions = sessions;
    }

    /** The notices the policy asks for: these, or none. */
    public static Guard.Notices start(GuardPolicy policy, PrintWriter log) {
        return policy.notifyOwner()
                ? new DesktopNotices(log, new UserConsole(System.getProperty("runaway.launcher", "/usr/bin/runaway")), LoginSessions.logind())
                : Guard.Notices.NONE;
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    /** A user's session bus: {@code -Drunaway.guard.session-bus} with %d for the uid (tests), else /run/user/UID/bus. */
    static Path sessionBus(int uid) {
        return Path.of(String.format(System.getProperty("runaway.guard.session-bus", "/run/user/%d/bus"), uid));
    }

    @Override
    public void held(HeldGroup h, Guard guard) {
        work.submit(() -> show(h, guard));
    }

    private void show(HeldGroup h, Guard guard) {
        Path bus = sessionBus(h.owner());
        if (h.owner() < 0 || !Files.exists(bus)) {
            say("no desktop session bus for uid " + h.owner() + " (" + bus + "): the hold of " + h.key()
                    + " is said in the journal, the metrics, top and runaway guard --status");
            return;
        }
        AtomicReference<AbstractTransport> transport = new AtomicReference<>();
        AtomicBoolean settled = new AtomicBoolean(); // by the notice or by its deadline, whichever comes first
        ScheduledFuture<?> deadline = watchdog.schedule(() -> {
            if (settled.compareAndSet(false, true)) closeQuietly(transport.get());
        }, NOTICE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        long started = System.nanoTime();
        DBusConnection c = null;
        boolean kept = false;
        try {
            // Only the socket's connect is the owner's (UserBus): the connection's threads stay root's.
            c = DBusConnectionBuilder.forAddress(UserBus.address(bus, h.owner(), gidOf(h.owner())))
                    // withTimeout(500): one connect attempt (dbus-java tries again every 500 ms up to its timeout); UserBus has its own
                    .transportConfig().withTimeout(500).withPreConnectCallback(transport::set)
                    .configureSasl().withSaslUid((long) h.owner()).back().back().withShared(false).build();
            // The handler is in place before the notification shows, and keeps what comes before Notify's answer
            // (a click at once, which the answer's reader may pass on first): no click is lost.
            AtomicReference<Shown> mine = new AtomicReference<>();
            List<Notifications.ActionInvoked> early = new ArrayList<>();
            c.addSigHandler(Notifications.ActionInvoked.class, signal -> {
                synchronized (early) {
                    if (mine.get() == null) {
                        if (early.size() < Budget.BURST) early.add(signal);
                        return;
                    }
                }
                dispatch(h, guard, mine.get(), signal);
            });
            Notifications n = c.getRemoteObject(Notifications.BUS_NAME, Notifications.PATH, Notifications.class);
            String name = dev.runaway.model.SafeText.terminal(h.key().substring(h.key().lastIndexOf('/') + 1)); // the summary is plain text
            UInt32 id = (UInt32) call(c, n, "Notify", remaining(started), "Runaway", new UInt32(0), "dialog-warning",
                    "Runaway held " + name + " (" + h.processes() + " processes)",
                    dev.runaway.model.SafeText.markup(h.why()) + "\nNothing was killed: it waits for you. Stop it to zero, or release it exactly as it was.",
                    List.of("default", "Open Runaway", "stop", "Stop", "release", "Release"),
                    Map.of("urgency", new Variant<>((byte) 2), "desktop-entry", new Variant<>(DESKTOP_ID)), 0);
            Shown s = new Shown(c, id, new AtomicBoolean(), new Budget());
            synchronized (early) {
                mine.set(s);
                for (Notifications.ActionInvoked signal : early) dispatch(h, guard, s, signal);
            }
            if (!settled.compareAndSet(false, true)) throw new IOException("no answer in " + NOTICE_TIMEOUT.toMillis() + " ms");
            synchronized (shown) {
                shown.put(h.key(), s);
            }
            kept = true; // its connection stays for the notification's actions
            say("told uid " + h.owner() + " on their desktop (notification " + id + ")");
        } catch (Exception e) {
            say("could not tell uid " + h.owner() + " on their desktop in " + (System.nanoTime() - started) / 1_000_000 + " ms ("
                    + e.getMessage() + "): said in the journal and the metrics");
        } finally {
            deadline.cancel(false);
            if (!kept) {
                settled.set(true);
                if (c != null) c.disconnect();
                closeQuietly(transport.get());
            }
        }
    }

    private static Duration remaining(long startedNanos) {
        return NOTICE_TIMEOUT.minusNanos(System.nanoTime() - startedNanos);
    }

    /** An action of notification S, within its budget, to the notices' thread. */
    private void dispatch(HeldGroup h, Guard guard, Shown s, Notifications.ActionInvoked signal) {
        if (signal.id.equals(s.id()) && s.actions().take()) work.submit(() -> act(h, guard, s, signal.actionKey));
    }

    private void act(HeldGroup h, Guard guard, Shown s, String action) {
        switch (action) {
            case "release" -> guard.release(h.key(), "its owner, from the notification");
            case "stop" -> guard.stopToZero(h.key(), "its owner chose Stop in the notification");
            case "default" -> openConsole(h, s);
            default -> say("unknown action of notification " + s.id() + " of " + h.key() + ": ignored");
        }
    }

    /** One console per hold, in the owner's graphical login session (logind's word), started by their own manager. */
    private void openConsole(HeldGroup h, Shown s) {
        if (s.consoleOpened().get()) {
            say("the console for the hold of " + h.key() + " was opened already: not another");
            return;
        }
        try {
            var session = LoginSessions.graphical(h.owner(), sessions.of(h.owner()));
            if (session.isEmpty()) {
                say("no graphical login session of uid " + h.owner() + " in logind: the console is not opened (run: runaway console)");
                return;
            }
            String started = console.open(h.owner(), session.get(), s.bus(), NOTICE_TIMEOUT);
            s.consoleOpened().set(true);
            say("opened the console for uid " + h.owner() + " in their session " + session.get().id() + " (" + started + ")");
        } catch (Exception e) {
            say("could not open the console for uid " + h.owner() + ": " + e.getMessage());
        }
    }

    @Override
    public void ended(HeldGroup h, String how) {
        work.submit(() -> {
            Shown s;
            synchronized (shown) {
                s = shown.remove(h.key());
            }
            if (s == null) return;
            try {
                Notifications n = s.bus().getRemoteObject(Notifications.BUS_NAME, Notifications.PATH, Notifications.class);
                long started = System.nanoTime();
                call(s.bus(), n, "CloseNotification", remaining(started), s.id());
                call(s.bus(), n, "Notify", remaining(started), "Runaway", new UInt32(0), "dialog-information", "Runaway: hold ended",
                        dev.runaway.model.SafeText.markup(h.key() + ": " + how), List.of(),
                        Map.of("urgency", new Variant<>((byte) 1), "desktop-entry", new Variant<>(DESKTOP_ID)), 10_000);
            } catch (Exception e) {
                say("could not update the notification of " + h.key() + ": " + e.getMessage());
            } finally {
                s.bus().disconnect();
            }
        });
    }

    /** A method call that waits at most TIMEOUT for its answer (dbus-java's own wait is 20 s, and the bus is the user's). */
    static Object call(DBusConnection c, DBusInterface remote, String method, Duration timeout, Object... args) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        DBusAsyncReply<?> reply = c.callMethodAsync(remote, method, args);
        while (!reply.hasReply()) {
            if (System.nanoTime() - deadline > 0) throw new IOException(method + " had no answer in " + timeout.toMillis() + " ms");
            Thread.sleep(10);
        }
        return reply.getReply();
    }

    private static void closeQuietly(AbstractTransport t) {
        if (t == null) return;
        try {
            t.close();
        } catch (IOException | RuntimeException e) {
            // gone already
        }
    }

    private static int gidOf(int uid) {
        return Users.gidOf(uid);
    }

    private void say(String line) {
        synchronized (log) {
            log.println("runaway guard: " + dev.runaway.model.SafeText.terminal(line)); // keys and errors are users' text
            log.flush();
        }
    }
}
