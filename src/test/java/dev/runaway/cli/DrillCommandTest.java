// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import dev.runaway.drill.Drills;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code runaway drill} as a user types it, on real drills capped at 12 tasks. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("process")
class DrillCommandTest {

    private record Run(int status, String out, String err) {
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = Main.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int status = cli.execute(args);
        return new Run(status, out.toString(), err.toString());
    }

    @Test
    void detachListAndStopById() {
        Run started = run("drill", "fanout", "--max-tasks", "12", "--detach", "--lifetime", "2m");
        assertThat(started.status()).as(started.err()).isZero();
        Matcher id = Pattern.compile("runaway drill --stop (drill-fanout-[0-9a-f]{4})").matcher(started.out());
        assertThat(id.find()).as(started.out()).isTrue();
        try {
            assertThat(started.out()).contains("cap:       12 tasks").contains("pids.max 12");
            Run list = run("drill", "--list");
            assertThat(list.status()).isZero();
            assertThat(list.out()).contains(id.group(1)).contains("fanout");

            Run stopped = run("drill", "--stop", id.group(1));
            assertThat(stopped.status()).as(stopped.err()).isZero();
            assertThat(stopped.out()).contains("zero confirmed");
            assertThat(run("drill", "--list").out()).doesNotContain(id.group(1));

            Run again = run("drill", "--stop", id.group(1));
            assertThat(again.status()).isEqualTo(3);
            assertThat(again.err()).contains("no drill '" + id.group(1) + "' is running");
        } finally {
            Drills.stop(id.group(1));
        }
    }

    @Test
    void linesViewRunsToTheLifetimeThenTearsDownAndReportsThePeak() {
        Run run = run("drill", "fanout", "--max-tasks", "12", "--view", "lines", "--lifetime", "4s");
        assertThat(run.status()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("tasks    12 / 12").contains("Tore down").contains("zero confirmed")
                .contains("Peak: 12 tasks");
    }

    @Test
    void unknownScenarioAndBadCapAreRefusedInWords() {
        Run unknown = run("drill", "forkbomb");
        assertThat(unknown.status()).isEqualTo(2);
        assertThat(unknown.err()).contains("unknown drill 'forkbomb'").contains("linear, orphans, recursive, fanout");
        Run zero = run("drill", "linear", "--max-tasks", "0");
        assertThat(zero.status()).isEqualTo(2);
        assertThat(zero.err()).contains("--max-tasks must be at least 1");
        Run none = run("drill");
        assertThat(none.status()).isEqualTo(2);
        Run badLifetime = run("drill", "linear", "--lifetime", "soon");
        assertThat(badLifetime.status()).isEqualTo(2);
        assertThat(badLifetime.err()).contains("not a duration");
    }
}
