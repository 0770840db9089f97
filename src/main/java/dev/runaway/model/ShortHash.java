// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.model;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** The first hex digits of a string's SHA-256: what keeps two long values apart once they are cut to a common start. */
public final class ShortHash {
    private ShortHash() {
    }

    public static String of(String value, int hexDigits) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest).substring(0, hexDigits);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }
}
