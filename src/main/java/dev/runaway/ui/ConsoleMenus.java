// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import dev.runaway.analysis.GroupColumn;
import dev.runaway.drill.Scenario;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuBar;
import javafx.scene.control.MenuItem;
import javafx.scene.control.SeparatorMenuItem;
import javafx.scene.input.KeyCombination;

/** The window's menus and their shortcuts; each item does what the window offers (see {@link dev.runaway.view.Help#KEYS}). */
final class ConsoleMenus {
    private ConsoleMenus() {
    }

    static MenuBar of(ConsoleWindow w) {
        Menu file = new Menu("_File");
        file.getItems().addAll(item("Open recorded incident…", "Shortcut+O", w::openRecording),
                item("Export the incident…", "Shortcut+E", () -> w.chooseExport(false)),
                item("Export the time shown…", "Shortcut+Shift+E", () -> w.chooseExport(true)),
                item("Save the charts as shown (PNG)…", "Shortcut+Shift+S", w::chooseSnapshot),
                new SeparatorMenuItem(),
                item("Quit", "Shortcut+Q", () -> w.overlay.getScene().getWindow().hide()));

        Menu drill = new Menu("_Drill");
        for (Scenario s : Scenario.values()) {
            MenuItem start = item("Start drill: " + s.key() + " (" + s.description() + ")", null, () -> w.startDrill(s));
            start.setDisable(!w.session.isLive());
            drill.getItems().add(start);
        }
        drill.getItems().addAll(new SeparatorMenuItem(), item("Tear the drill down", null, w::tearDrillDown));

        Menu view = new Menu("_View");
        w.dark.setAccelerator(KeyCombination.keyCombination("Shortcut+T"));
        w.dark.setOnAction(e -> w.chooseTheme(w.dark.isSelected()));
        view.getItems().addAll(w.dark, item("Filter groups", "Shortcut+F", w.filter::requestFocus),
                item("Sort by tasks", null, () -> w.table.sortBy(GroupColumn.TASKS)),
                item("Sort by growth", null, () -> w.table.sortBy(GroupColumn.RATE)),
                item("Most severe first", null, () -> w.table.view.getSortOrder().clear()),
                new SeparatorMenuItem(),
                item("By command", "Shortcut+1", () -> w.lenses.getSelectionModel().select(0)),
                item("By cgroup", "Shortcut+2", () -> w.lenses.getSelectionModel().select(1)));

        Menu act = new Menu("_Stop");
        MenuItem stopItem = item("Guided stop of the selection…", "Shortcut+K", w::openStop);
        stopItem.disableProperty().bind(w.stopButton.disableProperty());
        act.getItems().add(stopItem);

        Menu help = new Menu("_Help");
        help.getItems().addAll(item("Keys and guide", "F1", w::showHelp), item("About Runaway", null, w::showAbout));
        return new MenuBar(file, drill, view, act, help);
    }

    private static MenuItem item(String text, String shortcut, Runnable action) {
        MenuItem i = new MenuItem(text);
        if (shortcut != null) i.setAccelerator(KeyCombination.keyCombination(shortcut));
        i.setOnAction(e -> action.run());
        return i;
    }
}
