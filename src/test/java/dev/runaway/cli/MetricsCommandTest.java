package dev.runaway.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What {@code runaway metrics} accepts on its command line, and what it refuses before it starts anything. */
class MetricsCommandTest {
    private final MetricsCommand.Listen listen = new MetricsCommand.Listen();

    @Test
    void addressesAsPeopleWriteThem() {
        InetSocketAddress v4 = listen.convert("127.0.0.1:9936");
        assertThat(v4.getAddress().getHostAddress()).isEqualTo("127.0.0.1");
        assertThat(v4.getPort()).isEqualTo(9936);
        assertThat(listen.convert("[::1]:9000").getAddress().getHostAddress()).isEqualTo("0:0:0:0:0:0:0:1");
        assertThat(listen.convert(":9936").getAddress().isAnyLocalAddress()).isTrue();
        assertThat(listen.convert("127.0.0.1:0").getPort()).isZero();
    }

    @Test
    void badAddressesAreRefusedWithAnExample() {
        assertThatThrownBy(() -> listen.convert("9936")).hasMessageContaining("not ADDR:PORT (try 127.0.0.1:9936)");
        assertThatThrownBy(() -> listen.convert("127.0.0.1:http")).hasMessageContaining("not a port number");
        assertThatThrownBy(() -> listen.convert("127.0.0.1:70000")).hasMessageContaining("port out of range");
    }

    @Test
    void aTooShortIntervalOrANegativeTopIsAUsageError() {
        assertThat(run("metrics", "--textfile", "/tmp", "--interval", "10ms")).contains("the interval must be at least 100 ms");
        assertThat(run("metrics", "--top", "-1")).contains("--top must be 0 or more");
    }

    private static String run(String... args) {
        StringWriter err = new StringWriter();
        CommandLine cli = Main.commandLine();
        cli.setErr(new PrintWriter(err));
        int status = cli.execute(args);
        assertThat(status).isEqualTo(2);
        return err.toString();
    }
}
