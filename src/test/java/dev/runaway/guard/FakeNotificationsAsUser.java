// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.guard;

import dev.runaway.sandbox.AsNobody;
import dev.runaway.sandbox.Sandbox;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * {@link FakeNotifications} as another user's process (a JVM through setpriv, in the test's
 * sandbox): a session bus run by that user admits only that user (dbus-daemon's default
 * policy), so the service must be theirs too. Its lines fill the same queues; choose() is a line
 * to its input.
 */
final class FakeNotificationsAsUser implements AutoCloseable {
    final LinkedBlockingQueue<FakeNotifications.Shown> shown = new LinkedBlockingQueue<>();
    final LinkedBlockingQueue<Integer> closed = new LinkedBlockingQueue<>();
    private final CountDownLatch ready = new CountDownLatch(1);
    private final Process process;
    private final PrintWriter input;

    private FakeNotificationsAsUser(Process process) {
        this.process = process;
        this.input = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
        Thread reader = new Thread(this::read, "fake-notifications-as-user");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts the service in BOX as AS_USER (a setpriv prefix) with ENVIRONMENT added, its classpath
     * copied under DIR where that user can read it; returns once it serves BUS.
     */
    static FakeNotificationsAsUser start(Sandbox box, Path bus, Path dir, List<String> asUser, Map<String, String> environment)
            throws Exception {
        Path copied = Files.createDirectories(dir.resolve("classpath"));
        String classpath = AsNobody.readableClasspath(copied);
        List<String> command = new ArrayList<>(asUser);
        command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx64m", "-XX:+UseSerialGC",
                "-XX:-UsePerfData", "-XX:TieredStopAtLevel=1", "-Djava.io.tmpdir=" + copied, "-Duser.home=" + copied,
                "-cp", classpath, FakeNotifications.class.getName(), bus.toString()));
        ProcessBuilder b = new ProcessBuilder(command).redirectError(dir.resolve("notifications.log").toFile());
        b.environment().putAll(environment);
        FakeNotificationsAsUser service = new FakeNotificationsAsUser(box.start(b));
        if (!service.ready.await(90, TimeUnit.SECONDS)) {
            throw new AssertionError("the notification service never served " + bus + ": " + Files.readString(dir.resolve("notifications.log")));
        }
        return service;
    }

    private void read() {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = out.readLine()) != null; ) {
                if (line.equals("ready")) ready.countDown();
                else if (line.startsWith("shown ")) shown.add(FakeNotifications.Shown.ofLine(line));
                else if (line.startsWith("closed ")) closed.add(Integer.parseInt(line.substring(7)));
            }
        } catch (Exception e) {
            // the process ended: its queues stay as they are
        }
    }

    /** The person clicks ACTION on notification ID, on their own bus. */
    void choose(int id, String action) {
        input.println("choose " + id + " " + action);
    }

    /** Its input closed: the service leaves the bus and exits (the sandbox's teardown takes it if it does not). */
    @Override
    public void close() throws Exception {
        input.close();
        process.waitFor(10, TimeUnit.SECONDS);
    }
}
