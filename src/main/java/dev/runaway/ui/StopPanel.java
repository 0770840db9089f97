// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import dev.runaway.view.ConsoleRow;
import dev.runaway.view.StopOffer;
import dev.runaway.model.ProcessSample;
import dev.runaway.stop.run.StopEngine;
import dev.runaway.stop.StopSession;
import javafx.application.Platform;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.TextArea;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

import java.util.Locale;

/**
 * The guided stop, shown over the window: the plan in words (targets, the lever for each step
 * and why the others do not apply), one confirmation, then the steps as they run with their
 * counts, then "zero confirmed" (or the survivors) and what was restored. The work runs on a
 * thread of its own through {@link GuidedStop}; this class only shows it.
 */
final class StopPanel {
    final VBox card = new VBox(8);
    final Label title = new Label();
    final Label state = new Label();
    final TextArea plan = new TextArea();
    final ListView<String> steps = new ListView<>();
    final Button confirm = new Button();
    final Button close = new Button("Close");
    final Button again = new Button("Stop again");
    final Button report = new Button("Open report");
    private final GuidedStop stop;
    private final Runnable onClose;
    private ConsoleRow row;
    /** What the panel offers now (Close at every phase; see {@link StopOffer}). */
    private StopOffer offer = StopOffer.of(StopOffer.Phase.PLANNING, 0);
    private StopSession planned;
    private volatile boolean running;
    /**
     * From STOP until the stop ends or the panel closes: the toolkit's threads (this JavaFX
     * thread, and its renderer, which this thread waits for at every frame) raised ahead of
     * ordinary tasks; and while a plan waits for its confirmation, the thread that will run the
     * stop already started and raised, waiting for it. During a fire an ordinary thread waits
     * seconds for a CPU: Enter is handled on this thread, and a thread started at Enter would
     * wait its turn before it could raise itself.
     */
    private ToolkitThreads.Raised fxRaised;
    private java.util.concurrent.CompletableFuture<StopSession> confirmed;

    private final dev.runaway.view.FirstContact firstContact;
    private final java.util.function.Consumer<Boolean> onHold;

    /**
     * @param onReport     opens the incident's report (after a stop)
     * @param firstContact told the stop's phases (a bench's marks; {@link dev.runaway.view.FirstContact#NONE} otherwise)
     * @param onHold       told, on the JavaFX thread, whether the window is to hold still ({@link StopOffer#holdsWindow})
     */
    StopPanel(GuidedStop stop, Runnable onClose, Runnable onReport, dev.runaway.view.FirstContact firstContact,
              java.util.function.Consumer<Boolean> onHold) {
        this.onHold = onHold;
        this.stop = stop;
        this.firstContact = firstContact;
        this.onClose = onClose;
        card.getStyleClass().add("stop-panel");
        card.setPadding(new Insets(14));
        card.setMaxWidth(880);
        card.setMaxHeight(620);
        title.getStyleClass().add("stop-title");
        title.setWrapText(true);
        state.getStyleClass().add("stop-state");
        state.setWrapText(true);
        plan.setEditable(false);
        plan.setWrapText(true);
        plan.getStyleClass().add("stop-plan");
        VBox.setVgrow(plan, Priority.ALWAYS);
        steps.setPrefHeight(150);
        // A step's line wraps within the list: its count and lever are never behind a scroll bar.
        steps.setCellFactory(v -> new javafx.scene.control.ListCell<>() {
            {
                setWrapText(true);
                setPrefWidth(0);
            }

            @Override
            protected void updateItem(String item, boolean empty) {
                super.updateItem(item, empty);
                setText(empty ? null : item);
            }
        });
        steps.getStyleClass().add("stop-steps");
        confirm.getStyleClass().add("stop-confirm");
        confirm.setDisable(true);
        confirm.setOnAction(e -> run());
        close.setCancelButton(true);
        close.setOnAction(e -> {
            if (running) return;
            standDown();
            onClose.run();
        });
        again.setOnAction(e -> {
            if (row != null && !running) open(row);
        });
        report.setOnAction(e -> onReport.run());
        Region gap = new Region();
        HBox.setHgrow(gap, Priority.ALWAYS);
        HBox buttons = new HBox(10, state, gap, report, again, close, confirm);
        HBox.setHgrow(state, Priority.ALWAYS);
        // The buttons keep their words at every state: a long outcome wraps, it never squeezes
        // Close to "…" (issue 38: Esc was the only other way out).
        state.setMinWidth(0);
        for (Button b : new Button[] {close, confirm, again, report}) b.setMinWidth(Region.USE_PREF_SIZE);
        buttons.setAlignment(Pos.CENTER_RIGHT);
        card.getChildren().addAll(title, plan, steps, buttons);
    }

