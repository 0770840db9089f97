// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stoporder;

import dev.runaway.stoporder.StopStep.Action;
import dev.runaway.stoporder.StopStep.Phase;
import dev.runaway.stoporder.StopStep.Result;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The stop order, written once: stop growth (the first lever that can be pulled, falling back
 * to the next when one fails), kill the now fixed set, confirm zero against the target's
 * definition over a stable window, then put back what was changed. A kill round cannot finish
 * against a set that keeps growing, hence the order. The guided stop ({@code stop.StopEngine}),
 * the cgroup sandbox's teardown and the session sandbox's teardown are each a {@link Target};
 * this class decides nothing about processes, only the order, the fallbacks and the outcome.
 */
public final class StopOrder {

    /** A growth lever: pulled, it holds (returns what it reached) or fails (the next is tried). */
    public interface Growth {
        Action action();

        Pulled pull() throws Failed;
    }

    /**
     * What a pulled lever reached, and words for a person.
     *
     * @param heldAtNanos when growth stopped (System.nanoTime), if that was before the lever
     *                    returned (pids.max 0 holds at once, the freeze written after it settles
     *                    later); 0 when it held as the lever returned
     */
    public record Pulled(int count, String note, long heldAtNanos) {
        public Pulled(int count, String note) {
            this(count, note, 0);
        }
    }

    /** A lever or a kill that could not be done, and why. */
    public static final class Failed extends Exception {
        public Failed(String why) {
            super(why);
        }
    }

    /**
     * One reading of the definition: members alive now, how many more the kernel still counts
     * while it tears them down (a cgroup's {@code populated}), and processes the definition may
     * hold but cannot follow (never counted as zero).
     */
    public record Census(List<Integer> alive, int lingering, List<Integer> unfollowed) {
        public static Census of(java.util.Collection<Integer> alive) {
            return new Census(List.copyOf(alive), 0, List.of());
        }

        /** No member alive and none still being torn down (unfollowed ones aside). */
        public boolean empty() {
            return alive.isEmpty() && lingering == 0;
        }

        public int count() {
            return alive.size() + lingering;
        }
    }

    /** Steps as a target reports them. */
    public interface Log {
        void step(Phase phase, Action action, int count, Result result, String note, long startedNanos);
    }

    /** What is being stopped. */
    public interface Target {
        /** The growth levers, in the order to try them (strongest first). */
        List<Growth> growthLevers();

        /** Kills the now fixed set; {@code held} is the lever that stopped growth, or null when none did. */
        void kill(Growth held, Log log);

        /** The definition's members alive now, from a fresh read. */
        Census census();

        /** Kills members a census still found. */
        void killStragglers(Census census, Log log);

        /** Puts back what the levers changed. */
        void restore(Log log);
    }

    /** How many timeouts zero may take in all while the count keeps falling. */
    static final int PROGRESS_LIMIT = 6;

    private final Duration stableWindow;
    private final Duration timeout;
    private final long pollMillis;

    /**
     * @param stableWindow how long zero must hold (0: one zero reading is final, as for a frozen cgroup)
     * @param timeout      how long to wait for zero without a member gone (see {@link #PROGRESS_LIMIT})
     */
    public StopOrder(Duration stableWindow, Duration timeout, long pollMillis) {
        this.stableWindow = stableWindow;
        this.timeout = timeout;
        this.pollMillis = pollMillis;
    }

