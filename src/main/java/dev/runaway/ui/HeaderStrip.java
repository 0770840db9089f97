// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import dev.runaway.view.HeaderFigures;
import javafx.geometry.Insets;
import javafx.scene.control.Label;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

import java.util.ArrayList;
import java.util.List;

/**
 * The header's figures in large type ({@link HeaderFigures}), in a strip that wraps: on a narrow
 * window (1,280 px) the last ones go to a second line, never past the edge. First, and only while
 * the guard holds something, "1 HELD by the guard".
 */
final class HeaderStrip {
    final FlowPane node = new FlowPane(22, 2);
    final List<Label> figures = new ArrayList<>();
    final List<Label> captions = new ArrayList<>();
    private final Label heldCaption = new Label();
    private final Label heldFigure = new Label();
    private final VBox heldBox = new VBox(0, heldCaption, heldFigure);

    HeaderStrip() {
        node.getStyleClass().add("header");
        node.setPadding(new Insets(8, 14, 8, 14));
        style(heldCaption, heldFigure);
        heldBox.setVisible(false);
        heldBox.setManaged(false);
        node.getChildren().add(heldBox);
        for (String caption : HeaderFigures.CAPTIONS) {
            Label small = new Label(caption);
            Label big = new Label("-");
            style(small, big);
            figures.add(big);
            captions.add(small);
            node.getChildren().add(new VBox(0, small, big));
        }
    }

    private static void style(Label caption, Label figure) {
        caption.getStyleClass().add("caption");
        figure.getStyleClass().add("figure");
        figure.setMinWidth(Region.USE_PREF_SIZE); // a figure is never cut to "3..."
        caption.setMinWidth(Region.USE_PREF_SIZE);
    }

    void show(HeaderFigures header) {
        for (int i = 0; i < figures.size(); i++) show(header.figures().get(i), captions.get(i), figures.get(i));
        header.held().ifPresent(f -> show(f, heldCaption, heldFigure));
        heldBox.setVisible(header.held().isPresent());
        heldBox.setManaged(header.held().isPresent());
    }

    /** One figure into its labels; its style changes only when its severity does (a style change costs a CSS pass). */
    private static void show(HeaderFigures.Figure f, Label caption, Label figure) {
        figure.setText(f.text());
        caption.setText(f.caption());
        String severity = f.severity().styleClass();
        if (figure.getStyleClass().contains(severity)) return;
        figure.getStyleClass().removeAll("severity-calm", "severity-watch", "severity-critical");
        figure.getStyleClass().add(severity);
    }
}
