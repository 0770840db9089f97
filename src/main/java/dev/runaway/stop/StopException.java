// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

/** A step of the stop could not be done; the message says why, in words. */
public class StopException extends Exception {
    public StopException(String message) {
        super(message);
    }
}
