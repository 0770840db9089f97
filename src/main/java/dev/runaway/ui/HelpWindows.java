// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import dev.runaway.view.Help;
import javafx.scene.control.Alert;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.Label;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.VBox;
import javafx.stage.Window;

import java.nio.file.Path;
import java.util.function.Consumer;

/** Help (the keys and the guide) and About (version, licence, project), over the window. */
final class HelpWindows {
    private HelpWindows() {
    }

    /** Where the guide is for this console: installed, else the docs of the checkout it runs from. */
    static String guide() {
        Path code;
        try {
            code = Path.of(HelpWindows.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (java.net.URISyntaxException | RuntimeException e) {
            code = null;
        }
        return Help.guide(Help.INSTALLED_GUIDE, code);
    }

    static Alert help(Window owner, Consumer<String> status) {
        GridPane keys = new GridPane();
        keys.getStyleClass().add("help-keys");
        int row = 0;
        for (Help.Key k : Help.KEYS) {
            Label key = new Label(k.keys());
            key.getStyleClass().add("key");
            Label does = new Label(k.does());
            does.setWrapText(true);
            keys.addRow(row++, key, does);
        }
        String guide = guide();
        Hyperlink link = new Hyperlink(guide);
        link.setOnAction(e -> open(guide, status));
        VBox body = new VBox(10, keys, new Label("The user guide (the guard, the metrics, the stop):"), link);
        return dialog(owner, "Runaway: help", "Keys", body);
    }

    static Alert about(Window owner) {
        String version = ConsoleWindow.class.getPackage().getImplementationVersion();
        Label text = new Label(Help.about(version));
        text.setWrapText(true);
        return dialog(owner, "About Runaway", "Runaway", new VBox(10, text));
    }

    private static Alert dialog(Window owner, String title, String header, javafx.scene.Node body) {
        Alert a = new Alert(Alert.AlertType.INFORMATION, "", ButtonType.CLOSE);
        a.initOwner(owner);
        a.setTitle(title);
        a.setHeaderText(header);
        a.getDialogPane().setContent(body);
        a.getDialogPane().setMinWidth(640);
        if (owner != null && owner.getScene() != null) a.getDialogPane().getStylesheets().setAll(owner.getScene().getStylesheets());
        return a;
    }

    /** Opens an address with the desktop's opener (xdg-open); where there is none, the status line gives it to copy. */
    static void open(String address, Consumer<String> status) {
        ConsoleFiles.background("runaway-open-link", () -> {
            try {
                new ProcessBuilder("xdg-open", address).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            } catch (java.io.IOException e) {
                javafx.application.Platform.runLater(() -> status.accept("no xdg-open to open " + address + ": open it in a browser"));
            }
        });
    }
}
