package dev.runaway.stop;

import dev.runaway.analysis.TargetSet;
import dev.runaway.model.ProcessIdentity;
import dev.runaway.model.ProcessSample;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Runs a stop plan in the order that works against a runaway: stop growth first (a kill round
 * cannot finish against a set that keeps growing), then kill the now fixed set in rounds until
 * a round finds no new member, then confirm zero from fresh scans over a stable window, then put
 * back what step 1 changed. Every step is written down as it happens.
 */
public final class StopEngine {
    public static final Duration STABLE_WINDOW = Duration.ofSeconds(2);
    public static final Duration CONFIRM_TIMEOUT = Duration.ofSeconds(30);
    static final int MAX_ROUNDS = 200;
    private static final int SIGKILL = 9;
    private static final int SIGSTOP = 19;

    /** One thing done: when, which step and lever, how many processes it saw or reached, and how it went. */
    public record Step(Instant at, String step, String lever, int count, String note, long millis) {
        @Override
        public String toString() {
            return String.format("%-13s %-14s %6d  %s (%d ms)", step, lever, count, note, millis);
        }
    }

    /** The outcome: zero confirmed or the survivors, and the whole log. */
    public record Outcome(boolean zeroConfirmed, List<ProcessSample> survivors, List<Step> steps, long millisToZero,
                          Map<String, Integer> restoredModes) {
    }

    private final Actuator actuator;
    private final Supplier<TargetSet> rescan;
    private final Consumer<Step> listener;
    private final List<Step> steps = new ArrayList<>();
    private String quarantine;

    /**
     * @param rescan   a fresh scan's target set for the plan's command (members, descendants, cgroup)
     * @param listener told of every step as it happens (live counts)
     */
    public StopEngine(Actuator actuator, Supplier<TargetSet> rescan, Consumer<Step> listener) {
        this.actuator = actuator;
        this.rescan = rescan;
        this.listener = listener;
    }

    public Outcome run(StopPlan plan, boolean keepRevoked) {
        long started = System.nanoTime();
        Map<String, Integer> revoked = new LinkedHashMap<>();
        Map<String, Integer> restored = new LinkedHashMap<>();
        boolean zero = false;
        List<ProcessSample> survivors = List.of();
        long toZero = -1;
        actuator.bind(HelperBinding.of(plan));
        try {
            stopGrowth(plan, revoked);
            kill(plan);
            survivors = confirmZero(plan);
            zero = survivors.isEmpty();
            toZero = (System.nanoTime() - started) / 1_000_000 - (zero ? STABLE_WINDOW.toMillis() : 0);
        } catch (StopException e) {
            log("error", plan.chosen().name(), 0, e.getMessage(), System.nanoTime());
        } finally {
            restore(plan, revoked, keepRevoked, restored);
            actuator.unbind();
        }
        return new Outcome(zero, survivors, List.copyOf(steps), toZero, restored);
    }

    private void stopGrowth(StopPlan plan, Map<String, Integer> revoked) throws StopException {
        long t = System.nanoTime();
        switch (plan.chosen()) {
            case FREEZE_CGROUP -> {
                String cgroup = plan.cgroup().orElseThrow();
                actuator.freeze(cgroup, true);
                waitFrozen(cgroup);
                log("stop growth", "freeze", actuator.members(cgroup).size(), "froze " + cgroup, t);
            }
            case REVOKE_EXEC -> {
                for (String binary : plan.binaries()) revoked.put(binary, actuator.revoke(binary));
                log("stop growth", "revoke exec", revoked.size(), "execute bits off " + String.join(", ", revoked.keySet()), t);
                // Revoking stops every new exec, not a fork without one: a sweep of SIGSTOP makes the set fixed.
                t = System.nanoTime();
                int stopped = sweep(SIGSTOP, "stop growth", "sigstop");
                log("stop growth", "sigstop", stopped, "every target stopped; a sweep found no new one", t);
            }
            case QUARANTINE -> {
                quarantine = actuator.quarantine(Long.toString(ProcessHandle.current().pid()) + "-" + System.nanoTime() % 100000);
                int moved = moveAll(quarantine);
                log("stop growth", "quarantine", moved, "moved into " + quarantine + " (frozen); a sweep found no new one", t);
            }
            case SIGSTOP_SWEEP -> {
                int stopped = sweep(SIGSTOP, "stop growth", "sigstop");
                log("stop growth", "sigstop", stopped, "every target stopped; a sweep found no new one", t);
            }
        }
    }

    /** Moves targets into the quarantine, rescanning, until a sweep finds none left outside. */
    private int moveAll(String into) throws StopException {
        Set<ProcessIdentity> moved = new HashSet<>();
        for (int round = 1; round <= MAX_ROUNDS; round++) {
            int fresh = 0;
            for (ProcessSample p : rescan.get().samples()) {
                if (moved.contains(p.identity())) continue;
                if (actuator.move(into, p.identity())) fresh++;
                moved.add(p.identity());
            }
            if (fresh == 0) return moved.size();
        }
        throw new StopException("stop growth: still finding targets outside the quarantine after " + MAX_ROUNDS + " sweeps");
    }

