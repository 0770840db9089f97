// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.guard;

import org.freedesktop.dbus.connections.impl.DBusConnection;
import org.freedesktop.dbus.connections.impl.DBusConnectionBuilder;
import org.freedesktop.dbus.types.UInt32;
import org.freedesktop.dbus.types.Variant;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Tells the person who owns a held group, on their desktop: a freedesktop notification on their
 * own session bus ({@code /run/user/UID/bus}, joined as that user: {@link UserBus}), critical and
 * without timeout, with the actions "Open Runaway" (the notification's default), "Stop" and
 * "Release". Without a session bus (over SSH, a server)
 * the journal line, the metrics, {@code top} and {@code runaway guard --status} say it instead.
 */
public final class DesktopNotices implements Guard.Notices {
    /** Opens the console for a user on their display: a process of theirs, not the guard's. */
    public interface Console {
        void open(int uid, Map<String, String> environment) throws IOException;
    }

    private record Shown(DBusConnection bus, UInt32 id) {
    }

    private final PrintWriter log;
    private final Console console;
    private final Map<String, Shown> shown = new HashMap<>();
    private final ExecutorService work = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "runaway-guard-notices");
        t.setDaemon(true);
        return t;
    });

    DesktopNotices(PrintWriter log, Console console) {
        this.log = log;
        this.console = console;
    }

    /** The notices the policy asks for: these, or none. */
    public static Guard.Notices start(GuardPolicy policy, PrintWriter log) {
        return policy.notifyOwner() ? new DesktopNotices(log, DesktopNotices::launchConsole) : Guard.Notices.NONE;
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
        try {
            // Only the socket's connect is the owner's (UserBus): the connection's threads stay root's.
            DBusConnection c = DBusConnectionBuilder.forAddress(UserBus.address(bus, h.owner(), gidOf(h.owner())))
                    .transportConfig().configureSasl().withSaslUid((long) h.owner()).back().back().withShared(false).build();
            Notifications n = c.getRemoteObject(Notifications.BUS_NAME, Notifications.PATH, Notifications.class);
            String name = dev.runaway.model.SafeText.terminal(h.key().substring(h.key().lastIndexOf('/') + 1)); // the summary is plain text
            UInt32 id = n.Notify("Runaway", new UInt32(0), "dialog-warning", "Runaway held " + name + " (" + h.processes() + " processes)",
                    dev.runaway.model.SafeText.markup(h.why()) + "\nNothing was killed: it waits for you. Stop it to zero, or release it exactly as it was.",
                    List.of("default", "Open Runaway", "stop", "Stop", "release", "Release"),
                    Map.of("urgency", new Variant<>((byte) 2), "desktop-entry", new Variant<>("runaway")), 0);
            c.addSigHandler(Notifications.ActionInvoked.class, signal -> {
                if (!signal.id.equals(id)) return;
                work.submit(() -> act(h, guard, signal.actionKey));
            });
            synchronized (shown) {
                shown.put(h.key(), new Shown(c, id));
            }
            say("told uid " + h.owner() + " on their desktop (notification " + id + ")");
        } catch (Exception e) {
            say("could not tell uid " + h.owner() + " on their desktop (" + e.getMessage() + "): said in the journal and the metrics");
        }
    }

    private void act(HeldGroup h, Guard guard, String action) {
        switch (action) {
            case "release" -> guard.release(h.key(), "its owner, from the notification");
            case "stop" -> guard.stopToZero(h.key(), "its owner chose Stop in the notification");
            case "default" -> {
                try {
                    console.open(h.owner(), sessionEnvironment(h.owner()));
                    say("opened the console for uid " + h.owner());
                } catch (IOException e) {
                    say("could not open the console for uid " + h.owner() + ": " + e.getMessage());
                }
            }
            default -> say("unknown action '" + action + "' from notification of " + h.key());
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
                n.CloseNotification(s.id());
                n.Notify("Runaway", new UInt32(0), "dialog-information", "Runaway: hold ended", dev.runaway.model.SafeText.markup(h.key() + ": " + how), List.of(),
                        Map.of("urgency", new Variant<>((byte) 1)), 10_000);
            } catch (RuntimeException | org.freedesktop.dbus.exceptions.DBusException e) {
                say("could not update the notification of " + h.key() + ": " + e.getMessage());
            } finally {
                try {
                    s.bus().close();
                } catch (IOException e) {
                    // gone with the session
                }
            }
        });
    }

    /** The DISPLAY and friends of the user's session, from the environment of a process of theirs that has one. */
    static Map<String, String> sessionEnvironment(int uid) throws IOException {
        Map<String, String> env = new HashMap<>();
        env.put("XDG_RUNTIME_DIR", "/run/user/" + uid);
        env.put("DBUS_SESSION_BUS_ADDRESS", "unix:path=" + sessionBus(uid));
        try (var procs = Files.list(Path.of("/proc"))) {
            for (Path p : (Iterable<Path>) procs::iterator) {
                if (!p.getFileName().toString().chars().allMatch(Character::isDigit)) continue;
                try {
                    if ((Integer) Files.getAttribute(p, "unix:uid") != uid) continue;
                    String[] vars = new String(Files.readAllBytes(p.resolve("environ"))).split("\0");
                    Map<String, String> found = new HashMap<>();
                    for (String v : vars) {
                        int eq = v.indexOf('=');
                        if (eq > 0 && List.of("DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY").contains(v.substring(0, eq))) {
                            found.put(v.substring(0, eq), v.substring(eq + 1));
                        }
                    }
                    if (found.containsKey("DISPLAY") || found.containsKey("WAYLAND_DISPLAY")) {
                        env.putAll(found);
                        return env;
                    }
                } catch (IOException | RuntimeException gone) {
                    // exited, or not readable
                }
            }
        }
        throw new IOException("no process of uid " + uid + " has a display");
    }

    /** The package's launcher, as the user, on their display. */
    private static void launchConsole(int uid, Map<String, String> env) throws IOException {
        String launcher = System.getProperty("runaway.launcher", "/usr/bin/runaway");
        List<String> command = uid == 0 ? List.of(launcher, "console")
                : List.of("/usr/bin/setpriv", "--reuid=" + uid, "--regid=" + gidOf(uid), "--init-groups", launcher, "console");
        ProcessBuilder b = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        b.environment().putAll(env);
        b.start();
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
