// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import dev.runaway.analysis.Snapshot;
import dev.runaway.drill.Scenario;
import dev.runaway.model.ProcessIdentity;
import dev.runaway.timeline.GroupScan;
import dev.runaway.timeline.PulsePoint;
import dev.runaway.view.Banner;
import dev.runaway.view.ConsoleRow;
import dev.runaway.view.ConsoleState;
import dev.runaway.view.FirstContact;
import dev.runaway.view.GuardHolds;
import dev.runaway.view.StatusLine;
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
import javafx.scene.control.SplitPane;
import javafx.scene.control.TabPane;
import javafx.scene.control.TextField;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The console's main window, its layout: the header strip of machine figures in large type, the
 * chains view with a filter and the one stop button, the incident charts with a time-window
 * choice, and a status line. What it shows is decided by its view model ({@link ConsoleState},
 * no JavaFX) from a {@link ConsoleSession}; the window copies it into its controls at the rate a
 * person reads, and only what changed is drawn again (a label set to its own text draws nothing).
 */
public final class ConsoleWindow {
    static final String LIGHT = ConsoleWindow.class.getResource("console.css").toExternalForm();
    static final String DARK = ConsoleWindow.class.getResource("console-dark.css").toExternalForm();
    /** The header and the selection are refreshed twice a second, the status line once; the charts move with their data ({@link ChartFeed}). */
    static final long REFRESH_MILLIS = 500;

    final ConsoleSession session;
    final ConsoleState state;
    final ChainsPane chains;
    final ChainTree tree;
    final ChainTable table;
    final TabPane lenses;
    final TextField filter;
    final Button stopButton;
    final TimelineCharts charts;
    final ChoiceBox<TimeWindow> window = new ChoiceBox<>();
    final HeaderStrip header = new HeaderStrip();
    final List<Label> figures = header.figures;
    final Label banner = new Label();
    final Label status = new Label();
    final Label recording = new Label();
    private final HelperOfferBar helperOffer;
    final ConsoleHealth health = new ConsoleHealth();
    final StackPane overlay = new StackPane();
    final CheckMenuItem dark = new CheckMenuItem("Dark theme");
    StopPanel stopPanel;
    /** A confirmed stop runs: nothing but its panel is drawn. */
    private boolean held;
    /** Where windows find their X server; tests give a stand-in before a window opens. */
    static final Supplier<Optional<ProcessIdentity>> LOCAL_X_SERVER = () -> DisplayServer.local(System.getenv("DISPLAY"));
    static volatile Supplier<Optional<ProcessIdentity>> displayServer = LOCAL_X_SERVER;
    private final OverloadRaise overload = new OverloadRaise(() -> displayServer.get());
    private final RowPreparer preparer = new RowPreparer();
    private final ConsoleFiles files;
    private MenuBar menuBar;
    private ChartFeed feed;
    private Ticker ticker;
    private Scene scene;
    private volatile PulsePoint latestPulse;
    private volatile long latestPulseArrival;
    private volatile GroupScan latestScan;
    private long ticks;
    private final List<Consumer<Long>> renderListeners = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** The last export's or snapshot's outcome, kept on the status line. */
    volatile String exportStatus = "";
    /** The first-contact marks, kept when RUNAWAY_FIRST_CONTACT names a file (the console-opened-on-fire bench). */
    final FirstContact firstContact;
    /** Where a theme chosen here is remembered for the next start; null: not remembered (tests). */
    volatile Path themeFile;

    public ConsoleWindow(ConsoleSession session) {
        this(session, FirstContact.fromEnvironment(System.getenv(FirstContact.ENVIRONMENT)));
    }