    private void waitFrozen(String cgroup) throws StopException {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (!actuator.isFrozen(cgroup)) {
            if (System.nanoTime() > deadline) throw new StopException("the cgroup " + cgroup + " did not freeze within 5 s");
            sleep(10);
        }
    }

    private void kill(StopPlan plan) throws StopException {
        long t = System.nanoTime();
        if (plan.chosen() == Lever.FREEZE_CGROUP || quarantine != null) {
            String cgroup = quarantine != null ? quarantine : plan.cgroup().orElseThrow();
            int members = actuator.members(cgroup).size();
            actuator.killCgroup(cgroup);
            long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
            while (!actuator.members(cgroup).isEmpty() && System.nanoTime() < deadline) sleep(10);
            log("kill", "cgroup.kill", members, "killed every member of " + cgroup, t);
            if (live(rescan.get().samples()).isEmpty()) return;
            t = System.nanoTime();
        }
        int killed = sweep(SIGKILL, "kill", "sigkill");
        log("kill", "sigkill", killed, "rounds until one found no new member", t);
    }

    /** Signals every target, rescanning, until a round finds no one new; returns how many were reached. */
    private int sweep(int signal, String step, String lever) throws StopException {
        Set<ProcessIdentity> done = new HashSet<>();
        for (int round = 1; round <= MAX_ROUNDS; round++) {
            int fresh = 0;
            for (ProcessSample p : rescan.get().samples()) {
                if (done.contains(p.identity())) continue;
                if (actuator.signal(p.identity(), signal) == Pidfd.Result.SENT) fresh++;
                done.add(p.identity());
            }
            if (fresh == 0) return done.size();
        }
        throw new StopException(step + ": still finding new targets after " + MAX_ROUNDS + " rounds of " + lever);
    }

    /** Rescans until nothing matches for the stable window; returns the survivors (empty at zero). */
    private List<ProcessSample> confirmZero(StopPlan plan) {
        long t = System.nanoTime();
        long deadline = t + CONFIRM_TIMEOUT.toNanos();
        long zeroSince = -1;
        int checks = 0;
        List<ProcessSample> left = List.of();
        while (System.nanoTime() < deadline) {
            checks++;
            left = live(rescan.get().samples());
            int inCgroup = plan.cgroup().map(c -> actuator.members(c).size()).orElse(0)
                    + (quarantine == null ? 0 : actuator.members(quarantine).size());
            if (left.isEmpty() && inCgroup == 0) {
                if (zeroSince < 0) zeroSince = System.nanoTime();
                if (System.nanoTime() - zeroSince >= STABLE_WINDOW.toNanos()) {
                    log("confirm zero", "rescan", 0, "nothing matched for " + STABLE_WINDOW.toSeconds() + " s, " + checks + " checks", t);
                    return List.of();
                }
            } else {
                if (zeroSince >= 0) log("confirm zero", "rescan", left.size() + inCgroup, "a match came back", t);
                zeroSince = -1;
                for (ProcessSample p : left) {
                    try {
                        actuator.signal(p.identity(), SIGKILL);
                    } catch (StopException e) {
                        log("confirm zero", "sigkill", 1, e.getMessage(), t);
                    }
                }
            }
            sleep(100);
        }
        log("confirm zero", "rescan", left.size(), "zero not reached within " + CONFIRM_TIMEOUT.toSeconds() + " s", t);
        return left;
    }

    private static List<ProcessSample> live(List<ProcessSample> samples) {
        List<ProcessSample> live = new ArrayList<>();
        for (ProcessSample p : samples) if (p.state() != 'Z' && p.state() != 'X') live.add(p);
        return live;
    }

    private void restore(StopPlan plan, Map<String, Integer> revoked, boolean keepRevoked, Map<String, Integer> restored) {
        long t = System.nanoTime();
        try {
            if (plan.chosen() == Lever.FREEZE_CGROUP && plan.cgroup().isPresent()) {
                actuator.freeze(plan.cgroup().get(), false);
                log("restore", "thaw", 1, "thawed " + plan.cgroup().get(), t);
            }
        } catch (StopException | RuntimeException e) {
            log("restore", "thaw", 0, "the cgroup is gone or could not be thawed: " + e.getMessage(), t);
        }
        if (quarantine != null) {
            try {
                actuator.release(quarantine);
                log("restore", "quarantine", 1, "removed " + quarantine, t);
            } catch (StopException e) {
                log("restore", "quarantine", 0, e.getMessage(), t);
            }
        }
        if (revoked.isEmpty()) return;
        if (keepRevoked) {
            log("restore", "revoke exec", 0, "execute bits left off, as asked: " + String.join(", ", revoked.keySet()), t);
            return;
        }
        for (Map.Entry<String, Integer> e : revoked.entrySet()) {
            try {
                actuator.restore(e.getKey(), e.getValue());
                restored.put(e.getKey(), e.getValue());
            } catch (StopException ex) {
                log("restore", "revoke exec", 0, ex.getMessage(), t);
            }
        }
        log("restore", "revoke exec", restored.size(), "modes back as recorded", t);
    }

    private void log(String step, String lever, int count, String note, long startedNanos) {
        Step s = new Step(Instant.now(), step, lever, count, note, (System.nanoTime() - startedNanos) / 1_000_000);
        steps.add(s);
        listener.accept(s);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
