// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * A command group's figures as one model, the same for the live {@link Group} and the group a
 * recording kept ({@code timeline.GroupPoint}): one encoding each (an empty
 * {@link #secondsToExhaustion} when not heading to a limit, a {@link GrowthFit} for the growth),
 * so the columns, the order and the charts read live and replayed groups alike.
 * See {@link Group} for what each figure means.
 */
public interface GroupFigures extends RankedGroup {
    long rssBytes();

    double bytesPerSecond();

    /** Until a limit runs out at this rate; empty when not heading to one. */
    OptionalDouble secondsToExhaustion();

    /** The limit {@link #secondsToExhaustion} runs out, or "". */
    String exhaustedBy();

    /** How many chains the group is in. */
    int chainCount();

    /** Levels of the deepest of them. */
    int deepestChain();

    boolean parentedToInit();

    List<String> cycle();

    String cgroup();

    long cgroupRoom();

    long cgroupMax();

    Optional<GroupCap> cap();

    long forksRefused();

    long memoryBytes();

    MemorySource memorySource();

    @Override
    default double secondsLeft() {
        return secondsToExhaustion().orElse(Double.NaN);
    }
}