    ConsoleWindow(ConsoleSession session, FirstContact firstContact) {
        this.session = session;
        this.firstContact = firstContact;
        this.state = new ConsoleState(session.isLive());
        this.charts = new TimelineCharts(() -> session.timeline().endSeconds());
        this.helperOffer = new HelperOfferBar(session);
        this.files = new ConsoleFiles(session, charts, s -> exportStatus = s);
        this.chains = new ChainsPane(state, this::openStop, row -> {
            feed.select(row.command());
            // its memory measured (cgroup or PSS) while it is shown, and recorded so
            session.live().ifPresent(l -> l.watch(java.util.Set.of(row.command())));
        });
        this.tree = chains.tree;
        this.table = chains.table;
        this.lenses = chains.lenses;
        this.filter = chains.filter;
        this.stopButton = chains.stopButton;
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

        menuBar = ConsoleMenus.of(this);
        VBox top = new VBox(menuBar, banner(), helperOffer.node, header.node);
        overlay.getChildren().add(new BorderPane(center(), top, null, statusLine(), null));
        if (session.guidedStop().isPresent()) {
            stopPanel = new StopPanel(session.guidedStop().get(), this::closeStop, this::openReport, firstContact, this::hold);
            StackPane backdrop = new StackPane(stopPanel.card);
            backdrop.getStyleClass().add("backdrop");
            backdrop.setVisible(false);
            overlay.getChildren().add(backdrop);
        }
        overlay.getStyleClass().add("console");
        feed = new ChartFeed(session.timeline(), charts).start();
        ticker = Ticker.every(REFRESH_MILLIS, this::refresh);
        return overlay;
    }

    private Label banner() {
        banner.getStyleClass().add("banner");
        banner.setMaxWidth(Double.MAX_VALUE);
        banner.setWrapText(true); // a narrow window wraps the drill's description: never cut to "…"
        banner.setMinHeight(Region.USE_PREF_SIZE);
        showBanner();
        return banner;
    }

    void showBanner() {
        Banner b = session.drill().map(d -> Banner.drill(d.info().id(), d.info().maxTasks(), d.info().scenario().description()))
                .or(() -> session.replayed().map(r -> Banner.replay(session.timeline().source(), String.valueOf(session.timeline().started()))))
                .orElse(Banner.NONE);
        banner.getStyleClass().removeAll("banner-drill", "banner-replay");
        if (b.shown()) banner.getStyleClass().add(b.styleClass());
        banner.setText(b.text());
        banner.setVisible(b.shown());
        banner.setManaged(b.shown());
    }

