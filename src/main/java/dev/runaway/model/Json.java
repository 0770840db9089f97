// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

import java.io.IOException;

/**
 * The configured JSON mappers, one per format, defined once. Each is configured here and never
 * again (a mapper is shared between threads: nobody may change its configuration after this).
 */
public final class Json {
    /**
     * Trees and lines: recordings (one compact object a line), the lineage log, journalctl's
     * output, {@code scan --json}'s and {@code stop --json}'s trees. No modules: trees only.
     */
    public static final ObjectMapper TREES = new ObjectMapper();

    /** Pretty output of a command's {@code --json} (two-space indent, as Jackson's default). */
    public static final ObjectWriter PRETTY = TREES.writerWithDefaultPrettyPrinter();

    /**
     * State files of records with times ({@code held.json}, {@code drill.json}): ISO-8601 times,
     * every field written.
     */
    public static final ObjectMapper STATE = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

    /** {@link #STATE} indented, for files a person reads ({@code drill.json}). */
    public static final ObjectWriter STATE_PRETTY = STATE.writerWithDefaultPrettyPrinter();

    /**
     * {@code guard --status --json}: times as epoch seconds with nanoseconds (Jackson's default,
     * which that output has always had; {@code held.json} writes the same records in ISO-8601).
     */
    public static final ObjectMapper EPOCH_TIMES = new ObjectMapper().registerModule(new JavaTimeModule())
            .registerModule(new Jdk8Module());

    /**
     * The incident export (docs/export.md): ISO-8601 times, optionals unwrapped, a figure not
     * measured (NaN, infinite) as null, and fields with nothing in them left out.
     */
    public static final ObjectMapper DOCUMENT = new ObjectMapper().registerModule(new JavaTimeModule()).registerModule(new Jdk8Module())
            .registerModule(new SimpleModule().addSerializer(Double.class, new Finite()).addSerializer(double.class, new Finite()))
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .setSerializationInclusion(JsonInclude.Include.NON_EMPTY);

    private Json() {
    }

    /** NaN and infinities are not JSON numbers: a figure not measured is written as null. */
    private static final class Finite extends JsonSerializer<Double> {
        @Override
        public void serialize(Double value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            if (value == null || value.isNaN() || value.isInfinite()) gen.writeNull();
            else gen.writeNumber(value);
        }
    }
}
