// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sandbox;

/** A sandbox could not be made or used; the message says what to do about it. */
public class SandboxException extends RuntimeException {
    public SandboxException(String message, Throwable cause) {
        super(message, cause);
    }

    public SandboxException(String message) {
        super(message);
    }
}
