// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sys;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The console's raise of all its threads while the machine is overloaded: threads there before,
 * threads started since (at the next sweep), threads put back to the ordinary policy meanwhile
 * (at the next sweep), and on close only what it raised goes back.
 */
class AllThreadsRaiseTest {
    private static final int SCHED_OTHER = 0;
    private static final int SCHED_RR = 2;
    private final CountDownLatch end = new CountDownLatch(1);
    private final List<Thread> started = new ArrayList<>();

    @AfterEach
    void endThreads() throws InterruptedException {
        end.countDown();
        for (Thread t : started) t.join(10_000);
    }

    /** A thread's policy (field 41 of its stat). */
    private static int policy(int tid) throws Exception {
        String stat = Files.readString(Path.of("/proc/self/task/" + tid + "/stat"), StandardCharsets.US_ASCII);
        return Integer.parseInt(stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ")[41 - 3]);
    }

    /** A thread's policy, or empty when the thread ended between a listing and this read. */
    private static java.util.OptionalInt policyIfAlive(int tid) throws Exception {
        try {
            return java.util.OptionalInt.of(policy(tid));
        } catch (java.nio.file.NoSuchFileException exited) {
            return java.util.OptionalInt.empty();
        }
    }

    /** Starts a thread that runs {@code first} and then waits for the test's end; returns its id. */
    private int thread(Runnable first) throws Exception {
        CompletableFuture<Integer> tid = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            first.run();
            tid.complete(threadSelf());
            try {
                end.await();
            } catch (InterruptedException done) {
                Thread.currentThread().interrupt();
            }
        });
        started.add(t);
        t.start();
        return tid.get(10, TimeUnit.SECONDS);
    }

    private static int threadSelf() {
        try {
            return Integer.parseInt(Path.of("/proc/thread-self").toRealPath().getFileName().toString());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void everyThreadIsRaisedNewOnesAtTheNextSweepAndOnlyWhatItRaisedGoesBack() throws Exception {
        assumeTrue(LibC.INSTANCE.geteuid() == 0, "real-time policies need root");
        int before = thread(() -> { });
        int ownRaise = thread(Sched::aheadOfOrdinaryTasks); // raised by itself, as the sampler's threads are
        assertThat(policy(before)).isEqualTo(SCHED_OTHER);

        try (AllThreadsRaise all = AllThreadsRaise.start()) {
            assertThat(policy(before)).as("a thread there before").isEqualTo(SCHED_RR);
            assertThat(policy(threadSelf())).as("the calling thread").isEqualTo(SCHED_RR);

            int after = thread(() -> { });
            assertThat(policy(after)).as("started since: reset on fork").isEqualTo(SCHED_OTHER);
            all.sweep();
            assertThat(policy(after)).as("started since, after a sweep").isEqualTo(SCHED_RR);

            int lowered = thread(() -> { });
            all.sweep();
            Sched.Calls.INSTANCE.sched_setscheduler(lowered, SCHED_OTHER, new int[] {0});
            all.sweep();
            assertThat(policy(lowered)).as("put back to ordinary meanwhile, after a sweep").isEqualTo(SCHED_RR);

            assertThat(all.words()).contains("SCHED_RR 1 × ").contains("already × ");
        }
        assertThat(policy(before)).as("closed: back to ordinary").isEqualTo(SCHED_OTHER);
        assertThat(policy(threadSelf())).as("closed: the calling thread").isEqualTo(SCHED_OTHER);
        assertThat(policy(ownRaise)).as("raised by itself before: left raised").isEqualTo(SCHED_RR);
    }

    @Test
    void aRaiseWithChildrenClosedOnAHeldThreadLeavesItRaised() throws Exception {
        assumeTrue(LibC.INSTANCE.geteuid() == 0, "real-time policies need root");
        CompletableFuture<int[]> out = new CompletableFuture<>();
        CountDownLatch swept = new CountDownLatch(1);
        Thread worker = new Thread(() -> {
            try {
                swept.await();
                int tid = threadSelf();
                try (Sched.Raised r = Sched.raisedWithChildren()) {
                    // the stop panel's task runs here
                }
                out.complete(new int[] {policy(tid)});
            } catch (Exception e) {
                out.completeExceptionally(e);
            }
        });
        worker.start();
        try (AllThreadsRaise all = AllThreadsRaise.start()) {
            swept.countDown();
            assertThat(out.get(10, TimeUnit.SECONDS)[0]).as("after the task, still held").isEqualTo(SCHED_RR);
        }
        worker.join(10_000);
    }

    /** Another process's threads (the console's X server), by pid: here this JVM's, through /proc/PID/task. */
    @Test
    void anotherProcessIsRaisedByPidAndPutBack() throws Exception {
        assumeTrue(LibC.INSTANCE.geteuid() == 0, "real-time policies need root");
        int pid = (int) ProcessHandle.current().pid();
        int other = thread(() -> { });
        assertThat(policy(other)).isEqualTo(SCHED_OTHER);

        try (AllThreadsRaise all = AllThreadsRaise.ofProcess(pid, () -> true)) {
            assertThat(policy(other)).as("a thread of the process").isEqualTo(SCHED_RR);
            assertThat(all.changedAny()).isTrue();
            int after = thread(() -> { });
            all.sweep();
            assertThat(policy(after)).as("started since, after a sweep").isEqualTo(SCHED_RR);
        }
        assertThat(policy(other)).as("closed: back to ordinary").isEqualTo(SCHED_OTHER);
    }

    /** A pid that no longer names the process meant (reused) is neither raised nor put back. */
    @Test
    void aReusedPidIsLeftAlone() throws Exception {
        assumeTrue(LibC.INSTANCE.geteuid() == 0, "real-time policies need root");
        int pid = (int) ProcessHandle.current().pid();
        int other = thread(() -> { });

        try (AllThreadsRaise stale = AllThreadsRaise.ofProcess(pid, () -> false)) {
            assertThat(policy(other)).as("another process by now: not raised").isEqualTo(SCHED_OTHER);
            assertThat(stale.changedAny()).isFalse();
        }
        List<Integer> ordinary = new ArrayList<>();
        for (int tid : AllThreadsRaise.threads()) if (policyIfAlive(tid).orElse(-1) == SCHED_OTHER) ordinary.add(tid);
        java.util.concurrent.atomic.AtomicBoolean same = new java.util.concurrent.atomic.AtomicBoolean(true);
        try {
            try (AllThreadsRaise all = AllThreadsRaise.ofProcess(pid, same::get)) {
                assertThat(policy(other)).isEqualTo(SCHED_RR);
                same.set(false); // the pid reused meanwhile: closing must not touch what is there now
            }
            assertThat(policy(other)).as("left as the new owner of the pid has it").isEqualTo(SCHED_RR);
        } finally {
            // This JVM stood in for the other process: put its threads back for the tests after.
            for (int tid : ordinary) Sched.Calls.INSTANCE.sched_setscheduler(tid, SCHED_OTHER, new int[] {0});
        }
    }

    /** The JIT's compilers stay ordinary: they are at their safepoint while they compile, and their compiles took the window's CPU. */
    @Test
    void theCompilerThreadsAreLeftOrdinary() throws Exception {
        assumeTrue(LibC.INSTANCE.geteuid() == 0, "real-time policies need root");
        List<Integer> compilers = new ArrayList<>();
        for (int tid : AllThreadsRaise.threads()) {
            String comm;
            try {
                comm = Files.readString(Path.of("/proc/self/task/" + tid + "/comm"));
            } catch (java.nio.file.NoSuchFileException exited) {
                continue;
            }
            if (comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre")) compilers.add(tid);
        }
        assumeTrue(!compilers.isEmpty(), "this JVM runs without a JIT compiler thread");
        int other = thread(() -> { });
        try (AllThreadsRaise all = AllThreadsRaise.start()) {
            all.sweep();
            // the JVM ends idle compiler threads of its own accord: those still there are checked
            for (int tid : compilers) assertThat(policyIfAlive(tid).orElse(SCHED_OTHER)).as("compiler thread " + tid).isEqualTo(SCHED_OTHER);
            assertThat(policy(other)).isEqualTo(SCHED_RR);
        }
    }
}