    /** Shows the plan for this row (read on a worker thread; the helper may be started meanwhile). */
    void open(ConsoleRow row) {
        standDown();
        fxRaised = ToolkitThreads.raised(); // the plan is shown, and Enter taken, by these threads
        planned = null;
        this.row = row;
        title.setText("Guided stop: " + row.stopLabel());
        plan.setText("Reading the targets...");
        steps.getItems().clear();
        state.setText("");
        state.getStyleClass().removeAll("stop-zero", "stop-survivors");
        confirm.setDefaultButton(false);
        offer(StopOffer.of(StopOffer.Phase.PLANNING, 0));
        worker("runaway-stop-plan", () -> {
            StopSession p;
            try {
                p = stop.plan(row);
            } catch (RuntimeException e) {
                p = StopSession.refused(null, StopSession.Reason.NOT_A_TARGET, "the plan could not be made: " + e.getMessage());
            }
            StopSession ready = p;
            Platform.runLater(() -> showPlan(ready));
        });
    }

    private void showPlan(StopSession p) {
        planned = p;
        if (p.state() != StopSession.State.READY) {
            plan.setText("Refused: " + p.refusal().map(StopSession.Refusal::words).orElse("nothing to stop"));
            state.setText("Nothing was done.");
            offer(StopOffer.of(StopOffer.Phase.REFUSED, 0));
            return;
        }
        StringBuilder text = new StringBuilder(String.join("\n", p.plan().describe()));
        if (!p.helperNote().isEmpty()) text.append("\nHelper: ").append(p.helperNote());
        if (dev.runaway.stop.StopCore.mayStopGrowthFirst(p)) text.append("\n").append(dev.runaway.stop.StopCore.FIRST_ON_ENTER);
        plan.setText(text.toString());
        standBy();
        offer(StopOffer.of(StopOffer.Phase.READY, p.plan().members().size()));
        confirm.setDefaultButton(true); // Enter confirms, once the plan is on screen
        confirm.requestFocus();
        state.setText("Read the plan, then confirm once (Enter), or Cancel (Esc).");
    }

    private void run() {
        if (planned == null || planned.state() != StopSession.State.READY || running) return;
        running = true;
        confirm.setDefaultButton(false);
        // The focus stays on the panel: hiding the focused button would hand it to the table behind,
        // whose whole redraw (its focused selection) then ran beside the kill.
        steps.requestFocus();
        offer(StopOffer.of(StopOffer.Phase.RUNNING, 0));
        state.setText("Running: stop growth, kill the fixed set, confirm zero, restore...");
        StopSession p = planned;
        if (confirmed != null && confirmed.complete(p)) return; // the raised thread waiting for it runs it
        worker("runaway-stop-run", () -> execute(p));
    }

    /** Starts the thread that will run the stop, raised, and raises this thread until the stop ends or the panel closes. */
    private void standBy() {
        if (fxRaised == null) fxRaised = ToolkitThreads.raised();
        java.util.concurrent.CompletableFuture<StopSession> next = new java.util.concurrent.CompletableFuture<>();
        confirmed = next;
        worker("runaway-stop-run", () -> {
            try (var raised = dev.runaway.sys.Sched.raisedWhile()) {
                StopSession p = next.join();
                if (p != null) execute(p);
            }
        });
    }

    /** Lowers this thread again; the waiting thread, if nothing was confirmed, ends. */
    private void standDown() {
        if (confirmed != null) confirmed.complete(null);
        confirmed = null;
        if (fxRaised != null) fxRaised.close();
        fxRaised = null;
    }

    private void execute(StopSession p) {
        GuidedStop.Ran outcome;
        try {
            outcome = stop.run(p, false, step -> Platform.runLater(() -> {
                steps.getItems().add(step.toString());
                steps.scrollTo(steps.getItems().size() - 1);
                state.setText(step.step() + ": " + step.count() + " (" + step.lever() + ")");
            }));
        } catch (RuntimeException e) {
            String why = e.getMessage();
            Platform.runLater(() -> finish("The stop failed: " + why, false));
            return;
        }
        GuidedStop.Ran o = outcome;
        Platform.runLater(() -> finish(summary(o), o.outcome().zeroConfirmed()));
    }

