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

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --hgrm}'s file names (the size before the extension) and contents (HdrHistogram's percentile distribution
 * in ns under a comment line saying so).
 */
class HgrmFilesTest
{
    @Test
    void shouldInsertTheSizeBeforeTheExtension()
    {
        assertEquals(Path.of("/tmp/rtt-64.hgrm"), HgrmFiles.forSize(Path.of("/tmp/rtt.hgrm"), 64));
        assertEquals(Path.of("/tmp/rtt.x-4096.hgrm"), HgrmFiles.forSize(Path.of("/tmp/rtt.x.hgrm"), 4096));
        assertEquals(Path.of("/tmp/rtt-0"), HgrmFiles.forSize(Path.of("/tmp/rtt"), 0));
        assertEquals(Path.of("/a.b/.rtt-1048576"), HgrmFiles.forSize(Path.of("/a.b/.rtt"), 1048576));
        assertEquals(Path.of("rtt-64.txt"), HgrmFiles.forSize(Path.of("rtt.txt"), 64));
    }

    @Test
    void shouldWriteThePercentileDistributionInNanoseconds(@TempDir final Path dir) throws IOException
    {
        final Histogram rtt = new Histogram(1, PingpongRun.HISTOGRAM_MAX_NANOS, 3);
        for (int i = 1; i <= 1000; i++)
        {
            rtt.recordValue(200 + i);
        }
        final Path written = HgrmFiles.write(dir.resolve("rtt.hgrm"), 64, rtt);

        assertEquals(dir.resolve("rtt-64.hgrm"), written);
        final HgrmParse parsed = HgrmParse.read(written);
        assertEquals("# jfabric pingpong: round trips of 64-byte messages, Value in ns, 1000 round trips",
            parsed.header);
        assertEquals(1000, parsed.lastTotalCount);
        assertEquals(1000, parsed.footerTotalCount);
        assertEquals(201.0, parsed.firstValue, "values unscaled: ns");
        assertEquals(1200.0, parsed.lastValue, 1.0);
        assertTrue(parsed.rows > 10, () -> parsed.rows + " rows");
    }
}
