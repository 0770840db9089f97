package dev.runaway.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/** HTTP on 127.0.0.1 for the tests: free ports, GETs that never throw for a refused connection. */
final class Loopback {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    private Loopback() {
    }

    /** A port free now (the kernel's pick); the caller binds it right after. */
    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** The body of a 200 answer; empty when refused, failed or not 200. */
    static Optional<String> get(int port, String pathAndQuery) {
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + pathAndQuery))
                    .timeout(Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? Optional.of(r.body()) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    static Optional<JsonNode> json(int port, String pathAndQuery) {
        return get(port, pathAndQuery).map(body -> {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON from " + pathAndQuery + ": " + body, e);
            }
        });
    }

    static String encode(String query) {
        return URLEncoder.encode(query, StandardCharsets.UTF_8);
    }
}
