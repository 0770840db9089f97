// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.drill;

import dev.runaway.sandbox.CgroupSandbox;

import java.util.Optional;

/** A drill found on the machine: its sandbox, and what it was started as when that is known. */
public record RunningDrill(CgroupSandbox sandbox, Optional<DrillInfo> info) {
}
