// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.guard;

import dev.runaway.procfs.Users;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The guard's notices against the user whose bus they join: a "session bus" of {@code nobody}'s
 * that never accepts (a full backlog) or accepts and never answers (stalling-bus.py). The notice
 * gives up within its timeout, closes what it opened, leaves no thread of the guard as the user
 * at any moment, and the next notice (root's own bus) still goes out. "Open Runaway" clicked many
 * times opens one console, through the owner's own user manager (a stand-in), on the display of
 * their logind session (a stand-in), never the DISPLAY of a root process's environment; with no
 * graphical session it opens none and says so.
 */
@Tag("process")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DesktopNoticesDoorsTest {
    private static final List<String> AS_NOBODY = List.of("/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups");
    private static final String ROOTS_DISPLAY = ":66";
    private static final String SESSION_DISPLAY = ":42";
    @TempDir
    Path dir;
    private final StringWriter journal = new StringWriter();
    private int nobody;

    @BeforeEach
    void runtimeDirs() throws Exception {
        assumeTrue(new com.sun.security.auth.module.UnixSystem().getUid() == 0, "the guard tells as root");
        nobody = Users.uidOf("nobody").orElseThrow();
        // As /run/user/UID: each user's own directory (0700) under ones anyone may pass through.
        Files.setAttribute(dir, "unix:mode", 0755);
        Files.setAttribute(Files.createDirectories(dir.resolve("user")), "unix:mode", 0755);
        Path theirs = Files.createDirectories(dir.resolve("user").resolve(Integer.toString(nobody)));
        Files.setAttribute(theirs, "unix:uid", nobody);
        Files.setAttribute(theirs, "unix:gid", Users.gidOf(nobody));
        Files.setAttribute(theirs, "unix:mode", 0700);
        Files.setAttribute(Files.createDirectories(dir.resolve("user").resolve("0")), "unix:mode", 0700);
        System.setProperty("runaway.guard.session-bus", dir.resolve("user").resolve("%d").resolve("bus").toString());
    }

    @AfterEach
    void clear() {
        System.clearProperty("runaway.guard.session-bus");
    }

    private Path busOf(int uid) {
        return DesktopNotices.sessionBus(uid);
    }

    private static HeldGroup held(String key, int owner) {
        return new HeldGroup(key, "", GuardRule.GROWING_RECURSION, "a test's hold", Instant.now(), "SIGSTOP_SWEEP", 12, owner, false);
    }

    private DesktopNotices notices(List<String> consoles, LoginSessions sessions) {
        return new DesktopNotices(new PrintWriter(journal, true), (uid, session, bus, timeout) -> {
            consoles.add(uid + " " + session.display());
            return "a test's console";
        }, sessions);
    }

    @Test
    void aBusThatNeverAcceptsStallsNoNoticeAndNoGuardThreadIsEverTheUsers() throws Exception {
        try (Sandbox box = Sandboxes.create(SandboxSpec.of("test-notice-backlog", 16))) {
            Lines stall = stallingBus(box, "backlog");
            await().atMost(Duration.ofSeconds(20)).until(() -> stall.any("ready"));
            DesktopNotices notices = notices(new CopyOnWriteArrayList<>(), uid -> List.of());
            List<String> asUser = new CopyOnWriteArrayList<>();
            java.util.Set<String> connects = java.util.concurrent.ConcurrentHashMap.newKeySet(); // the one-connect threads seen as the user
            AtomicBoolean watching = new AtomicBoolean(true);
            Thread sampler = new Thread(() -> {
                while (watching.get()) {
                    try {
                        for (String t : GuardDrillTest.threadsNotRoot()) {
                            String comm = Files.readString(Path.of(t.substring(0, t.indexOf(' '))).resolve("comm")).strip();
                            if (!comm.equals(OwnerSocket.CONNECT_THREAD)) asUser.add(comm + ": " + t);
                            else connects.add(t.substring(0, t.indexOf(' ')));
                        }
                        Thread.sleep(2);
                    } catch (Exception e) {
                        // a thread ended while read
                    }
                }
            });
            sampler.setDaemon(true);
            sampler.start();
            long asked = System.nanoTime();
            notices.held(held("/home/nobody/bin/stuck", nobody), null);
            try {
                await().atMost(DesktopNotices.NOTICE_TIMEOUT.plusSeconds(3)).until(() -> journal.toString().contains("could not tell uid " + nobody));
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                throw new AssertionError("the notice did not give up: " + journal + "; the bus " + stall.all + "; threads as the user " + asUser
                        + "; the notices " + noticeStacks(), e);
            } finally {
                watching.set(false);
            }
            double gaveUpSeconds = (System.nanoTime() - asked) / 1e9;
            System.out.printf("a bus that never accepts (%s): the notice gave up after %.2f s; %s%n", stall.first("ready"), gaveUpSeconds,
                    journal.toString().strip());
            assertThat(asUser).as("threads of the guard other than a one-connect thread that ran as uid " + nobody + " while it waited").isEmpty();
            System.out.println("one-connect threads seen as the user while the notice waited: " + connects.size());
            for (String t : connects) assertThat(Path.of(t)).as("a one-connect thread ended after its connect").doesNotExist();
            assertThat(GuardDrillTest.threadsNotRoot()).isEmpty();
            theNextNoticeStillGoesOut(notices);
        }
    }

    @Test
    void aBusThatAcceptsAndNeverAnswersIsLeftWithinTheTimeoutAndItsConnectionClosed() throws Exception {
        try (Sandbox box = Sandboxes.create(SandboxSpec.of("test-notice-silent", 16))) {
            Lines stall = stallingBus(box, "silent");
            await().atMost(Duration.ofSeconds(20)).until(() -> stall.any("ready"));
            DesktopNotices notices = notices(new CopyOnWriteArrayList<>(), uid -> List.of());
            long asked = System.nanoTime();
            notices.held(held("/home/nobody/bin/silent", nobody), null);
            await().atMost(DesktopNotices.NOTICE_TIMEOUT.plusSeconds(3)).until(() -> journal.toString().contains("could not tell uid " + nobody));
            System.out.printf("a bus that never answers: the notice gave up after %.2f s%n", (System.nanoTime() - asked) / 1e9);
            assertThat(stall.any("accepted 1")).as("the guard did reach it: " + stall.all).isTrue();
            await().atMost(Duration.ofSeconds(3)).until(() -> stall.any("eof 1"));
            assertThat(GuardDrillTest.threadsNotRoot()).isEmpty();
            theNextNoticeStillGoesOut(notices);
        }
    }

    /** Root's own bus (a dbus-daemon of root's, a stand-in notification service): the notices are not stuck behind the user's. */
    private void theNextNoticeStillGoesOut(DesktopNotices notices) throws Exception {
        try (Sandbox box = Sandboxes.create(SandboxSpec.of("test-notice-root-bus", 16))) {
            rootsBus(box);
            try (FakeNotifications desktop = new FakeNotifications(busOf(0))) {
                notices.held(held("/usr/local/bin/roots", 0), null);
                FakeNotifications.Shown note = desktop.shown.poll(10, TimeUnit.SECONDS);
                assertThat(note).as("the next notice went out: " + journal).isNotNull();
                assertThat(note.summary()).startsWith("Runaway held roots");
            }
        }
    }

    @Test
    void openRunawayClickedManyTimesOpensOneConsoleByTheOwnersManagerOnTheirSessionsDisplay() throws Exception {
        try (Sandbox box = Sandboxes.create(SandboxSpec.of("test-notice-console", 16))) {
            rootsBus(box); // a uid-0 process with DISPLAY=:66 in its environment, as a setuid program of a user's would be
            List<LoginSessions.Session> logind = List.of(
                    new LoginSessions.Session("3", 0, "tty", "user", "online", false, ""),
                    new LoginSessions.Session("c2", 0, "x11", "greeter", "online", false, ":1"),
                    new LoginSessions.Session("7", 0, "x11", "user", "active", false, SESSION_DISPLAY));
            DesktopNotices notices = new DesktopNotices(new PrintWriter(journal, true), new UserConsole("/usr/bin/runaway"), uid -> logind);
            try (FakeNotifications desktop = new FakeNotifications(busOf(0)); FakeUserManager manager = new FakeUserManager(busOf(0))) {
                notices.held(held("/usr/local/bin/clicked", 0), null);
                FakeNotifications.Shown note = desktop.shown.poll(10, TimeUnit.SECONDS);
                assertThat(note).as("shown: " + journal).isNotNull();
                for (int i = 0; i < 20; i++) desktop.choose(note.id(), "default");
                FakeUserManager.Started first = manager.started.poll(10, TimeUnit.SECONDS);
                assertThat(first).as("a console was started by the owner's manager: " + journal).isNotNull();
                Thread.sleep(1500); // clicks after the rate limit's second: still no second console
                for (int i = 0; i < 2; i++) desktop.choose(note.id(), "default");
                await().atMost(Duration.ofSeconds(5)).until(() -> journal.toString().contains("was opened already"));
                assertThat(manager.started.poll(1, TimeUnit.SECONDS)).as("a second console: " + journal).isNull();
                System.out.println("one console for 22 clicks: " + first);
                assertThat(first.name()).startsWith("app-dev.runaway.Runaway-guard-").endsWith(".service");
                assertThat(first.properties()).contains("ExecStart=", "/usr/bin/runaway, console", "Environment=[DISPLAY=" + SESSION_DISPLAY + "]")
                        .doesNotContain(ROOTS_DISPLAY);
            }
        }
    }

    @Test
    void withoutAGraphicalLoginSessionNoConsoleIsOpenedAndTheJournalSaysSo() throws Exception {
        try (Sandbox box = Sandboxes.create(SandboxSpec.of("test-notice-no-session", 16))) {
            rootsBus(box);
            List<String> consoles = new CopyOnWriteArrayList<>();
            DesktopNotices notices = notices(consoles, uid -> List.of(new LoginSessions.Session("3", 0, "tty", "user", "active", false, "")));
            try (FakeNotifications desktop = new FakeNotifications(busOf(0))) {
                notices.held(held("/usr/local/bin/headless", 0), null);
                FakeNotifications.Shown note = desktop.shown.poll(10, TimeUnit.SECONDS);
                assertThat(note).as("shown: " + journal).isNotNull();
                desktop.choose(note.id(), "default");
                await().atMost(Duration.ofSeconds(10)).until(() -> journal.toString().contains("no graphical login session of uid 0"));
                assertThat(consoles).as("no console without a session of the owner's").isEmpty();
            }
        }
    }

    @Test
    void theNotificationNamesTheDesktopFileOfThePackage() throws Exception {
        try (Sandbox box = Sandboxes.create(SandboxSpec.of("test-notice-desktop-entry", 16))) {
            rootsBus(box);
            DesktopNotices notices = notices(new CopyOnWriteArrayList<>(), uid -> List.of());
            try (FakeNotifications desktop = new FakeNotifications(busOf(0))) {
                notices.held(held("/usr/local/bin/named", 0), null);
                assertThat(desktop.shown.poll(10, TimeUnit.SECONDS)).as("shown: " + journal).isNotNull();
                String entry = desktop.desktopEntries.poll(1, TimeUnit.SECONDS);
                assertThat(Path.of("packaging/desktop").resolve(entry + ".desktop"))
                        .as("the desktop-entry hint '%s' names packaging's desktop file (its id, without .desktop)", entry).isRegularFile();
            }
        }
    }

    /** Every thread's name, state and top of stack: where a notice that did not give up waits. */
    private static String noticeStacks() {
        StringBuilder out = new StringBuilder();
        Thread.getAllStackTraces().forEach((t, stack) -> {
            out.append(t.getName()).append(' ').append(t.getState()).append(' ').append(List.of(stack).subList(0, Math.min(12, stack.length))).append('\n');
        });
        return out.toString();
    }

    /** A dbus-daemon of root's at root's session bus, DISPLAY=:66 in its environment. */
    private void rootsBus(Sandbox box) throws Exception {
        ProcessBuilder b = new ProcessBuilder("dbus-daemon", "--session", "--nofork", "--address=unix:path=" + busOf(0))
                .redirectErrorStream(true).redirectOutput(dir.resolve("dbus.log").toFile());
        b.environment().put("DISPLAY", ROOTS_DISPLAY);
        box.start(b);
        await().atMost(Duration.ofSeconds(20)).until(() -> Files.exists(busOf(0)));
    }

    private Lines stallingBus(Sandbox box, String mode) throws Exception {
        Path script = dir.resolve("stalling-bus.py");
        if (!Files.exists(script)) {
            try (InputStream in = DesktopNoticesDoorsTest.class.getResourceAsStream("stalling-bus.py")) {
                Files.copy(in, script);
            }
            Files.setAttribute(script, "unix:mode", 0644);
        }
        List<String> command = new ArrayList<>(AS_NOBODY);
        command.addAll(List.of("/usr/bin/python3", script.toString(), mode, busOf(nobody).toString()));
        return new Lines(box.start(new ProcessBuilder(command).redirectErrorStream(true)));
    }

    /** A process's output lines as they come. */
    private static final class Lines {
        final List<String> all = new CopyOnWriteArrayList<>();

        Lines(Process p) {
            Thread t = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line; (line = r.readLine()) != null; ) all.add(line);
                } catch (Exception e) {
                    // ended
                }
            });
            t.setDaemon(true);
            t.start();
        }

        boolean any(String prefix) {
            return all.stream().anyMatch(l -> l.startsWith(prefix));
        }

        String first(String prefix) {
            return all.stream().filter(l -> l.startsWith(prefix)).findFirst().orElse("");
        }
    }
}
