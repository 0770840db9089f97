// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import java.util.List;
import java.util.function.Consumer;

/**
 * An open console window as a caller outside the ui may use it, in plain Java: no JavaFX type
 * crosses this seam. It posts work to the JavaFX thread, tells each refresh, presses what a user
 * presses (STOP, Enter) and reads what the window shows. {@code runaway bench ui}'s probe
 * ({@code bench.UiProbe}) times the window through it, so the ui holds no bench code.
 *
 * <p>Methods that read or press wait for the JavaFX thread to do it (up to a minute), unless
 * they say otherwise; none may be called on the JavaFX thread.
 */
public interface WindowSeam extends AutoCloseable {
    /** Opens a console window for the session, starting the toolkit if needed (up to 60 s). */
    static WindowSeam open(ConsoleSession session) throws InterruptedException {
        return ConsoleWindowSeam.open(session);
    }

    /** Runs {@code task} on the JavaFX thread later ({@code Platform.runLater}); does not wait. */
    void runLater(Runnable task);

    /** Told on the JavaFX thread, each refresh, when the pulse shown arrived (System.nanoTime). */
    void onRender(Consumer<Long> arrivalNanos);

    /** Kernel thread ids of the toolkit's other threads (its renderer and dispatcher); empty when unknown. */
    List<Integer> toolkitThreads();

    /** Selects the group with the most tasks and opens it and its first chain, so the table holds their rows. */
    void expandBiggestGroup() throws InterruptedException;

    /**
     * Selects the group whose command key is {@code commandKey} and presses STOP; false when no
     * such group is shown or STOP is disabled for it.
     */
    boolean pressStop(String commandKey) throws InterruptedException;

    /** Whether the stop panel's plan is ready to be confirmed (its confirm button is enabled). */
    boolean planReady() throws InterruptedException;

    /** The stop panel's plan as shown; "" when no stop was opened. */
    String plan() throws InterruptedException;

    /**
     * Enter as the keyboard gives it, pressed then released, to what has the focus in the
     * stop's scene (the confirm button when nothing has); does not wait.
     */
    void pressEnter();

    /** The stop panel's state line ("Zero confirmed ...", say); "" when no stop was opened. */
    String stopState() throws InterruptedException;

    /** Rows the chains view has made (groups, and what expansion created). */
    int rowsMade() throws InterruptedException;

    /** The window's scene graph in words: its nodes, and the parents with the most children. */
    String sceneNodes() throws InterruptedException;

    /** Hides the window (the session is the caller's); does not wait. */
    @Override
    void close();
}
