// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import dev.runaway.model.ProcessIdentity;
import dev.runaway.procfs.ProcStat;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On an overloaded machine the window's threads are raised before anyone presses STOP: twelve
 * busy loops on two cores (more than four runnable tasks per core) stand in for a fire. The
 * toolkit's threads are raised, and every other thread of the JVM with them (new ones at the next
 * sweep). They are lowered when the window closes.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("process")
@org.junit.jupiter.api.Tag("window")
class ConsoleOverloadTest {
    private static final int BUSY_LOOPS = 12;
    private ConsoleSession session;
    private ConsoleWindow window;

    /** The stand-in X server's pid once a test has started it: set before the window opens, which may already be overloaded. */
    private final java.util.concurrent.atomic.AtomicReference<ProcessIdentity> xServer = new java.util.concurrent.atomic.AtomicReference<>();

    @BeforeEach
    void open() throws Exception {
        ConsoleWindow.displayServer = () -> Optional.ofNullable(xServer.get());
        FxToolkit.registerPrimaryStage();
        session = ConsoleSession.live(Optional.empty());
        window = TestWindows.open(session, false);
    }

    @AfterEach
    void close() throws Exception {
        FxToolkit.cleanupStages();
        session.close();
        ConsoleWindow.displayServer = ConsoleWindow.LOCAL_X_SERVER;
    }

    @Test
    void anOverloadedMachineRaisesTheWindowsThreadsUntilItCloses() throws Exception {
        try (Sandbox busy = Sandboxes.create(SandboxSpec.of("test-console-overload", 32))) {
            int xServer = overload(busy);

            WaitForAsyncUtils.waitFor(45, TimeUnit.SECONDS, () -> onFx(window::raisedForOverload));
            assertThat(ThreadPolicy.ofProcess(xServer)).as("the X server's thread").isEqualTo(ThreadPolicy.SCHED_RR);
            WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS,
                    () -> onFx(() -> window.status.getText().contains("X server raised with the window (SCHED_RR 2")));
            assertThat(ThreadPolicy.onFx()).as("the JavaFX thread").isEqualTo(ThreadPolicy.SCHED_RR);
            assertThat(ToolkitThreads.others()).isNotEmpty()
                    .allSatisfy(tid -> assertThat(ThreadPolicy.of(tid)).isEqualTo(ThreadPolicy.SCHED_RR));
            // The drawing path one above the console's real-time scanning: at one priority the JavaFX
            // thread sat runnable for 764 and 1,218 ms behind the scanners (bench ui, 20,000 pressing).
            assertThat(ToolkitThreads.others())
                    .allSatisfy(tid -> assertThat(ThreadPolicy.rtPriority(tid, true)).as("toolkit thread " + tid).isEqualTo(2));
            assertThat(ThreadPolicy.rtPriority(xServer, false)).as("the X server").isEqualTo(2);
            // Every other thread too (a collection waits for the slowest), one started since at the next sweep.
            int since = idle.tid();
            WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> ThreadPolicy.of(since) == ThreadPolicy.SCHED_RR);
        }
        FxToolkit.cleanupStages();
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(ToolkitThreads.held()).isFalse();
        assertThat(ThreadPolicy.onFx()).as("the JavaFX thread once the window is closed").isEqualTo(ThreadPolicy.SCHED_OTHER);
        assertThat(ThreadPolicy.of(idle.tid())).as("a thread of the JVM's once the window is closed").isEqualTo(ThreadPolicy.SCHED_OTHER);
    }

    /** The X server's policy goes back when the window closes, while the server still runs. */
    @Test
    void theXServerGoesBackWhenTheWindowCloses() throws Exception {
        try (Sandbox busy = Sandboxes.create(SandboxSpec.of("test-console-overload-x", 32))) {
            int xServer = overload(busy);
            WaitForAsyncUtils.waitFor(45, TimeUnit.SECONDS, () -> ThreadPolicy.ofProcess(xServer) == ThreadPolicy.SCHED_RR);

            FxToolkit.cleanupStages();
            WaitForAsyncUtils.waitForFxEvents();
            assertThat(ThreadPolicy.ofProcess(xServer)).as("the X server once the window is closed").isEqualTo(ThreadPolicy.SCHED_OTHER);
        }
    }

    /**
     * In {@code busy}: a stand-in for the X server the window draws through (given to the window
     * by pid and start time), then the busy loops that overload the machine. Returns its pid.
     */
    private int overload(Sandbox busy) throws Exception {
        int pid = (int) busy.start(new ProcessBuilder("sleep", "600")).pid();
        xServer.set(ProcStat.read(java.nio.file.Path.of("/proc"), pid).orElseThrow().identity());
        for (int i = 0; i < BUSY_LOOPS; i++) busy.start(new ProcessBuilder("sh", "-c", "while :; do :; done"));
        return pid;
    }

    private final IdleThread idle = new IdleThread();

    @AfterEach
    void endIdle() throws InterruptedException {
        idle.end();
    }

    /** A thread of this JVM that is not the window's, started after the window, waiting. */
    private static final class IdleThread {
        private final java.util.concurrent.CountDownLatch end = new java.util.concurrent.CountDownLatch(1);
        private final java.util.concurrent.CompletableFuture<Integer> tid = new java.util.concurrent.CompletableFuture<>();
        private final Thread thread = new Thread(() -> {
            try {
                tid.complete(Integer.parseInt(java.nio.file.Path.of("/proc/thread-self").toRealPath().getFileName().toString()));
                end.await();
            } catch (Exception done) {
                tid.completeExceptionally(done);
            }
        }, "test-idle");

        int tid() throws Exception {
            if (thread.getState() == Thread.State.NEW) thread.start();
            return tid.get(10, TimeUnit.SECONDS);
        }

        void end() throws InterruptedException {
            end.countDown();
            thread.join(10_000);
        }
    }

    private static boolean onFx(java.util.function.BooleanSupplier read) throws Exception {
        return WaitForAsyncUtils.asyncFx(read::getAsBoolean).get(10, TimeUnit.SECONDS);
    }
}
