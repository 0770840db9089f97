// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import dev.runaway.view.ConsoleRow;
import dev.runaway.view.RowOrder;
import dev.runaway.view.GuardHolds;
import dev.runaway.view.HeaderFigures;
import dev.runaway.analysis.GroupColumn;
import dev.runaway.analysis.ScanStatus;
import dev.runaway.analysis.Snapshot;
import dev.runaway.drill.Drill;
import dev.runaway.drill.Scenario;
import dev.runaway.model.ProcessIdentity;
import dev.runaway.model.Units;
import dev.runaway.timeline.GroupScan;
import dev.runaway.timeline.PulsePoint;
import javafx.application.Platform;
import javafx.geometry.Insets;
import javafx.geometry.Orientation;
import javafx.geometry.Pos;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.CheckMenuItem;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Label;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuBar;
import javafx.scene.control.MenuItem;
import javafx.scene.control.SeparatorMenuItem;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TextField;
import javafx.scene.control.TreeItem;
import javafx.scene.input.KeyCombination;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;
import javafx.stage.Stage;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The console's main window: the header strip of machine figures in large type, the chains view
 * with a filter and the one stop button, the incident charts with a time-window choice, and a
 * status line. Everything comes from a {@link ConsoleSession}; labels and the tree are refreshed
 * four times a second from the newest data (never one JavaFX task per sample).
 */
public final class ConsoleWindow {
    static final String LIGHT = ConsoleWindow.class.getResource("console.css").toExternalForm();
    static final String DARK = ConsoleWindow.class.getResource("console-dark.css").toExternalForm();

