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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Reads back a {@code .hgrm} file as a plotter would, checking its shape on the way: the comment line, the column
 * header, rows of value, percentile, total count (and 1/(1-percentile) but on the last), values and percentiles
 * never decreasing, and the footer's total count. For the tests; one thread.
 */
final class HgrmParse
{
    private static final Pattern FOOTER_COUNT =
        Pattern.compile("#\\[Max\\s+=\\s+([0-9.]+), Total count\\s+=\\s+(\\d+)]");

    String header;
    int rows;
    double firstValue;
    double lastValue;
    double lastPercentile;
    long lastTotalCount;
    long footerTotalCount = -1;
    double footerMax;

    static HgrmParse read(final Path file) throws IOException
    {
        final List<String> lines = Files.readAllLines(file);
        final HgrmParse parsed = new HgrmParse();
        parsed.header = lines.get(0);
        assertTrue(lines.get(1).trim().matches("Value\\s+Percentile\\s+TotalCount\\s+1/\\(1-Percentile\\)"),
            lines.get(1));
        for (final String line : lines.subList(2, lines.size()))
        {
            final String trimmed = line.trim();
            if (trimmed.isEmpty())
            {
                continue;
            }
            if (trimmed.startsWith("#"))
            {
                final Matcher footer = FOOTER_COUNT.matcher(trimmed);
                if (footer.matches())
                {
                    parsed.footerMax = Double.parseDouble(footer.group(1));
                    parsed.footerTotalCount = Long.parseLong(footer.group(2));
                }
                continue;
            }
            final String[] columns = trimmed.split("\\s+");
            assertTrue(columns.length == 4 || columns.length == 3, line);
            final double value = Double.parseDouble(columns[0]);
            final double percentile = Double.parseDouble(columns[1]);
            final long totalCount = Long.parseLong(columns[2]);
            if (parsed.rows == 0)
            {
                parsed.firstValue = value;
            }
            else if (value < parsed.lastValue || percentile < parsed.lastPercentile ||
                totalCount < parsed.lastTotalCount)
            {
                fail("a row going down: " + line);
            }
            assertTrue(percentile >= 0 && percentile <= 1, line);
            parsed.rows++;
            parsed.lastValue = value;
            parsed.lastPercentile = percentile;
            parsed.lastTotalCount = totalCount;
        }
        assertEquals(1.0, parsed.lastPercentile, "the last row is the 100th percentile");
        return parsed;
    }
}
