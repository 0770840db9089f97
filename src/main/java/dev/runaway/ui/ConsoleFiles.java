// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import dev.runaway.export.ExportOptions;
import dev.runaway.export.Exporter;
import dev.runaway.export.TimeRange;
import io.fair_acc.chartfx.XYChart;
import io.fair_acc.chartfx.axes.Axis;
import io.fair_acc.chartfx.utils.WriteFxImage;
import javafx.application.Platform;
import javafx.scene.image.WritableImage;
import javafx.stage.DirectoryChooser;
import javafx.stage.FileChooser;
import javafx.stage.Window;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The window's File menu: open a recording in a window of its own, export the incident (or the
 * time shown), save the charts as shown. The work runs on a thread of its own; how it went is
 * told to {@code outcome} on the JavaFX thread, for the status line.
 */
final class ConsoleFiles {
    private final ConsoleSession session;
    private final TimelineCharts charts;
    private final Consumer<String> outcome;

    ConsoleFiles(ConsoleSession session, TimelineCharts charts, Consumer<String> outcome) {
        this.session = session;
        this.charts = charts;
        this.outcome = outcome;
    }

    /** A recording chosen by the person, opened in a new window (same theme); null when none was chosen. */
    Path chooseRecording(Window owner) {
        FileChooser chooser = new FileChooser();
        chooser.setTitle("Open a recorded incident");
        File dir = dev.runaway.timeline.IncidentFiles.directory().toFile();
        if (dir.isDirectory()) chooser.setInitialDirectory(dir);
        chooser.getExtensionFilters().add(new FileChooser.ExtensionFilter("Runaway recordings", "*.jsonl", "*.jsonl.1"));
        File file = chooser.showOpenDialog(owner);
        return file == null ? null : file.toPath();
    }

    /** A folder chosen by the person, or null. */
    static Path chooseFolder(Window owner, String title) {
        DirectoryChooser chooser = new DirectoryChooser();
        chooser.setTitle(title);
        File dir = chooser.showDialog(owner);
        return dir == null ? null : dir.toPath();
    }

    /**
     * Charts (PNG, SVG), CSV, the JSON incident and the report, by the exporter the command line
     * uses, on a worker thread. {@code shownOnly}: only the time range the tasks chart shows now
     * (its zoom or window). {@code then} gets the files written, on the JavaFX thread.
     */
    void export(Path dir, boolean shownOnly, Consumer<List<Path>> then) {
        Axis x = charts.tasksChart.getXAxis();
        Optional<TimeRange> range = shownOnly && x.getMax() > x.getMin() ? Optional.of(new TimeRange(x.getMin(), x.getMax())) : Optional.empty();
        background("runaway-console-export", () -> {
            try {
                ExportOptions options = ExportOptions.to(dir);
                if (range.isPresent()) options = options.range(range.get());
                List<Path> written = session.replayed().isPresent()
                        ? Exporter.export(session.replayed().get(), options, line -> { })
                        : Exporter.export(session.timeline(), options, line -> { });
                String done = "Exported " + written.size() + " files to " + dir
                        + range.map(r -> String.format(Locale.ROOT, " (%.0f s to %.0f s)", r.from(), r.to())).orElse("");
                Platform.runLater(() -> {
                    outcome.accept(done);
                    then.accept(written);
                });
            } catch (IOException | RuntimeException e) {
                String why = "The export failed: " + e.getMessage();
                Platform.runLater(() -> outcome.accept(why));
            }
        });
    }

    /**
     * The charts exactly as the window shows them (zoom, theme, markers), through ChartFX's own
     * snapshot path: each chart drawn to an image on the JavaFX thread, encoded to PNG (pngj)
     * off it. The export's PNGs are redrawn for print; these are what is on screen.
     */
    List<Path> snapshot(Path dir) {
        List<Path> files = new ArrayList<>();
        List<WritableImage> images = new ArrayList<>();
        String[] names = {"tasks", "memory", "pressure"};
        List<XYChart> shown = charts.charts();
        for (int i = 0; i < shown.size(); i++) {
            images.add(shown.get(i).snapshot(null, null));
            files.add(dir.resolve("screen-" + (i < names.length ? names[i] : "chart" + i) + ".png"));
        }
        background("runaway-console-snapshot", () -> {
            try {
                Files.createDirectories(dir);
                for (int i = 0; i < images.size(); i++) WriteFxImage.savePng(images.get(i), files.get(i).toFile());
                String done = "Saved " + files.size() + " charts as shown to " + dir;
                Platform.runLater(() -> outcome.accept(done));
            } catch (IOException | RuntimeException e) {
                String why = "Saving the charts failed: " + e.getMessage();
                Platform.runLater(() -> outcome.accept(why));
            }
        });
        return files;
    }

    /** The theme chosen in the window, remembered for the next start in {@code file} (null: not remembered). */
    void rememberTheme(Path file, boolean dark) {
        if (file == null) return;
        background("runaway-console-theme", () -> {
            try {
                dev.runaway.view.ThemeChoice.write(file, dark);
            } catch (IOException e) {
                String why = "the theme could not be remembered in " + file + ": " + e.getMessage();
                Platform.runLater(() -> outcome.accept(why));
            }
        });
    }

    static void background(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
    }
}
