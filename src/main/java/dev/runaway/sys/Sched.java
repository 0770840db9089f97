// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sys;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;

/**
 * Scheduling for the threads that must keep answering while a runaway holds thousands of
 * runnable tasks: under the ordinary policy a thread waits its turn behind every one of them
 * (a load average in the thousands on two cores), however nice. A round-robin real-time thread
 * runs before all of them. Only with privilege (root, or CAP_SYS_NICE); the kernel's real-time
 * throttling still leaves the rest of the machine 5% of every second, and the threads given
 * this pace themselves (the scans keep a CPU budget).
 */
public final class Sched {
    interface Calls extends Library {
        Calls INSTANCE = Jna.libc(Calls.class);

        int sched_setscheduler(int pid, int policy, int[] param) throws LastErrorException;

        int setpriority(int which, int who, int prio) throws LastErrorException;

        int sched_getscheduler(int pid) throws LastErrorException;
    }

    /** A raise held by the calling thread until closed. */
    public interface Raised extends AutoCloseable {
        /** What the thread got ("SCHED_RR 1", "nice -20", "" when neither; "already" when it was raised before). */
        String words();

        /** Whether this raise changed the thread's scheduling (and so puts it back when closed). */
        boolean changed();

        @Override
        void close();
    }

    private static final int SCHED_OTHER = 0;
    private static final int SCHED_RR = 2;
    /** Threads and processes started by a thread given SCHED_RR start with the ordinary policy. */
    private static final int SCHED_RESET_ON_FORK = 0x40000000;
    private static final int PRIO_PROCESS = 0;
    /** The lowest real-time priority: above every ordinary task, below the kernel's own real-time threads. */
    private static final int RR_PRIORITY = 1;
    /**
     * The window's drawing path, one above: at RR 1 beside the console's scanning threads the
     * JavaFX thread sat runnable in GTK's loop for 764 ms at 20,000 pressing tasks (bench ui).
     */
    private static final int DISPLAY_PRIORITY = 2;

    /** Off with {@code -Drunaway.realtime=false}. */
    private static final boolean ENABLED = !"false".equals(System.getProperty("runaway.realtime"));

    private Sched() {
    }

    /**
     * Puts the calling thread ahead of ordinary tasks: SCHED_RR at priority 1, or failing that
     * nice -20 (both apply to the calling thread alone on Linux). Returns what it got, in words
     * ("SCHED_RR 1", "nice -20"), or "" when neither was allowed.
     */
    public static String aheadOfOrdinaryTasks() {
        return aheadOfOrdinaryTasks(0, RR_PRIORITY);
    }

    /** As {@link #aheadOfOrdinaryTasks()} for thread {@code tid} (0: the calling thread), at a real-time priority. */
    private static String aheadOfOrdinaryTasks(int tid, int priority) {
        if (!ENABLED) return "";
        try {
            Calls.INSTANCE.sched_setscheduler(tid, SCHED_RR | SCHED_RESET_ON_FORK, new int[] {priority});
            return "SCHED_RR " + priority;
        } catch (LastErrorException | UnsatisfiedLinkError notAllowed) {
            // not privileged: try the strongest nice
        }
        return nice20(tid);
    }

    private static String nice20(int tid) {
        try {
            Calls.INSTANCE.setpriority(PRIO_PROCESS, tid, -20);
            return "nice -20";
        } catch (LastErrorException | UnsatisfiedLinkError notAllowed) {
            return "";
        }
    }

    /**
     * The calling thread at nice -20 and the ordinary policy: a large share beside thousands of
     * ordinary tasks, never ahead of all of them. For a thread whose work anyone can cause (a
     * door's accepting thread): its CPU stays a weighted share, a real-time one would run first.
     * Returns "nice -20", or "" when not allowed.
     */
    public static String favoured() {
        return ENABLED ? nice20(0) : "";
    }

    /**
     * {@link #aheadOfOrdinaryTasks} for a block of work on a thread that is not only for it (a
     * pool's, a bench's), put back to the ordinary policy and nice 0 when closed. A thread that
     * was already raised (started under chrt, say) is left as it is.
     */
    public static Raised raisedWhile() {
        return raisedWhile(0);
    }

    /**
     * As {@link #raisedWhile()} for another thread of this process, by its id (a toolkit's
     * thread that this code does not run on, such as JavaFX's renderer); 0 is the calling thread.
     */
    public static Raised raisedWhile(int tid) {
        return raisedWhile(tid, RR_PRIORITY);
    }

    /**
     * As {@link #raisedWhile(int)} one real-time priority above the rest
     * ({@link #DISPLAY_PRIORITY}): for what the window's frames wait on (its toolkit's threads
     * and its X server), so that the console's own real-time scanning cannot hold them up.
     */
    public static Raised raisedForDisplay(int tid) {
        return raisedWhile(tid, DISPLAY_PRIORITY);
    }