    private void finish(String text, boolean zero) {
        running = false;
        confirmed = null;
        if (fxRaised != null) fxRaised.close();
        fxRaised = null;
        state.setText(text);
        state.getStyleClass().removeAll("stop-zero", "stop-survivors");
        state.getStyleClass().add(zero ? "stop-zero" : "stop-survivors");
        offer(StopOffer.of(StopOffer.Phase.DONE, 0)); // no Stop button left to press, live or dead: Stop again plans afresh
        firstContact.stopEnded(zero, row == null ? "" : row.command());
    }

    /** Shows what the panel offers at this phase. */
    private void offer(StopOffer o) {
        offer = o;
        onHold.accept(o.holdsWindow());
        firstContact.stopPhase(o.phase(), row == null ? "" : row.command());
        close.setText(o.closeText());
        close.setDisable(!o.closeEnabled());
        confirm.setText(o.confirmText());
        confirm.setDisable(!o.confirmReady());
        shown(confirm, o.confirmShown());
        shown(again, o.again());
        shown(report, o.report());
    }

    private static void shown(Button b, boolean shown) {
        b.setVisible(shown);
        b.setManaged(shown);
    }

    StopOffer offer() {
        return offer;
    }

    static String summary(GuidedStop.Ran ran) {
        StopEngine.Outcome o = ran.outcome();
        StringBuilder b = new StringBuilder();
        if (o.zeroConfirmed()) {
            // The confirm-zero step's own time is longer: it watches that zero holds for the stable window.
            b.append(String.format(Locale.ROOT, "Zero confirmed: growth stopped %,d ms and zero %,d ms after you confirmed"
                    + " (the confirm-zero step then watched it hold for the %d s stable window).", ran.millisToGrowthStopped(),
                    ran.millisToZero(), StopEngine.STABLE_WINDOW.toSeconds()));
            ran.confirmed().frozenFirst().ifPresent(cgroup -> b.append(" Growth was stopped first through the cgroup ").append(cgroup)
                    .append(", which held only the group's processes: the plan shown could not check it in time."));
        } else if (o.status() == dev.runaway.stoporder.StopOutcome.Status.UNCONFIRMED) {
            b.append("Zero NOT confirmed: no target is alive, but ").append(o.unfollowed().size())
                    .append(" processes it may have started could not be followed (");
            int shown = 0;
            for (ProcessSample s : o.unfollowed()) {
                if (shown++ == 5) break;
                b.append(shown > 1 ? ", " : "").append("pid ").append(s.pid());
            }
            b.append(").");
        } else {
            b.append("Zero NOT reached: ").append(o.survivors().size()).append(" left (");
            int shown = 0;
            for (ProcessSample s : o.survivors()) {
                if (shown++ == 5) break;
                b.append(shown > 1 ? ", " : "").append("pid ").append(s.pid());
            }
            b.append(").");
        }
        o.restoredModes().forEach((file, mode) -> b.append(" Restored ").append(file).append(" to mode ")
                .append(Integer.toOctalString(mode)).append('.'));
        return b.toString();
    }

    boolean running() {
        return running;
    }

    /**
     * The plan's and the stop's threads, started with the panel, before any fire: a thread started
     * during one waits until it has run once at the ordinary policy, and the JavaFX thread that
     * starts it waits with it (seen at 20,000 pressing tasks: the plan shown 53 s after STOP, its
     * thread runnable all along). Each task runs raised, and passes its policy on to the threads
     * it starts (the stop's exe readers, ExeReads): started at the ordinary policy, each of those
     * starts held the plan up the same way (three trials at 20,000: 3.7 s, 22 s, over 5 min).
     */
    private final java.util.concurrent.ThreadPoolExecutor workers = prestarted();

    private static java.util.concurrent.ThreadPoolExecutor prestarted() {
        java.util.concurrent.ThreadPoolExecutor pool = new java.util.concurrent.ThreadPoolExecutor(3, 3, 0,
                java.util.concurrent.TimeUnit.SECONDS, new java.util.concurrent.LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(r, "runaway-stop-worker");
                    t.setDaemon(true);
                    return t;
                });
        pool.prestartAllCoreThreads();
        return pool;
    }

    private void worker(String name, Runnable r) {
        workers.execute(() -> {
            Thread.currentThread().setName(name);
            try (var raised = dev.runaway.sys.Sched.raisedWithChildren()) { // never spawns a process as root (no helper then)
                r.run();
            } finally {
                Thread.currentThread().setName("runaway-stop-worker");
            }
        });
    }

    /** Ends the panel's threads (the window closed). */
    void close() {
        standDown();
        workers.shutdownNow();
    }
}
