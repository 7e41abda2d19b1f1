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
package io.jfabric.tools.pingpong;

import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.DelegatingProgressBarConsumer;
import me.tongfei.progressbar.ProgressBarStyle;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The client's progress bar: drawn by the library from the count the run stores, only for the client of a run that
 * is not quiet and only on a terminal or with {@code --progress}, after a delay; taken off the line before a result
 * is printed.
 */
class ProgressMeterTest
{
    private static final PingpongOptions OPTIONS = options(false);
    private static final PingpongOptions FORCED = options(true);

    private static PingpongOptions options(final boolean progress)
    {
        return new PingpongOptions.Builder()
            .sizes(SizeList.parse("64"))
            .warmup(Warmup.of(1))
            .domain("pp")
            .progress(progress)
            .build();
    }

    @Test
    void shouldDrawForTheClientOnlyWithProgressOrOnATerminal()
    {
        final PrintWriter err = new PrintWriter(new StringWriter());
        final boolean terminal = ProgressMeter.stderrIsTerminal();
        try (ProgressMeter meter = ProgressMeter.open(OPTIONS, Role.CLIENT, false, "round trips", 100, err))
        {
            assertEquals(terminal, meter.drawing(), "without --progress, only on a terminal");
        }
        try (ProgressMeter meter = ProgressMeter.open(FORCED, Role.CLIENT, false, "round trips", 100, err))
        {
            assertTrue(meter.drawing(), "--progress");
        }
        try (ProgressMeter meter = ProgressMeter.open(FORCED, Role.SERVER, false, "round trips", 100, err))
        {
            assertFalse(meter.drawing(), "never the server");
        }
        try (ProgressMeter meter = ProgressMeter.open(FORCED, Role.CLIENT, true, "round trips", 100, err))
        {
            assertFalse(meter.drawing(), "never a quiet side");
        }
    }

    @Test
    void shouldDrawNothingBeforeTheDelay() throws Exception
    {
        final List<String> lines = new CopyOnWriteArrayList<>();
        try (ProgressMeter meter = new ProgressMeter("pingpong", "round trips", 100, 60_000, 50,
            ProgressBarStyle.ASCII,
            () -> new ProgressMeter.ClearedConsumer(new DelegatingProgressBarConsumer(lines::add, 100), false)))
        {
            meter.reached(50);
            Thread.sleep(5 * ProgressMeter.REFRESH_MILLIS);
        }
        assertEquals(List.of(), lines);
    }

    @Test
    void shouldShowTheCountTheRunReachedAsLinesWhenStderrIsNoTerminal() throws Exception
    {
        final List<String> lines = new CopyOnWriteArrayList<>();
        final StringWriter results = new StringWriter();
        try (ProgressMeter meter = new ProgressMeter("bw", "transfers", 1000, 0, 50, ProgressBarStyle.ASCII,
            () -> new ProgressMeter.ClearedConsumer(new DelegatingProgressBarConsumer(lines::add, 100), false)))
        {
            meter.stage("size 4k");
            meter.reached(250);
            awaitLine(lines, "250/1000 transfers", "size 4k");
            meter.print(new PrintWriter(results), "4k      1k ...\n");
            meter.reached(1000);
            awaitLine(lines, "1000/1000 transfers");
        }
        assertEquals("4k      1k ...\n", results.toString(), "results go out as they are");
        final String line = lines.stream().filter(text -> text.contains("250/1000")).findFirst().orElseThrow();
        assertTrue(line.matches("bw +25% \\[=+>? *\\] +250/1000 transfers \\(.*"),
            "ASCII, as a log takes it: " + line);
    }

    @Test
    void shouldTakeTheBarOffTheTerminalLineBeforeAResultAndLeaveNoEmptyLine() throws Exception
    {
        final ByteArrayOutputStream terminal = new ByteArrayOutputStream();
        final PrintStream stream = new PrintStream(terminal, true, StandardCharsets.UTF_8);
        final StringWriter results = new StringWriter();
        try (ProgressMeter meter = new ProgressMeter("pingpong", "round trips", 1000, 0, 50,
            ProgressBarStyle.COLORFUL_UNICODE_BLOCK,
            () -> new ProgressMeter.ClearedConsumer(new ConsoleProgressBarConsumer(stream, 60), true)))
        {
            meter.reached(500);
            final long deadline = System.nanoTime() + 10_000_000_000L;
            while (!terminal.toString(StandardCharsets.UTF_8).contains("500/1000"))
            {
                assertTrue(System.nanoTime() - deadline < 0, "no bar in 10 s");
                Thread.sleep(10);
            }
            final String[] drawnBeforeTheResult = new String[1];
            final PrintWriter out = new PrintWriter(results)
            {
                @Override
                public void write(final String text)
                {
                    drawnBeforeTheResult[0] = terminal.toString(StandardCharsets.UTF_8);
                    super.write(text);
                }
            };
            meter.print(out, "64 ...\n");
            final String drawn = drawnBeforeTheResult[0];
            assertTrue(drawn.contains("pingpong") && drawn.contains("500/1000 round trips"), drawn);
            assertTrue(drawn.endsWith("\r" + " ".repeat(60) + "\r"), "cleared by the library: " + drawn);
        }
        assertFalse(terminal.toString(StandardCharsets.UTF_8).contains("\n"), "no line left behind");
        assertEquals("64 ...\n", results.toString());
    }

    private static void awaitLine(final List<String> lines, final String... texts) throws InterruptedException
    {
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (lines.stream().noneMatch(line -> java.util.Arrays.stream(texts).allMatch(line::contains)))
        {
            assertTrue(System.nanoTime() - deadline < 0, "no line with " + List.of(texts) + " in 10 s: " + lines);
            Thread.sleep(10);
        }
    }
}