    private SplitPane center() {
        window.getItems().addAll(TimeWindow.values());
        window.setValue(TimeWindow.TEN_MINUTES);
        window.valueProperty().addListener((o, was, is) -> charts.window(is));
        // Short enough for 1,280 px; where it is not, it wraps: never cut to "…".
        Label zoomHint = new Label("zoom: drag or wheel; pan: middle button; keys + - ← → 0");
        zoomHint.getStyleClass().add("caption");
        zoomHint.setWrapText(true);
        zoomHint.setMinWidth(0);
        zoomHint.setMinHeight(Region.USE_PREF_SIZE);
        zoomHint.setTooltip(new javafx.scene.control.Tooltip("On a chart you clicked: + and - zoom in time, the arrows pan, 0 follows the newest data"));
        Label windowLabel = new Label("time window");
        windowLabel.setMinWidth(Region.USE_PREF_SIZE);
        window.setMinWidth(Region.USE_PREF_SIZE);
        HBox chartTools = new HBox(8, windowLabel, window, zoomHint);
        chartTools.setAlignment(Pos.CENTER_LEFT);
        chartTools.setPadding(new Insets(6));
        VBox right = new VBox(chartTools, charts.node());
        VBox.setVgrow(charts.node(), Priority.ALWAYS);

        SplitPane split = new SplitPane(chains.node, right);
        split.setOrientation(Orientation.HORIZONTAL);
        split.setDividerPositions(0.6);
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

    /** While a confirmed stop runs the window holds its figures, rows and charts still (see {@link dev.runaway.view.StopOffer#holdsWindow}). */
    private void hold(boolean held) {
        if (held == this.held) return;
        this.held = held;
        feed.hold(held);
        if (!held) refresh(); // the figures the stop left, at once
    }

    /** On the JavaFX thread, twice a second: figures and rows from the newest data; once a second the status line. */
    void refresh() {
        if (preparer.closed() || held) return; // closed: a tick queued before the close
        boolean everySecond = ticks++ % 2 == 0;
        PulsePoint pulse = latestPulse;
        GroupScan scan = latestScan;
        header.show(state.header(pulse, scan, session.isLive() ? GuardHolds.all() : List.of()));
        if (pulse != null) firstContact.figuresShown();
        if (state.drillChanged(session.drill().map(d -> d.info().id()).orElse(""))) {
            showBanner();
            if (overlay.getScene() != null && overlay.getScene().getWindow() instanceof Stage stage) stage.setTitle(title(session));
        }
        Snapshot snapshot = session.latest();
        if (state.takeLive(snapshot, System.nanoTime())) {
            health.scan(snapshot.scanNanos());
            String filterText = tree.filterText();
            Optional<ConsoleState.DrillRun> drill = session.drill().map(d -> new ConsoleState.DrillRun(d.info().id(),
                    new java.util.HashSet<>(d.sandbox().memberPids())));
            preparer.prepare(() -> tree.prepare(snapshot.groups(), filterText), rows -> {
                state.prepared();
                chains.showLive(rows, snapshot.cgroups(), snapshot.groups(), drill);
                if (!rows.rows().isEmpty()) firstContact.firstRows();
            });
        } else if (state.takeRecorded(scan)) {
            chains.showRecorded(scan);
        }
        if (everySecond) {
            status.setText(statusText());
            recording.setText(StatusLine.recording(session.recorder()));
        }
        helperOffer.refresh();
        if (pulse != null) {
            long arrival = latestPulseArrival;
            for (Consumer<Long> l : renderListeners) l.accept(arrival);
        }
    }

    private String statusText() {
        if (!session.isLive()) {
            return StatusLine.replay(session.timeline().source(), session.timeline().endSeconds(), session.timeline().events().size(), exportStatus);
        }
        Optional<dev.runaway.analysis.ScanStatus> scan = session.live().map(l -> l.scanStatus());
        scan.ifPresent(overload::follow);
        return StatusLine.live(health.text(), scan, overload.displayWords(), session.helperStatus(), exportStatus);
    }

    /** Whether the window's threads are raised for an overloaded machine (tests). */
    boolean raisedForOverload() {
        return overload.raised();
    }

    void openStop() {
        ConsoleRow selected = chains.selected();
        if (stopPanel == null || selected == null) return;
        feed.select(selected.command()); // the charts follow the group being stopped, after it is gone too
        stopPanel.card.getParent().setVisible(true);
        stopPanel.open(selected);
    }

    private void closeStop() {
        stopPanel.card.getParent().setVisible(false);
        table.view.requestFocus();
    }

    /** The stop panel's Open report: the incident exported beside the recordings, its report opened. */
    private void openReport() {
        Path dir = dev.runaway.timeline.IncidentFiles.directory().resolve("report-" + System.currentTimeMillis());
        exportStatus = "Writing the report to " + dir + "...";
        files.export(dir, false, written -> written.stream().filter(p -> p.getFileName().toString().equals("report.html")).findFirst()
                .ifPresent(report -> HelpWindows.open(report.toUri().toString(), s -> exportStatus = s)));
    }

    void startDrill(Scenario s) {
        status.setText("Starting drill " + s.key() + "...");
        ConsoleFiles.background("runaway-drill-start", () -> {
            try {
                session.startDrill(s);
                Platform.runLater(() -> {
                    state.forgetSelection();
                    showBanner();
                });
            } catch (java.io.IOException | RuntimeException e) {
                Platform.runLater(() -> status.setText("The drill could not start: " + e.getMessage()));
            }
        });
    }

    void tearDrillDown() {
        ConsoleFiles.background("runaway-drill-teardown", () -> {
            session.stopDrill().ifPresent(r -> Platform.runLater(() -> status.setText("Drill torn down: " + r.summary())));
            Platform.runLater(this::showBanner);
        });
    }

    void openRecording() {
        Path file = files.chooseRecording(overlay.getScene().getWindow());
        if (file == null) return;
        try {
            ConsoleSession replay = ConsoleSession.replay(file);
            open(new Stage(), replay, dark.isSelected(), replay::close);
        } catch (java.io.IOException | RuntimeException e) {
            status.setText("Could not open " + file + ": " + e.getMessage());
        }
    }

    void chooseExport(boolean shownOnly) {
        Path dir = ConsoleFiles.chooseFolder(overlay.getScene().getWindow(),
                shownOnly ? "Export the time shown to a folder" : "Export the incident to a folder");
        if (dir != null) export(dir, shownOnly);
    }

    /** The export of the incident (or the time shown) to {@code dir}, on a worker thread; the status line tells how it went. */
    void export(Path dir, boolean shownOnly) {
        status.setText("Exporting to " + dir + "...");
        files.export(dir, shownOnly, written -> { });
    }

    void chooseSnapshot() {
        Path dir = ConsoleFiles.chooseFolder(overlay.getScene().getWindow(), "Save the charts as shown to a folder");
        if (dir != null) snapshot(dir);
    }

    List<Path> snapshot(Path dir) {
        return files.snapshot(dir);
    }

    void showHelp() {
        HelpWindows.help(overlay.getScene().getWindow(), s -> exportStatus = s).show();
    }

    void showAbout() {
        HelpWindows.about(overlay.getScene().getWindow()).show();
    }

    void chooseTheme(boolean darkTheme) {
        theme(darkTheme);
        files.rememberTheme(themeFile, darkTheme);
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
        return open(stage, new ConsoleWindow(session), darkTheme, onHidden);
    }

    /** As above, for a window made already (tests give theirs its first-contact marks). */
    static ConsoleWindow open(Stage stage, ConsoleWindow w, boolean darkTheme, Runnable onHidden) {
        // The screen's usable area up to 1,920x1,080 (a 1,280x800 laptop gets all of it, not a window
        // wider than its screen); 1,400x860 where there is no screen to ask (headless tests).
        javafx.geometry.Rectangle2D screen = javafx.stage.Screen.getPrimary().getVisualBounds();
        double width = screen.getWidth() > 0 ? Math.min(screen.getWidth(), 1920) : 1400;
        double height = screen.getHeight() > 0 ? Math.min(screen.getHeight(), 1080) : 860;
        w.scene = new Scene(w.build(), width, height);
        w.theme(darkTheme);
        stage.setScene(w.scene);
        stage.setTitle(title(w.session));
        for (int size : new int[] {16, 32, 48, 64, 128, 256}) {
            var icon = ConsoleWindow.class.getResourceAsStream("icons/" + size + "/dev.runaway.Runaway.png");
            if (icon != null) stage.getIcons().add(new javafx.scene.image.Image(icon));
        }
        stage.setOnHidden(e -> {
            w.overload.close();
            if (w.stopPanel != null) w.stopPanel.close();
            w.feed.close();
            w.ticker.close();
            w.preparer.close();
            onHidden.run();
        });
        stage.addEventHandler(javafx.stage.WindowEvent.WINDOW_SHOWN, e -> w.firstContact.windowShown(java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime()));
        if (w.firstContact.awaitsNaming()) w.scene.addPostLayoutPulseListener(w::afterLayout);
        stage.show();
        return w;
    }

    /**
     * After each layout while the runaway is still to be named (a bench's marks only): from what
     * the table draws, not from the rows given to it (the bench's screenshot at 5,000 pressing
     * showed the header naming the runaway over an empty table when the mark was taken as the
     * rows reached the tree, before any layout).
     */
    private void afterLayout() {
        if (!firstContact.awaitsNaming()) return;
        ConsoleRow selected = chains.selected();
        if (firstContact.laidOut(chains.topRowInSight(), selected == null ? null : selected.key())) Platform.requestNextPulse();
    }

    /** The menu item with this text (tests, shortcuts), or null. */
    MenuItem menuItem(String text) {
        for (Menu m : menuBar.getMenus()) for (MenuItem i : m.getItems()) if (text.equals(i.getText())) return i;
        return null;
    }

    static String title(ConsoleSession session) {
        return ConsoleState.title(session.drill().map(d -> d.info().id()).orElse(""), session.isLive(), session.timeline().source());
    }

    Scene scene() {
        return scene;
    }
}
