// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import dev.runaway.model.ProcessIdentity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ProcStatTest {

    /**
     * A full 52-field line, numbered as in proc(5): 3 state, 4 ppid, 5 pgrp, 6 session,
     * 19 nice (5), 20 num_threads (7), 21 itrealvalue (0), 22 starttime (123456),
     * 23 vsize (987654321), 24 rss (2500), 25 rsslim. Neighbours differ so an off-by-one shows.
     */
    private static String line(String pidAndComm, char state) {
        return pidAndComm + " " + state + " 1 1234 1200 34817 1234 4194560 1000 0 3 0 12 3 0 0 25 5 7 0 123456"
                + " 987654321 2500 18446744073709551615 94567796215808 94567796235689 140737120236160 0 0 0 0"
                + " 0 0 0 0 0 17 2 0 0 0 0 0 94567796251696 94567796253312 94568142004224 140737120238287"
                + " 140737120238307 140737120238307 140737120239595 0\n";
    }

    @Test
    void parsesFieldsByProcFiveNumbering() {
        ProcStat stat = ProcStat.parse(line("4672 (cat)", 'R'));

        assertThat(stat.pid()).isEqualTo(4672);
        assertThat(stat.comm()).isEqualTo("cat");
        assertThat(stat.state()).isEqualTo('R');
        assertThat(stat.ppid()).isEqualTo(1);
        assertThat(stat.pgrp()).isEqualTo(1234);
        assertThat(stat.session()).isEqualTo(1200);
        assertThat(stat.numThreads()).isEqualTo(7);
        assertThat(stat.startTicks()).isEqualTo(123456L);
        assertThat(stat.rssPages()).isEqualTo(2500L);
        assertThat(stat.identity()).isEqualTo(new ProcessIdentity(4672, 123456L));
        assertThat(stat.flags()).isEqualTo(4194560L);
        assertThat(stat.isExiting()).isFalse();
        assertThat(stat.isForkNoExec()).isFalse();
    }

    @Test
    void pfForkNoExecInTheFlagsIsAForkThatHasNotExecd() {
        ProcStat stat = ProcStat.parse(line("4672 (bash)", 'R').replace(" 4194560 ", " 4194624 "));

        assertThat(stat.isForkNoExec()).isTrue();
        assertThat(stat.isExiting()).isFalse();
    }

    @Test
    void pfExitingInTheFlagsIsAnExitingProcess() {
        ProcStat stat = ProcStat.parse(line("4672 (cat)", 'R').replace(" 4194560 ", " 4194564 "));

        assertThat(stat.isExiting()).isTrue();
    }

    @Test
    void commandNameWithSpacesAndParenthesesIsSplitAtTheLastCloseParen() {
        ProcStat stat = ProcStat.parse(line("1234 (a) b (c))", 'S'));

        assertThat(stat.pid()).isEqualTo(1234);
        assertThat(stat.comm()).isEqualTo("a) b (c)");
        assertThat(stat.state()).isEqualTo('S');
        assertThat(stat.ppid()).isEqualTo(1);
        assertThat(stat.numThreads()).isEqualTo(7);
        assertThat(stat.startTicks()).isEqualTo(123456L);
        assertThat(stat.rssPages()).isEqualTo(2500L);
    }

    @Test
    void parsesTheMinimalLineThatReachesRss() {
        // Fields 3..24 exactly: 22 fields after the comm.
        ProcStat stat = ProcStat.parse("9 (k) S 2 0 0 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 77 0 3");

        assertThat(stat.numThreads()).isEqualTo(1);
        assertThat(stat.startTicks()).isEqualTo(77L);
        assertThat(stat.rssPages()).isEqualTo(3L);
    }

    @Test
    void zombieStateIsZombie() {
        assertThat(ProcStat.parse(line("77 (defunct)", 'Z')).isZombie()).isTrue();
        assertThat(ProcStat.parse(line("77 (alive)", 'S')).isZombie()).isFalse();
    }

    @Test
    void shortOrGarbledLinesAreRejected() {
        assertThatThrownBy(() -> ProcStat.parse("1234 (a) S 1 1234 1234 0 -1"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ProcStat.parse("not a stat line"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ProcStat.parse(""))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ProcStat.parse("12 (unterminated S 1 2 3"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ProcStat.parse("12 (x)"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ProcStat.parse(line("abc (x)", 'S')))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void readsStatFromAFakeProcTree(@TempDir Path proc) throws IOException {
        Files.createDirectories(proc.resolve("42"));
        Files.writeString(proc.resolve("42/stat"), line("42 (worker)", 'S'));

        Optional<ProcStat> stat = ProcStat.read(proc, 42);

        assertThat(stat).isPresent();
        assertThat(stat.get().pid()).isEqualTo(42);
        assertThat(stat.get().comm()).isEqualTo("worker");
        assertThat(stat.get().startTicks()).isEqualTo(123456L);
    }

    @Test
    void readOfAVanishedPidIsEmpty(@TempDir Path proc) {
        assertThat(ProcStat.read(proc, 43)).isEmpty();
    }

    @Test
    void readOfAnUnparsableStatIsEmpty(@TempDir Path proc) throws IOException {
        Files.createDirectories(proc.resolve("44"));
        Files.writeString(proc.resolve("44/stat"), "");

        assertThat(ProcStat.read(proc, 44)).isEmpty();
    }
}
