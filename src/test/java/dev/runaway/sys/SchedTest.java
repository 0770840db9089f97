// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sys;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Which threads a raise reaches. A raise for one thread's own work resets on fork: the threads it
 * starts are ordinary (and during a fire a start waits until the new thread has run once, seconds
 * at the ordinary policy). A raise with children passes the policy on: for a thread whose work
 * starts threads, such as the console's plan (the stop's exe readers).
 */
class SchedTest {
    private static final int SCHED_OTHER = 0;
    private static final int SCHED_RR = 2;

    /** The calling thread's policy (field 41 of /proc/thread-self/stat). */
    private static int policy() {
        try {
            String stat = Files.readString(Path.of("/proc/thread-self/stat"), StandardCharsets.US_ASCII);
            return Integer.parseInt(stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ")[41 - 3]);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** On a fresh ordinary thread: raised as {@code withChildren} says, the policies of this thread, then of a thread it starts, then of this thread again. */
    private static int[] policies(boolean withChildren) throws Exception {
        CompletableFuture<int[]> out = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                int raised, child;
                try (Sched.Raised r = withChildren ? Sched.raisedWithChildren() : Sched.raisedWhile()) {
                    raised = policy();
                    CompletableFuture<Integer> started = new CompletableFuture<>();
                    Thread c = new Thread(() -> started.complete(policy()));
                    c.start();
                    child = started.get(10, TimeUnit.SECONDS);
                }
                out.complete(new int[] {raised, child, policy()});
            } catch (Exception e) {
                out.completeExceptionally(e);
            }
        });
        t.start();
        return out.get(20, TimeUnit.SECONDS);
    }

    @Test
    void aRaiseWithChildrenPassesTheRealTimePolicyToTheThreadsStartedMeanwhile() throws Exception {
        assumeTrue(LibC.INSTANCE.geteuid() == 0, "real-time policies need root");
        int[] p = policies(true);
        assertThat(p[0]).as("raised").isEqualTo(SCHED_RR);
        assertThat(p[1]).as("a thread started meanwhile").isEqualTo(SCHED_RR);
        assertThat(p[2]).as("closed").isEqualTo(SCHED_OTHER);
    }

    @Test
    void aRaiseForOnesOwnWorkLeavesTheThreadsItStartsOrdinary() throws Exception {
        assumeTrue(LibC.INSTANCE.geteuid() == 0, "real-time policies need root");
        int[] p = policies(false);
        assertThat(p[0]).isEqualTo(SCHED_RR);
        assertThat(p[1]).as("reset on fork").isEqualTo(SCHED_OTHER);
        assertThat(p[2]).isEqualTo(SCHED_OTHER);
    }
}
