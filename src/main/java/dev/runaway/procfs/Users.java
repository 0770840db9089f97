// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalInt;

/** Users by /etc/passwd: a name's uid (a policy's allow-user, a socket peer's principal) and a uid's primary group. */
public final class Users {
    private Users() {
    }

    /** The uid of a user name, or of digits as they are. */
    public static OptionalInt uidOf(String name) {
        if (!name.isEmpty() && name.chars().allMatch(Character::isDigit)) return OptionalInt.of(Integer.parseInt(name));
        return field(0, name, 2);
    }

    /** The primary gid of a uid; the uid itself when it has no entry. */
    public static int gidOf(int uid) {
        return field(2, Integer.toString(uid), 3).orElse(uid);
    }

    private static OptionalInt field(int match, String value, int want) {
        try {
            for (String line : Files.readAllLines(Path.of("/etc/passwd"))) {
                String[] f = line.split(":");
                if (f.length > Math.max(match, want) && f[match].equals(value)) return OptionalInt.of(Integer.parseInt(f[want]));
            }
        } catch (IOException | NumberFormatException e) {
            // unreadable: nobody is found
        }
        return OptionalInt.empty();
    }
}
