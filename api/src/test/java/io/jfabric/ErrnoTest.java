/*
 * Copyright 2026 the jfabric authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 * https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.jfabric;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Pins {@link Errno} to libfabric 1.17 with {@code golden/strerror.tsv}, captured from the real
 * {@code fi_strerror}: one {@code NAME\tvalue\ttext} row per error name of rdma/fi_errno.h, and one
 * {@code #n\ttext} row for every number 0..299. Every name's constant, text, {@link Errno#name} and
 * {@link Errno#valueOf} are checked against it, and every number's text, positive and negated.
 */
class ErrnoTest
{
    /** A named row of the golden file. */
    static final class Named
    {
        final String name;
        final int value;
        final String text;

        Named(final String name, final int value, final String text)
        {
            this.name = name;
            this.value = value;
            this.text = text;
        }

        @Override
        public String toString()
        {
            return name;
        }
    }

    /** A numbered row of the golden file. */
    static final class Numbered
    {
        final int value;
        final String text;

        Numbered(final int value, final String text)
        {
            this.value = value;
            this.text = text;
        }

        @Override
        public String toString()
        {
            return "#" + value;
        }
    }

    private static final List<Named> NAMED = new ArrayList<>();
    private static final List<Numbered> NUMBERED = new ArrayList<>();

    static
    {
        try (InputStream in = ErrnoTest.class.getResourceAsStream("/golden/strerror.tsv"))
        {
            assertNotNull(in, "golden/strerror.tsv is on the test class path");
            final BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            String line;
            while ((line = reader.readLine()) != null)
            {
                if (line.isEmpty())
                {
                    continue;
                }
                final String[] parts = line.split("\t", -1);
                if (line.startsWith("#"))
                {
                    NUMBERED.add(new Numbered(Integer.parseInt(parts[0].substring(1)), parts[1]));
                }
                else
                {
                    NAMED.add(new Named(parts[0], Integer.parseInt(parts[1]), parts[2]));
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    static Stream<Named> named()
    {
        return NAMED.stream();
    }

    static Stream<Numbered> numbered()
    {
        return NUMBERED.stream();
    }

    @Test
    void shouldReadEveryRowOfTheGoldenFile()
    {
        assertEquals(57, NAMED.size(), "named rows");
        assertEquals(300, NUMBERED.size(), "numbered rows");
        for (int i = 0; i < NUMBERED.size(); i++)
        {
            assertEquals(i, NUMBERED.get(i).value, "numbered rows run 0..299 in order");
        }
    }

    @ParameterizedTest
    @MethodSource("numbered")
    void shouldGiveFiStrerrorsTextForEveryNumber(final Numbered row)
    {
        assertEquals(row.text, Errno.strerror(row.value));
    }

    @ParameterizedTest
    @MethodSource("numbered")
    void shouldGiveTheSameTextForTheNegatedNumber(final Numbered row)
    {
        assertEquals(row.text, Errno.strerror(-row.value));
    }

    @ParameterizedTest
    @MethodSource("named")
    void shouldDefineEveryNamedConstantWithLibfabricsValue(final Named row) throws ReflectiveOperationException
    {
        final Field field = Errno.class.getField(row.name);
        assertTrue(Modifier.isStatic(field.getModifiers()) && Modifier.isFinal(field.getModifiers()));
        assertEquals(row.value, field.getInt(null));
    }

    @ParameterizedTest
    @MethodSource("named")
    void shouldGiveFiStrerrorsTextForEveryName(final Named row)
    {
        assertEquals(row.text, Errno.strerror(row.value));
        assertEquals(row.text, Errno.strerror(-row.value));
    }

    @ParameterizedTest
    @MethodSource("named")
    void shouldRoundTripEveryNameThroughValueOfAndName(final Named row)
    {
        assertEquals(row.value, Errno.valueOf(row.name));
        assertEquals(row.value, Errno.valueOf(row.name.substring(3)), "without FI_");
        assertEquals(row.value, Errno.valueOf(row.name.toLowerCase(Locale.ROOT)), "lower case");
        assertEquals(row.value, Errno.valueOf(" " + row.name.substring(3).toLowerCase(Locale.ROOT) + " "),
            "trimmed");
        final String expectedName = "FI_EWOULDBLOCK".equals(row.name) ? "FI_EAGAIN" : row.name;
        assertEquals(expectedName, Errno.name(row.value));
        assertEquals(expectedName, Errno.name(-row.value));
        assertEquals(row.value, Errno.valueOf(Errno.name(row.value)));
    }

    @Test
    void shouldHaveAGoldenRowForEveryErrorConstant() throws ReflectiveOperationException
    {
        final Set<String> golden = new HashSet<>();
        NAMED.forEach(row -> golden.add(row.name));
        int constants = 0;
        for (final Field field : Errno.class.getFields())
        {
            final String name = field.getName();
            if (field.getType() == int.class && Modifier.isStatic(field.getModifiers()) &&
                !name.equals("FI_ERRNO_OFFSET") && !name.equals("FI_ERRNO_MAX"))
            {
                constants++;
                assertTrue(golden.contains(name), name + " has no row in golden/strerror.tsv");
            }
        }
        assertEquals(NAMED.size(), constants);
        assertEquals(256, Errno.FI_ERRNO_OFFSET);
        assertEquals(270, Errno.FI_ERRNO_MAX);
    }

    @Test
    void shouldNameExactlyTheNumbersLibfabricNames()
    {
        final Set<Integer> namedValues = new HashSet<>();
        NAMED.forEach(row -> namedValues.add(row.value));
        for (int e = 0; e < 300; e++)
        {
            if (namedValues.contains(e))
            {
                assertNotNull(Errno.name(e), "#" + e);
                assertEquals(e, Errno.valueOf(Errno.name(e)), "#" + e);
            }
            else
            {
                assertNull(Errno.name(e), "#" + e + " has no libfabric name");
                assertNull(Errno.name(-e), "-#" + e + " has no libfabric name");
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {300, 1000, 65536, Integer.MAX_VALUE, Integer.MIN_VALUE, -300})
    void shouldGiveUnspecifiedErrorBeyondTheLastNumber(final int errno)
    {
        assertEquals("Unspecified error", Errno.strerror(errno));
        assertNull(Errno.name(errno));
    }

    @ParameterizedTest
    @ValueSource(strings = {"FI_NOPE", "ENOTANERROR", "", "FI_", "FI_ERRNO_MAX", "FI_ERRNO_OFFSET", "EAGAINX"})
    void shouldReturnMinusOneForUnknownNames(final String name)
    {
        assertEquals(-1, Errno.valueOf(name));
    }

    @Test
    void shouldReturnMinusOneForNullName()
    {
        assertEquals(-1, Errno.valueOf(null));
    }

    @Test
    void shouldCarryThePositiveErrnoAndItsTextInFabricException()
    {
        final FabricException negated = new FabricException(-Errno.FI_EAGAIN, "ring full");
        assertEquals(Errno.FI_EAGAIN, negated.errno());
        assertEquals("ring full", negated.reason());
        assertEquals("ring full [FI_EAGAIN: Resource temporarily unavailable]", negated.getMessage());

        final FabricException unnamed = new FabricException(3, "odd");
        assertEquals("odd [errno 3: No such process]", unnamed.getMessage());
    }
}