    final ConsoleSession session;
    final ChainTree tree = new ChainTree();
    final ChainTable table = new ChainTable(tree);
    final CgroupTable cgroupTable = new CgroupTable();
    final javafx.scene.control.TabPane lenses = new javafx.scene.control.TabPane();
    final TextField filter = new TextField();
    final Button stopButton = new Button("STOP…");
    final TimelineCharts charts;
    final ChoiceBox<TimeWindow> window = new ChoiceBox<>();
    final List<Label> figures = new ArrayList<>();
    final List<Label> captions = new ArrayList<>();
    final Label heldCaption = new Label();
    final Label heldFigure = new Label();
    private final VBox heldBox = new VBox(0);
    final Label banner = new Label();
    final Label status = new Label();
    final Label recording = new Label();
    private final HelperOfferBar helperOffer;
    final Label orderCue = new Label();
    final ConsoleHealth health = new ConsoleHealth();
    final StackPane overlay = new StackPane();
    final CheckMenuItem dark = new CheckMenuItem("Dark theme");
    StopPanel stopPanel;
    private ToolkitThreads.Raised overloadRaise; // held while the machine is overloaded (raiseWhileOverloaded)
    /** The rest of the console's threads, raised with the toolkit's while overloaded; swept for new ones. */
    private dev.runaway.sys.AllThreadsRaise overloadAll;
    /** The local X server's threads, raised with the window's while overloaded (null: none found, or not raised). */
    private dev.runaway.sys.AllThreadsRaise overloadDisplay;
    /** Where windows find their X server; tests give a stand-in before a window opens. */
    static final java.util.function.Supplier<java.util.Optional<ProcessIdentity>> LOCAL_X_SERVER =
            () -> DisplayServer.local(System.getenv("DISPLAY"));
    static volatile java.util.function.Supplier<java.util.Optional<ProcessIdentity>> displayServer = LOCAL_X_SERVER;
    private long overloadSweptNanos;
    private static final long OVERLOAD_SWEEP_NANOS = 500_000_000L;
    private MenuBar menuBar;
    private ChartFeed feed;
    private Ticker ticker;
    private Scene scene;
    private volatile PulsePoint latestPulse;
    private volatile long latestPulseArrival;
    private volatile GroupScan latestScan;
    private Snapshot shownSnapshot;
    private GroupScan shownScan;
    private String selectedKey;
    /** The table repaints once a second at most: in software rendering a full table costs ~100 ms to paint. */
    static final long TREE_PERIOD_NANOS = 1_000_000_000L;
    private long treeShownNanos;
    /** Makes the table's rows off the JavaFX thread; one batch at a time. */
    private final java.util.concurrent.ExecutorService preparer = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "runaway-console-rows");
        t.setDaemon(true);
        return t;
    });
    private boolean preparing;
    private final List<Consumer<Long>> renderListeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    public ConsoleWindow(ConsoleSession session) {
        this.session = session;
        this.charts = new TimelineCharts(() -> session.timeline().endSeconds());
        this.helperOffer = new HelperOfferBar(session);
    }

    /** Builds the scene graph and starts feeding it; call on the JavaFX thread. */
    public Parent build() {
        session.timeline().onPulse(p -> {
            latestPulse = p;
            latestPulseArrival = System.nanoTime();
            health.pulse(latestPulseArrival);
        });
        session.timeline().onScan(s -> latestScan = s);
        latestScan = session.lastScan();
        List<PulsePoint> pulses = session.timeline().pulses();
        if (!pulses.isEmpty()) latestPulse = pulses.get(pulses.size() - 1);

        VBox top = new VBox(menu(), banner(), helperOffer.node, header());
        BorderPane main = new BorderPane(center(), top, null, statusLine(), null);
        overlay.getChildren().add(main);
        if (session.guidedStop().isPresent()) {
            stopPanel = new StopPanel(session.guidedStop().get(), this::closeStop);
            StackPane backdrop = new StackPane(stopPanel.card);
            backdrop.getStyleClass().add("backdrop");
            backdrop.setVisible(false);
            overlay.getChildren().add(backdrop);
        }
        overlay.getStyleClass().add("console");
        feed = new ChartFeed(session.timeline(), charts).start();
        ticker = Ticker.every(250, () -> {
            refresh();
            charts.follow();
        });
        return overlay;
    }

    private MenuBar menu() {
        Menu file = new Menu("_File");
        MenuItem open = new MenuItem("Open recorded incident…");
        open.setAccelerator(KeyCombination.keyCombination("Shortcut+O"));
        open.setOnAction(e -> openRecording());
        MenuItem quit = new MenuItem("Quit");
        quit.setAccelerator(KeyCombination.keyCombination("Shortcut+Q"));
        quit.setOnAction(e -> overlay.getScene().getWindow().hide());
        MenuItem export = new MenuItem("Export the incident…");
        export.setAccelerator(KeyCombination.keyCombination("Shortcut+E"));
        export.setOnAction(e -> chooseExport(false));
        MenuItem exportShown = new MenuItem("Export the time shown…");
        exportShown.setAccelerator(KeyCombination.keyCombination("Shortcut+Shift+E"));
        exportShown.setOnAction(e -> chooseExport(true));
        MenuItem snapshot = new MenuItem("Save the charts as shown (PNG)…");
        snapshot.setAccelerator(KeyCombination.keyCombination("Shortcut+Shift+S"));
        snapshot.setOnAction(e -> chooseSnapshot());
        file.getItems().addAll(open, export, exportShown, snapshot, new SeparatorMenuItem(), quit);

        Menu drill = new Menu("_Drill");
        for (Scenario s : Scenario.values()) {
            MenuItem start = new MenuItem("Start drill: " + s.key() + " (" + s.description() + ")");
            start.setOnAction(e -> startDrill(s));
            start.setDisable(!session.isLive());
            drill.getItems().add(start);
        }
        MenuItem tearDown = new MenuItem("Tear the drill down");
        tearDown.setOnAction(e -> background("runaway-drill-teardown", () -> {
            session.stopDrill().ifPresent(r -> Platform.runLater(() -> status.setText("Drill torn down: " + r.summary())));
            Platform.runLater(this::showBanner);
        }));
        drill.getItems().addAll(new SeparatorMenuItem(), tearDown);

        Menu view = new Menu("_View");
        dark.setAccelerator(KeyCombination.keyCombination("Shortcut+T"));
        dark.setOnAction(e -> {
            theme(dark.isSelected());
            rememberTheme(dark.isSelected());
        });
        MenuItem find = new MenuItem("Filter groups");
        find.setAccelerator(KeyCombination.keyCombination("Shortcut+F"));
        find.setOnAction(e -> filter.requestFocus());
        MenuItem byTasks = new MenuItem("Sort by tasks");
        byTasks.setOnAction(e -> table.sortBy(GroupColumn.TASKS));
        MenuItem byGrowth = new MenuItem("Sort by growth");
        byGrowth.setOnAction(e -> table.sortBy(GroupColumn.RATE));
        MenuItem severity = new MenuItem("Most severe first");
        severity.setOnAction(e -> table.view.getSortOrder().clear());
        MenuItem commandLens = new MenuItem("By command");
        commandLens.setAccelerator(KeyCombination.keyCombination("Shortcut+1"));
        commandLens.setOnAction(e -> lenses.getSelectionModel().select(0));
        MenuItem cgroupLens = new MenuItem("By cgroup");
        cgroupLens.setAccelerator(KeyCombination.keyCombination("Shortcut+2"));
        cgroupLens.setOnAction(e -> lenses.getSelectionModel().select(1));
        view.getItems().addAll(dark, find, byTasks, byGrowth, severity, new SeparatorMenuItem(), commandLens, cgroupLens);

        Menu act = new Menu("_Stop");
        MenuItem stopItem = new MenuItem("Guided stop of the selection…");
        stopItem.setAccelerator(KeyCombination.keyCombination("Shortcut+K"));
        stopItem.setOnAction(e -> openStop());
        stopItem.disableProperty().bind(stopButton.disableProperty());
        act.getItems().add(stopItem);
        menuBar = new MenuBar(file, drill, view, act);
        return menuBar;
    }

    private Label banner() {
        banner.getStyleClass().add("banner");
        banner.setMaxWidth(Double.MAX_VALUE);
        banner.setWrapText(true); // a narrow window wraps the drill's description: never cut to "…"
        banner.setMinHeight(Region.USE_PREF_SIZE);
        showBanner();
        return banner;
    }

    /** DRILL when a drill runs, REPLAY for a recording; nothing on a plain live console. */
    void showBanner() {
        banner.getStyleClass().removeAll("banner-drill", "banner-replay");
        if (session.drill().isPresent()) {
            Drill d = session.drill().get();
            banner.setText("DRILL  " + d.info().id() + "  ·  a contained practice incident (cap " + d.info().maxTasks()
                    + " tasks): " + d.info().scenario().description());
            banner.getStyleClass().add("banner-drill");
        } else if (session.replayed().isPresent()) {
            banner.setText("REPLAY  " + session.timeline().source() + "  ·  recorded " + session.timeline().started()
                    + "  ·  nothing here can be stopped");
            banner.getStyleClass().add("banner-replay");
        }
        banner.setVisible(!banner.getStyleClass().stream().noneMatch(c -> c.startsWith("banner-")));
        banner.setManaged(banner.isVisible());
    }

    private HBox header() {
        HBox strip = new HBox(22);
        strip.getStyleClass().add("header");
        strip.setMinWidth(0); // on a narrow window the last figures go past the edge, the first stay put
        strip.setPadding(new Insets(8, 14, 8, 14));
        // First, and only while the guard holds something: "1 HELD by the guard".
        heldBox.getChildren().addAll(heldCaption, heldFigure);
        figureStyle(heldCaption, heldFigure);
        heldBox.setVisible(false);
        heldBox.setManaged(false);
        strip.getChildren().add(heldBox);
        for (String caption : HeaderFigures.CAPTIONS) {
            Label small = new Label(caption);
            Label big = new Label("-");
            figureStyle(small, big);
            figures.add(big);
            captions.add(small);
            strip.getChildren().add(new VBox(0, small, big));
        }
        return strip;
    }

    private static void figureStyle(Label caption, Label figure) {
        caption.getStyleClass().add("caption");
        figure.getStyleClass().add("figure");
        figure.setMinWidth(Region.USE_PREF_SIZE); // a figure is never cut to "3..."
        caption.setMinWidth(Region.USE_PREF_SIZE);
    }

    private static void show(HeaderFigures.Figure f, Label caption, Label figure) {
        figure.setText(f.text());
        caption.setText(f.caption());
        figure.getStyleClass().removeAll("severity-calm", "severity-watch", "severity-critical");
        figure.getStyleClass().add(f.severity().styleClass());
    }

    private SplitPane center() {
        filter.setPromptText("filter: command or pid (Ctrl+F)");
        filter.textProperty().addListener((o, was, is) -> {
            tree.filter(is);
            table.view.setPlaceholder(new Label(is.isBlank() ? "Waiting for the first scan..." : "No row matches \"" + is.strip() + "\""));
            table.view.sort();
            restoreSelection();
        });
        HBox.setHgrow(filter, Priority.ALWAYS);
        stopButton.getStyleClass().add("stop-button");
        stopButton.setDisable(true);
        stopButton.setOnAction(e -> openStop());
        stopButton.setMinWidth(Region.USE_PREF_SIZE);
        stopButton.setTooltip(new javafx.scene.control.Tooltip(session.isLive()
                ? "The guided stop of the selected group, chain or process (Ctrl+K): the plan first, then one confirmation"
                : "A recording: nothing here can be stopped"));
        HBox tools = new HBox(10, filter, stopButton);
        tools.setAlignment(Pos.CENTER_LEFT);
        tools.setPadding(new Insets(6));
        orderCue.getStyleClass().add("caption");
        orderCue.setPadding(new Insets(0, 6, 2, 6));
        table.view.getSelectionModel().selectedItemProperty().addListener((o, was, is) -> {
            // Rows placed anew move the selection by index onto another group: not a choice;
            // restoreSelection puts it back on its row.
            if (placingRows) return;
            if (is != null && is.getValue() != null) {
                selectedKey = is.getValue().key();
                feed.select(is.getValue().command());
                // its memory measured (cgroup or PSS) while it is shown, and recorded so
                session.live().ifPresent(l -> l.watch(java.util.Set.of(is.getValue().command())));
            }
            stopButton.setDisable(is == null || !session.isLive());
        });
        javafx.scene.control.Tab byCommand = new javafx.scene.control.Tab("By command", table.view);
        javafx.scene.control.Tab byCgroup = new javafx.scene.control.Tab("By cgroup", cgroupTable.view);
        byCgroup.setTooltip(new javafx.scene.control.Tooltip(
                "The machine by cgroup: a runaway of copied or renamed binaries is many small command groups but one cgroup"));
        lenses.getTabs().addAll(byCommand, byCgroup);
        lenses.setTabClosingPolicy(javafx.scene.control.TabPane.TabClosingPolicy.UNAVAILABLE);
        VBox left = new VBox(tools, orderCue, lenses);
        VBox.setVgrow(lenses, Priority.ALWAYS);

        window.getItems().addAll(TimeWindow.values());
        window.setValue(TimeWindow.TEN_MINUTES);
        window.valueProperty().addListener((o, was, is) -> charts.window(is));
        Label windowLabel = new Label("time window");
        Label zoomHint = new Label("drag or wheel to zoom, middle button to pan");
        zoomHint.getStyleClass().add("caption");
        HBox chartTools = new HBox(8, windowLabel, window, zoomHint);
        chartTools.setAlignment(Pos.CENTER_LEFT);
        chartTools.setPadding(new Insets(6));
        VBox right = new VBox(chartTools, charts.node());
        VBox.setVgrow(charts.node(), Priority.ALWAYS);

        SplitPane split = new SplitPane(left, right);
        split.setOrientation(Orientation.HORIZONTAL);
        split.setDividerPositions(0.58);
        return split;
    }

    private HBox statusLine() {
        status.setMaxWidth(Double.MAX_VALUE);
        HBox.setHgrow(status, Priority.ALWAYS);
        HBox line = new HBox(16, status, recording);
        line.getStyleClass().add("status");
        line.setPadding(new Insets(4, 10, 4, 10));
        return line;
    }

    /** On the JavaFX thread, four times a second: figures, tree, status from the newest data. */
    void refresh() {
        if (preparer.isShutdown()) return; // closed: a tick queued before the close
        PulsePoint pulse = latestPulse;
        GroupScan scan = latestScan;
        HeaderFigures header = HeaderFigures.of(pulse, scan == null || scan.groups().isEmpty() ? null : scan.groups().get(0),
                session.isLive() ? GuardHolds.all() : List.of());
        for (int i = 0; i < figures.size(); i++) show(header.figures().get(i), captions.get(i), figures.get(i));
        header.held().ifPresent(f -> show(f, heldCaption, heldFigure));
        heldBox.setVisible(header.held().isPresent());
        heldBox.setManaged(header.held().isPresent());
        String drillId = session.drill().map(d -> d.info().id()).orElse("");
        if (!drillId.equals(shownDrill)) {
            shownDrill = drillId;
            showBanner();
            if (overlay.getScene() != null && overlay.getScene().getWindow() instanceof Stage stage) stage.setTitle(title(session));
        }
        Snapshot snapshot = session.latest();
        long now = System.nanoTime();
        boolean treeDue = now - treeShownNanos >= TREE_PERIOD_NANOS;
        if (session.isLive() && snapshot != null && snapshot != shownSnapshot && treeDue && !preparing) {
            treeShownNanos = now;
            shownSnapshot = snapshot;
            health.scan(snapshot.scanNanos());
            preparing = true;
            String filterText = tree.filterText();
            preparer.execute(() -> {
                ChainTree.Prepared rows = tree.prepare(snapshot.groups(), filterText);
                Platform.runLater(() -> {
                    preparing = false;
                    boolean selectedInView = selectedInView();
                    placingRows = true;
                    try {
                        tree.show(rows);
                    } finally {
                        placingRows = false;
                    }
                    cgroupTable.show(snapshot.cgroups());
                    afterTreeChange();
                    keepInView(selectedInView);
                });
            });
        } else if (!session.isLive() && scan != null && scan != shownScan) {
            shownScan = scan;
            placingRows = true;
            try {
                tree.showRecorded(scan.groups());
            } finally {
                placingRows = false;
            }
            cgroupTable.show(scan.cgroups()); // empty for recordings made before the lens was kept
            afterTreeChange();
        }
        status.setText(exportStatus.isEmpty() ? statusText() : exportStatus + "  ·  " + statusText());
        recording.setText(recordingText());
        helperOffer.refresh();
        if (pulse != null) {
            long arrival = latestPulseArrival;
            for (Consumer<Long> l : renderListeners) l.accept(arrival);
        }
    }

    private void afterTreeChange() {
        RowOrder.Shown placed = tree.lastShown();
        // A column sort re-sorts only when the rows may move, like the severity order.
        if (!table.view.getSortOrder().isEmpty() && !tree.order.held(System.nanoTime())) table.view.sort();
        orderCue.setText(placed.pending() ? "order held while you point or type: rows re-sort when you leave the table" : "");
        if (placed.moved()) cueMoved();
        restoreSelection();
        selectRunawayOnce();
    }

    /** The selected row is among those the table shows (its virtual flow's visible cells). */
    private boolean selectedInView() {
        int row = table.view.getSelectionModel().getSelectedIndex();
        if (row < 0 || !(table.view.lookup(".virtual-flow") instanceof javafx.scene.control.skin.VirtualFlow<?> flow)) return false;
        var first = flow.getFirstVisibleCell();
        var last = flow.getLastVisibleCell();
        return first != null && last != null && row >= first.getIndex() && row <= last.getIndex();
    }

    /**
     * A re-sort (only when the pointer is away) moves the selected row, the one the charts follow:
     * if it was in view before, it stays in view, near the top (the drill the console opened on
     * leaves the bottom where the held order had put it).
     */
    private void keepInView(boolean wasInView) {
        if (!wasInView || !tree.lastShown().moved() || selectedInView()) return;
        int row = table.view.getSelectionModel().getSelectedIndex();
        if (row >= 0) table.view.scrollTo(Math.max(0, row - 2));
    }

    /** The rows just re-sorted: the table's frame flashes once, so a move is never silent. */
    private void cueMoved() {
        table.view.getStyleClass().add("reordered");
        orderCue.setText("re-sorted: most severe first");
        javafx.animation.PauseTransition end = new javafx.animation.PauseTransition(javafx.util.Duration.millis(900));
        end.setOnFinished(e -> {
            table.view.getStyleClass().remove("reordered");
            if (orderCue.getText().startsWith("re-sorted")) orderCue.setText("");
        });
        end.play();
    }

    /** Selection follows the row's identity (command key, chain top, pid in chain) while rows churn. */
    private void restoreSelection() {
        TreeItem<ConsoleRow> selected = table.view.getSelectionModel().getSelectedItem();
        if (selectedKey == null || (selected != null && selected.getValue() != null && selected.getValue().key().equals(selectedKey)
                && table.view.getRow(selected) >= 0)) return;
        TreeItem<ConsoleRow> item = tree.find(selectedKey);
        if (item != null) table.view.getSelectionModel().select(item);
    }

    /** The drill id ("" for none) the window last opened on its runaway for; null before the first. */
    private String openedOn;
    /** True while a scan's rows are placed: selection changes then are JavaFX's, not the person's. */
    private boolean placingRows;
    /** The row key selected by {@link #selectRunawayOnce}, while it is the selection. */
    private String openedKey;
    /** The last export's outcome, kept on the status line. */
    volatile String exportStatus = "";
    private String shownDrill = "";

    /**
     * The window opens on the runaway ({@link dev.runaway.view.Opening}): on a drill its group (the
     * one with most of the sandbox's processes), else the first row when it is critical; selected
     * once, its chains expanded, scrolled to the top; the charts follow the selection.
     */
    private void selectRunawayOnce() {
        // A selection of the person's own is kept; one made here gives way to the drill's group
        // (a drill's sandbox shows a scan or two after the window opened on another critical row).
        if ((selectedKey != null && !selectedKey.equals(openedKey)) || shownSnapshot == null) return;
        String drillId = session.drill().map(d -> d.info().id()).orElse("");
        if (openedOn != null && openedOn.equals(drillId)) return;
        String drillGroup = session.drill().map(this::drillGroupKey).orElse(null);
        if (session.drill().isPresent() && drillGroup == null) return;
        List<ConsoleRow> shown = new java.util.ArrayList<>();
        for (TreeItem<ConsoleRow> g : tree.root().getChildren()) shown.add(g.getValue());
        String key = dev.runaway.view.Opening.rowToOpenOn(shown, drillGroup);
        TreeItem<ConsoleRow> item = tree.find(key);
        if (item == null) return;
        TreeItem<ConsoleRow> before = tree.find(openedKey);
        if (before != null && before != item) before.setExpanded(false);
        openedOn = drillId;
        openedKey = key;
        item.setExpanded(true);
        table.view.getSelectionModel().select(item);
        table.view.scrollTo(Math.max(0, table.view.getRow(item) - 2));
    }

    private String drillGroupKey(Drill d) {
        java.util.Set<Integer> members = new java.util.HashSet<>(d.sandbox().memberPids());
        String best = null;
        long bestCount = 0;
        for (dev.runaway.analysis.Group g : shownSnapshot.groups()) {
            long n = g.pids().stream().filter(members::contains).count();
            if (n > bestCount) {
                bestCount = n;
                best = g.command();
            }
        }
        return best == null ? null : "g:" + best;
    }

    private String statusText() {
        StringBuilder b = new StringBuilder();
        if (session.isLive()) {
            b.append(health.text());
            session.live().map(l -> l.scanStatus()).ifPresent(s -> {
                raiseWhileOverloaded(s);
                if (s.worthSaying()) b.append(s.late() ? " · SCAN LATE: " : " · ").append(s.describe());
                String display = displayRaise();
                if (!display.isEmpty()) b.append(" · X server raised with the window (").append(display).append(")");
            });
            b.append(session.helperStatus().map(h -> " · " + h).orElse(""));
        } else {
            b.append("replay of ").append(session.timeline().source()).append(" · ")
                    .append(Units.seconds(session.timeline().endSeconds())).append(" recorded · ")
                    .append(session.timeline().events().size()).append(" events");
        }
        return b.toString();
    }

    /**
     * While the machine is overloaded the window's threads are raised as for a stop (real-time
     * as root): at 20,000 tasks pressing on a cap an ordinary JavaFX thread waited up to 669 ms
     * between frames (bench ui), and STOP itself reaches the window through those threads. So is
     * the local X server, whose replies the JavaFX thread waits for (see {@link DisplayServer}).
     */
    private void raiseWhileOverloaded(ScanStatus s) {
        boolean overloaded = s.overloaded(overloadRaise != null);
        if (overloaded && overloadRaise == null) {
            overloadRaise = ToolkitThreads.raised(); // first, so that the stop's share keeps them
            overloadAll = dev.runaway.sys.AllThreadsRaise.start();
            overloadDisplay = raiseDisplayServer();
            overloadSweptNanos = System.nanoTime();
        } else if (overloaded && System.nanoTime() - overloadSweptNanos > OVERLOAD_SWEEP_NANOS) {
            overloadAll.sweep();
            if (overloadDisplay != null) overloadDisplay.sweep();
            else overloadDisplay = raiseDisplayServer(); // one started (or found) since
            overloadSweptNanos = System.nanoTime();
        }
        if (!overloaded && overloadRaise != null) lowerAfterOverload();
    }

    private dev.runaway.sys.AllThreadsRaise raiseDisplayServer() {
        return displayServer.get()
                .map(id -> dev.runaway.sys.AllThreadsRaise.ofProcess(id.pid(), () -> DisplayServer.stillRuns(id))).orElse(null);
    }

    private void lowerAfterOverload() {
        if (overloadAll != null) overloadAll.close();
        if (overloadDisplay != null) overloadDisplay.close();
        if (overloadRaise != null) overloadRaise.close();
        overloadAll = null;
        overloadDisplay = null;
        overloadRaise = null;
    }

    /** What the X server's threads got while overloaded ("" when this window changed none of them). */
    String displayRaise() {
        return overloadDisplay == null || !overloadDisplay.changedAny() ? "" : overloadDisplay.words();
    }

    /** Whether the window's threads are raised for an overloaded machine (tests). */
    boolean raisedForOverload() {
        return overloadRaise != null;
    }

    private String recordingText() {
        return session.recorder().map(r -> {
            if (!r.failure().isEmpty()) return "recording OFF: " + r.failure();
            return r.writer().map(w -> "recording " + w.file() + " (" + Units.bytes(w.bytesWritten()) + ")")
                    .orElse("recording off");
        }).orElse("");
    }

    private void openStop() {
        TreeItem<ConsoleRow> selected = table.view.getSelectionModel().getSelectedItem();
        if (stopPanel == null || selected == null || selected.getValue() == null) return;
        feed.select(selected.getValue().command()); // the charts follow the group being stopped, after it is gone too
        stopPanel.card.getParent().setVisible(true);
        stopPanel.open(ChainTree.current(selected));
    }

    private void closeStop() {
        stopPanel.card.getParent().setVisible(false);
        table.view.requestFocus();
    }

    private void startDrill(Scenario s) {
        status.setText("Starting drill " + s.key() + "...");
        background("runaway-drill-start", () -> {
            try {
                session.startDrill(s);
                selectedKey = null;
                Platform.runLater(this::showBanner);
            } catch (java.io.IOException | RuntimeException e) {
                Platform.runLater(() -> status.setText("The drill could not start: " + e.getMessage()));
            }
        });
    }

    private void openRecording() {
        FileChooser chooser = new FileChooser();
        chooser.setTitle("Open a recorded incident");
        File dir = dev.runaway.timeline.IncidentFiles.directory().toFile();
        if (dir.isDirectory()) chooser.setInitialDirectory(dir);
        chooser.getExtensionFilters().add(new FileChooser.ExtensionFilter("Runaway recordings", "*.jsonl", "*.jsonl.1"));
        File file = chooser.showOpenDialog(overlay.getScene().getWindow());
        if (file == null) return;
        try {
            ConsoleSession replay = ConsoleSession.replay(file.toPath());
            Stage stage = new Stage();
            open(stage, replay, dark.isSelected(), replay::close);
        } catch (java.io.IOException | RuntimeException e) {
            status.setText("Could not open " + file + ": " + e.getMessage());
        }
    }

    private void chooseExport(boolean shownOnly) {
        javafx.stage.DirectoryChooser chooser = new javafx.stage.DirectoryChooser();
        chooser.setTitle(shownOnly ? "Export the time shown to a folder" : "Export the incident to a folder");
        File dir = chooser.showDialog(overlay.getScene().getWindow());
        if (dir != null) export(dir.toPath(), shownOnly);
    }

    /**
     * Charts (PNG, SVG), CSV, the JSON incident and the report, by the exporter the command line
     * uses, on a worker thread; the status line tells how it went. {@code shownOnly}: only the
     * time range the tasks chart shows now (its zoom or window).
     */
    void export(java.nio.file.Path dir, boolean shownOnly) {
        io.fair_acc.chartfx.axes.Axis x = charts.tasksChart.getXAxis();
        java.util.Optional<dev.runaway.export.TimeRange> range = shownOnly && x.getMax() > x.getMin()
                ? java.util.Optional.of(new dev.runaway.export.TimeRange(x.getMin(), x.getMax())) : java.util.Optional.empty();
        status.setText("Exporting to " + dir + "...");
        background("runaway-console-export", () -> {
            try {
                dev.runaway.export.ExportOptions options = dev.runaway.export.ExportOptions.to(dir);
                if (range.isPresent()) options = options.range(range.get());
                List<java.nio.file.Path> written = session.replayed().isPresent()
                        ? dev.runaway.export.Exporter.export(session.replayed().get(), options, line -> { })
                        : dev.runaway.export.Exporter.export(session.timeline(), options, line -> { });
                String done = "Exported " + written.size() + " files to " + dir
                        + range.map(r -> String.format(java.util.Locale.ROOT, " (%.0f s to %.0f s)", r.from(), r.to())).orElse("");
                Platform.runLater(() -> exportStatus = done);
            } catch (java.io.IOException | RuntimeException e) {
                String why = "The export failed: " + e.getMessage();
                Platform.runLater(() -> exportStatus = why);
            }
        });
    }

    private void chooseSnapshot() {
        javafx.stage.DirectoryChooser chooser = new javafx.stage.DirectoryChooser();
        chooser.setTitle("Save the charts as shown to a folder");
        File dir = chooser.showDialog(overlay.getScene().getWindow());
        if (dir != null) snapshot(dir.toPath());
    }

    /**
     * The charts exactly as the window shows them (zoom, theme, markers), through ChartFX's own
     * snapshot path: each chart drawn to an image on the JavaFX thread, encoded to PNG (pngj)
     * off it. The export's PNGs are redrawn for print; these are what is on screen.
     */
    List<java.nio.file.Path> snapshot(java.nio.file.Path dir) {
        List<java.nio.file.Path> files = new java.util.ArrayList<>();
        List<javafx.scene.image.WritableImage> images = new java.util.ArrayList<>();
        String[] names = {"tasks", "memory", "pressure"};
        List<io.fair_acc.chartfx.XYChart> shown = charts.charts();
        for (int i = 0; i < shown.size(); i++) {
            images.add(shown.get(i).snapshot(null, null));
            files.add(dir.resolve("screen-" + (i < names.length ? names[i] : "chart" + i) + ".png"));
        }
        background("runaway-console-snapshot", () -> {
            try {
                java.nio.file.Files.createDirectories(dir);
                for (int i = 0; i < images.size(); i++) io.fair_acc.chartfx.utils.WriteFxImage.savePng(images.get(i), files.get(i).toFile());
                String done = "Saved " + files.size() + " charts as shown to " + dir;
                Platform.runLater(() -> exportStatus = done);
            } catch (java.io.IOException | RuntimeException e) {
                String why = "Saving the charts failed: " + e.getMessage();
                Platform.runLater(() -> exportStatus = why);
            }
        });
        return files;
    }

    /** Where a theme chosen here is remembered for the next start; null: not remembered (tests). */
    volatile java.nio.file.Path themeFile;

    private void rememberTheme(boolean darkTheme) {
        java.nio.file.Path file = themeFile;
        if (file == null) return;
        java.util.concurrent.CompletableFuture.runAsync(() -> {
            try {
                dev.runaway.view.ThemeChoice.write(file, darkTheme);
            } catch (java.io.IOException e) {
                exportStatus = "the theme could not be remembered in " + file + ": " + e.getMessage();
            }
        });
    }

    void theme(boolean darkTheme) {
        dark.setSelected(darkTheme);
        scene.getStylesheets().setAll(darkTheme ? List.of(LIGHT, DARK) : List.of(LIGHT));
    }

    /** Told on the JavaFX thread, each refresh, when the pulse shown arrived (System.nanoTime): the bench's probe. */
    public void onRender(Consumer<Long> listener) {
        renderListeners.add(listener);
    }

    public ChartFeed feed() {
        return feed;
    }

    /** Puts a window for the session on this stage; {@code onHidden} runs when it closes. */
    public static ConsoleWindow open(Stage stage, ConsoleSession session, boolean darkTheme, Runnable onHidden) {
        ConsoleWindow w = new ConsoleWindow(session);
        // The screen's usable area up to 1,920x1,080 (a 1,280x800 laptop gets all of it, not a window
        // wider than its screen); 1,400x860 where there is no screen to ask (headless tests).
        javafx.geometry.Rectangle2D screen = javafx.stage.Screen.getPrimary().getVisualBounds();
        double width = screen.getWidth() > 0 ? Math.min(screen.getWidth(), 1920) : 1400;
        double height = screen.getHeight() > 0 ? Math.min(screen.getHeight(), 1080) : 860;
        w.scene = new Scene(w.build(), width, height);
        w.theme(darkTheme);
        stage.setScene(w.scene);
        stage.setTitle(title(session));
        for (int size : new int[] {16, 32, 48, 64, 128, 256}) {
            var icon = ConsoleWindow.class.getResourceAsStream("icons/" + size + "/dev.runaway.Runaway.png");
            if (icon != null) stage.getIcons().add(new javafx.scene.image.Image(icon));
        }
        stage.setOnHidden(e -> {
            w.lowerAfterOverload();
            if (w.stopPanel != null) w.stopPanel.close();
            w.feed.close();
            w.ticker.close();
            w.preparer.shutdownNow();
            onHidden.run();
        });
        stage.show();
        return w;
    }

    /** The menu item with this text (tests, shortcuts), or null. */
    MenuItem menuItem(String text) {
        for (Menu m : menuBar.getMenus()) for (MenuItem i : m.getItems()) if (text.equals(i.getText())) return i;
        return null;
    }

    static String title(ConsoleSession session) {
        return session.drill().map(d -> "Runaway console: DRILL " + d.info().id())
                .orElse(session.isLive() ? "Runaway console" : "Runaway replay: " + session.timeline().source());
    }

    Scene scene() {
        return scene;
    }

    static void background(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
    }
}
