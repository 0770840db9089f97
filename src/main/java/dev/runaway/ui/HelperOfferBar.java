// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;

/**
 * The offer, on a spike, to prepare the privileged helper: the console never raises a password
 * dialog by itself, it says why the helper is worth starting now and lets the user choose. The
 * text and the choice live in {@link ConsoleSession} (HelperKeeper); this is only their view.
 */
final class HelperOfferBar {
    final HBox node;
    private final Label text = new Label();
    private final ConsoleSession session;

    HelperOfferBar(ConsoleSession session) {
        this.session = session;
        Button prepare = new Button("Prepare helper");
        prepare.setOnAction(e -> session.prepareHelper());
        Button notNow = new Button("Not now");
        notNow.setOnAction(e -> session.declineHelper());
        text.setWrapText(true);
        text.setMaxWidth(Double.MAX_VALUE);
        HBox.setHgrow(text, Priority.ALWAYS);
        node = new HBox(8, text, prepare, notNow);
        node.getStyleClass().add("helper-offer");
        show(false);
    }

    /** On the JavaFX thread with every refresh. */
    void refresh() {
        var offer = session.helperOffer();
        offer.ifPresent(text::setText);
        show(offer.isPresent());
    }

    private void show(boolean visible) {
        node.setVisible(visible);
        node.setManaged(visible);
    }
}
