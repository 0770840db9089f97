// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** When a console counts the machine as overloaded (and raises its window's threads), and when it is calm again. */
class ScanStatusTest {
    private static ScanStatus at(int runnable, double load1) {
        return new ScanStatus(0.2, 0, 0.1, 500, load1, runnable, 2);
    }

    @Test
    void overloadedFromMoreThanFourRunnableTasksPerCoreNowOrOverTheMinute() {
        assertThat(at(3, 0.5).overloaded()).isFalse();
        assertThat(at(8, 7.9).overloaded()).isFalse();
        assertThat(at(9, 1.0).overloaded()).as("runnable now").isTrue();
        assertThat(at(2, 2_000).overloaded()).as("the minute's load, between two busy reads").isTrue();
    }

    @Test
    void onceOverloadedItStaysSoUntilBothFiguresAreUnderTwoPerCore() {
        assertThat(at(5, 6).overloaded(true)).isTrue();
        assertThat(at(3, 4.5).overloaded(true)).as("the minute's load still high").isTrue();
        assertThat(at(5, 3.0).overloaded(true)).as("five runnable now").isTrue();
        assertThat(at(3, 3.9).overloaded(true)).isFalse();
        assertThat(at(5, 6).overloaded(false)).as("not yet overloaded: four per core is the line").isFalse();
    }

    @Test
    void newProcessesLeftOutOfTheTableAreSaidWithWhy() {
        ScanStatus s = new ScanStatus(0.2, 0, 0.1, 500, 1.0, 1, 2, 0, 37);

        assertThat(s.worthSaying()).isTrue();
        assertThat(s.describe()).contains("37 new processes not in the table yet").contains("middle of an exec");
        assertThat(new ScanStatus(0.2, 0, 0.1, 500, 1.0, 1, 2, 0, 0).worthSaying()).isFalse();
    }
}