    private static Raised raisedWhile(int tid, int priority) {
        int policy;
        try {
            policy = ENABLED ? Calls.INSTANCE.sched_getscheduler(tid) & ~SCHED_RESET_ON_FORK : -1;
        } catch (LastErrorException | UnsatisfiedLinkError unknown) {
            policy = -1;
        }
        if (policy != SCHED_OTHER) {
            String words = policy < 0 ? "" : "already";
            return new Raised() {
                public String words() {
                    return words;
                }

                public boolean changed() {
                    return false;
                }

                public void close() {
                }
            };
        }
        String got = aheadOfOrdinaryTasks(tid, priority);
        return new Raised() {
            public String words() {
                return got;
            }

            public boolean changed() {
                return !got.isEmpty();
            }

            public void close() {
                try {
                    if (got.startsWith("SCHED_RR")) Calls.INSTANCE.sched_setscheduler(tid, SCHED_OTHER, new int[] {0});
                    else if (!got.isEmpty()) Calls.INSTANCE.setpriority(PRIO_PROCESS, tid, 0);
                } catch (LastErrorException | UnsatisfiedLinkError left) {
                    // lowering a thread's priority is always allowed; nothing to do if it was not (or it is gone)
                }
            }
        };
    }

    /** The calling thread's id (where /proc/thread-self points), -1 when unknown. */
    public static int currentTid() {
        try {
            return Integer.parseInt(java.nio.file.Path.of("/proc/thread-self").toRealPath().getFileName().toString());
        } catch (java.io.IOException | RuntimeException unknown) {
            return -1;
        }
    }

    /** Thread {@code tid} of this process (0: the calling one) back at the ordinary policy and nice 0; lowering is always allowed. */
    static void ordinaryAgain(int tid) {
        try {
            Calls.INSTANCE.sched_setscheduler(tid, SCHED_OTHER, new int[] {0});
            Calls.INSTANCE.setpriority(PRIO_PROCESS, tid, 0);
        } catch (LastErrorException | UnsatisfiedLinkError gone) {
            // the thread ended meanwhile
        }
    }

    /**
     * Whether thread {@code tid} runs real-time by inheritance: SCHED_RR without the reset-on-fork
     * flag that every raise of this class sets ({@link #aheadOfOrdinaryTasks}), so started under a
     * real-time launcher (runaway-rt) or by a thread {@link #raisedWithChildren}.
     */
    static boolean inheritedRealtime(int tid) {
        if (!ENABLED) return false;
        try {
            return Calls.INSTANCE.sched_getscheduler(tid) == SCHED_RR;
        } catch (LastErrorException | UnsatisfiedLinkError unknown) {
            return false;
        }
    }

    /** Whether thread {@code tid} of this process (0: the calling one) runs at the ordinary policy; false when unknown. */
    public static boolean ordinary(int tid) {
        if (!ENABLED) return false;
        try {
            return (Calls.INSTANCE.sched_getscheduler(tid) & ~SCHED_RESET_ON_FORK) == SCHED_OTHER;
        } catch (LastErrorException | UnsatisfiedLinkError unknown) {
            return false;
        }
    }

    /**
     * SCHED_RR 1 for the calling thread and, unlike {@link #raisedWhile}, for the processes it
     * starts meanwhile (no SCHED_RESET_ON_FORK): a bench spawning a command as a real-time shell
     * would, or a thread whose work starts threads (a thread started at the ordinary policy during
     * a fire holds its starter up until it has run). Back to the policy it had when closed (the
     * ordinary one, or a raise that an {@link AllThreadsRaise} holds); "" when not allowed
     * (nothing changed).
     */
    public static Raised raisedWithChildren() {
        String got = "";
        int before = SCHED_OTHER;
        if (ENABLED) {
            try {
                before = Calls.INSTANCE.sched_getscheduler(0);
            } catch (LastErrorException | UnsatisfiedLinkError unknown) {
                before = SCHED_OTHER;
            }
            try {
                Calls.INSTANCE.sched_setscheduler(0, SCHED_RR, new int[] {RR_PRIORITY});
                got = "SCHED_RR " + RR_PRIORITY;
            } catch (LastErrorException | UnsatisfiedLinkError notAllowed) {
                // an ordinary user: the children start as ordinary tasks
            }
        }
        String words = got;
        int policyBefore = before;
        return new Raised() {
            public String words() {
                return words;
            }

            public boolean changed() {
                return !words.isEmpty();
            }

            public void close() {
                if (words.isEmpty()) return;
                boolean wasRaised = (policyBefore & ~SCHED_RESET_ON_FORK) == SCHED_RR;
                try {
                    Calls.INSTANCE.sched_setscheduler(0, wasRaised ? policyBefore : SCHED_OTHER, new int[] {wasRaised ? RR_PRIORITY : 0});
                } catch (LastErrorException | UnsatisfiedLinkError left) {
                    // lowering one's own priority is always allowed
                }
            }
        };
    }
}