    public StopOutcome run(Target target, Consumer<StopStep> listener) {
        long started = System.nanoTime();
        List<StopStep> steps = new ArrayList<>();
        Log log = (phase, action, count, result, note, from) -> {
            StopStep s = new StopStep(Instant.now(), phase, action, count, result, note, (System.nanoTime() - from) / 1_000_000);
            steps.add(s);
            listener.accept(s);
        };
        long growthStopped = -1;
        Census end = new Census(List.of(), 0, List.of());
        long toZero = -1;
        StopOutcome.Status status = StopOutcome.Status.SURVIVORS;
        try {
            Growth held = null;
            for (Growth lever : target.growthLevers()) {
                long t = System.nanoTime();
                try {
                    Pulled p = lever.pull();
                    growthStopped = ((p.heldAtNanos() != 0 ? p.heldAtNanos() : System.nanoTime()) - started) / 1_000_000;
                    log.step(Phase.STOP_GROWTH, lever.action(), p.count(), Result.DONE, p.note(), t);
                    held = lever;
                    break;
                } catch (Failed | RuntimeException e) {
                    log.step(Phase.STOP_GROWTH, lever.action(), 0, Result.FAILED, e.getMessage(), t);
                }
            }
            target.kill(held, log);
            long t = System.nanoTime();
            long deadline = t + timeout.toNanos();
            // A killed set still falling is still dying: the kernel tears thousands of processes down
            // at its own pace (16 s for 20,000 pressing tasks after one cgroup.kill on a slow day), so
            // each new low moves the deadline on, up to PROGRESS_LIMIT timeouts in all.
            long lastChance = t + timeout.toNanos() * PROGRESS_LIMIT;
            int lowest = Integer.MAX_VALUE;
            long zeroSince = -1;
            int checks = 0;
            while (true) {
                checks++;
                end = target.census();
                long now = System.nanoTime();
                if (end.count() < lowest) {
                    if (lowest != Integer.MAX_VALUE) deadline = Math.min(lastChance, Math.max(deadline, now + timeout.toNanos()));
                    lowest = end.count();
                }
                if (end.empty()) {
                    if (zeroSince < 0) zeroSince = now;
                    if (now - zeroSince >= stableWindow.toNanos()) {
                        // zero as the user learns it: confirmed, less the stable window it was watched for (a
                        // census that takes long under load counts), as the incident's steps tell it too
                        toZero = (now - stableWindow.toNanos() - started) / 1_000_000;
                        if (end.unfollowed().isEmpty()) {
                            status = StopOutcome.Status.ZERO_CONFIRMED;
                            log.step(Phase.CONFIRM_ZERO, Action.RESCAN, 0, Result.ZERO, "no member alive for "
                                    + stableWindow.toMillis() + " ms, " + checks + " checks", t);
                        } else {
                            status = StopOutcome.Status.UNCONFIRMED;
                            log.step(Phase.CONFIRM_ZERO, Action.RESCAN, end.unfollowed().size(), Result.UNCONFIRMED,
                                    "no member alive, but " + end.unfollowed().size() + " processes it may hold could not be followed", t);
                        }
                        break;
                    }
                } else {
                    if (zeroSince >= 0) log.step(Phase.CONFIRM_ZERO, Action.RESCAN, end.count(), Result.CAME_BACK,
                            "members alive again after a zero reading", t);
                    zeroSince = -1;
                    if (now > deadline) {
                        log.step(Phase.CONFIRM_ZERO, Action.RESCAN, end.count(), Result.NOT_REACHED,
                                deadline >= lastChance
                                        ? "zero not reached: " + end.count() + " left after " + (now - t) / 1_000_000_000L + " s"
                                        : "zero not reached: " + end.count() + " left, none gone in the last "
                                        + (timeout.toMillis() % 1000 == 0 ? timeout.toSeconds() + " s" : timeout.toMillis() + " ms"), t);
                        break;
                    }
                    target.killStragglers(end, log);
                }
                sleep(pollMillis);
            }
        } finally {
            target.restore(log);
        }
        List<Integer> survivors = new ArrayList<>(end.alive());
        survivors.addAll(end.unfollowed());
        return new StopOutcome(status, List.copyOf(survivors), List.copyOf(steps), growthStopped, toZero, restored(target));
    }

    private static Map<String, Integer> restored(Target target) {
        return target instanceof RestoresModes r ? java.util.Collections.unmodifiableMap(new LinkedHashMap<>(r.restoredModes())) : Map.of();
    }

    /** A target that changed file modes says which it put back. */
    public interface RestoresModes {
        Map<String, Integer> restoredModes();
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
