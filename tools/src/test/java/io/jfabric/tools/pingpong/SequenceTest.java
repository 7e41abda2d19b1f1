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

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * Where a write ping-pong's message carries its sequence number, and the byte that stands for it below 8 bytes.
 */
class SequenceTest
{
    @Test
    void shouldPutTheNumberInTheLastAlignedWordOrBelowEightBytesTheLastByte()
    {
        assertEquals(0, PingpongEndpoint.sequenceOffset(1));
        assertEquals(6, PingpongEndpoint.sequenceOffset(7));
        assertEquals(0, PingpongEndpoint.sequenceOffset(8));
        assertEquals(0, PingpongEndpoint.sequenceOffset(12), "the last word wholly in 12 bytes starts at 0");
        assertEquals(8, PingpongEndpoint.sequenceOffset(16));
        assertEquals(56, PingpongEndpoint.sequenceOffset(64));
        assertEquals((1 << 20) - 8, PingpongEndpoint.sequenceOffset(1 << 20));
        for (int size = 8; size < 200; size++)
        {
            final int offset = PingpongEndpoint.sequenceOffset(size);
            assertEquals(0, offset % 8, "aligned: " + size);
            assertEquals(true, offset + 8 <= size && offset + 16 > size, "the last aligned word of " + size);
        }
    }

    @Test
    void shouldNeverStandForANumberByZeroOrByThePreviousNumbersByte()
    {
        for (long sequence = 1; sequence < 2000; sequence++)
        {
            assertNotEquals(0, PingpongEndpoint.sequenceByte(sequence), "0 is what a cleared byte holds");
            assertNotEquals(PingpongEndpoint.sequenceByte(sequence - 1), PingpongEndpoint.sequenceByte(sequence));
        }
    }
}
