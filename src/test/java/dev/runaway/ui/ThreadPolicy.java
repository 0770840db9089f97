// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Scheduling policies of this JVM's threads, as the kernel holds them (field 41 of a thread's stat). */
final class ThreadPolicy {
    static final int SCHED_OTHER = 0;
    static final int SCHED_RR = 2;

    private ThreadPolicy() {
    }

    /** A thread's policy, by its id. */
    static int of(int tid) {
        try {
            return parse(Files.readString(Path.of("/proc/self/task/" + tid + "/stat"), StandardCharsets.US_ASCII));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Another process's (main thread's) policy, by its pid. */
    static int ofProcess(int pid) {
        try {
            return parse(Files.readString(Path.of("/proc/" + pid + "/stat"), StandardCharsets.US_ASCII));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The JavaFX thread's policy, read on that thread. */
    static int onFx() throws Exception {
        CompletableFuture<Integer> policy = new CompletableFuture<>();
        javafx.application.Platform.runLater(() -> {
            try {
                policy.complete(parse(new String(Files.readAllBytes(Path.of("/proc/thread-self/stat")), StandardCharsets.US_ASCII)));
            } catch (Exception e) {
                policy.completeExceptionally(e);
            }
        });
        return policy.get(10, TimeUnit.SECONDS);
    }

    /** A thread's real-time priority (field 40), by its id in this process, or of another process by its pid. */
    static int rtPriority(int tid, boolean ofThisProcess) {
        try {
            String stat = Files.readString(Path.of(ofThisProcess ? "/proc/self/task/" + tid + "/stat" : "/proc/" + tid + "/stat"),
                    StandardCharsets.US_ASCII);
            return Integer.parseInt(stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ")[40 - 3]);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static int parse(String stat) {
        String[] after = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        return Integer.parseInt(after[41 - 3]); // after the name comes field 3 (state); the policy is 41
    }
}
