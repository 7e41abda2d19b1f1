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

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code -S} as fi_pingpong reads it (default sizes, {@code all}, one size) plus comma lists.
 */
class SizeListTest
{
    @Test
    void shouldTestFiPingpongsDefaultSizesWithoutS()
    {
        final SizeList sizes = SizeList.parse(null);
        assertArrayEquals(new int[]{64, 256, 1024, 4096, 65536, 1048576}, sizes.sizes());
        assertNull(sizes.spec());
    }

    @Test
    void shouldTestBwsOwnDefaultSizesWithoutSUpToMaxMsgSize()
    {
        assertArrayEquals(new int[]{64, 4096, 65536, 1048576},
            SizeList.parse(null, SizeList.MAX_BUFFER_SIZE, SizeList.BW_DEFAULT_SIZES).sizes());
        assertArrayEquals(new int[]{64, 4096}, SizeList.parse(null, 65535, SizeList.BW_DEFAULT_SIZES).sizes());
        assertNull(SizeList.parse(null, 65535, SizeList.BW_DEFAULT_SIZES).spec(), "the server applies them too");
        assertArrayEquals(new int[]{8}, SizeList.parse("8", 65535, SizeList.BW_DEFAULT_SIZES).sizes());
    }

    @Test
    void shouldListPowersOfTwoAndTheirHalfUpsForAll()
    {
        final int[] all = SizeList.parse("all").sizes();
        assertArrayEquals(new int[]{0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96},
            Arrays.copyOf(all, 14));
        assertEquals(4194304, all[all.length - 2]);
        assertEquals(6291456, all[all.length - 1], "fi_pingpong's largest message, (1 << 22) + (1 << 21)");
        assertEquals(2 + 2 * 22, all.length);
        assertArrayEquals(all, SizeList.parse("ALL").sizes());
    }

    @Test
    void shouldStopAllAtTheLimitBetweenAPowerAndItsHalfUp()
    {
        assertArrayEquals(new int[]{0, 1, 2, 3, 4, 6, 8}, SizeList.allSizes(11));
        assertArrayEquals(new int[]{0, 1, 2, 3, 4, 6, 8, 12}, SizeList.allSizes(12));
    }

    @Test
    void shouldKeepTheOrderOfAList()
    {
        final SizeList sizes = SizeList.parse("4096,64,0");
        assertArrayEquals(new int[]{4096, 64, 0}, sizes.sizes());
        assertEquals(4096, sizes.max());
        assertEquals("4096,64,0", sizes.spec());
        assertArrayEquals(new int[]{64}, SizeList.parse("64").sizes());
    }

    @Test
    void shouldDropSizesAboveMaxMsgSizeAsFiPingpongDoes()
    {
        assertArrayEquals(new int[]{64, 256, 1024, 4096}, SizeList.parse(null).within(4096).sizes());
        assertEquals(0, SizeList.parse("8192").within(4096).count());
    }

    @Test
    void shouldDigestEveryListDifferentlyAndShortly()
    {
        final String all = SizeList.parse("all").digest();
        assertTrue(all.startsWith("46 sizes 0..6291456 crc "), all);
        assertTrue(all.length() < 64, all);
        assertEquals(SizeList.parse("64,128").digest(), SizeList.parse("64,128").digest());
        assertTrue(!SizeList.parse("64,128").digest().equals(SizeList.parse("128,64").digest()));
        assertTrue(!SizeList.parse("64,96,128").digest().equals(SizeList.parse("64,97,128").digest()));
    }

    @Test
    void shouldReadKMAndGSuffixesAsPowersOf1024AsAgronasParseSizeDoes()
    {
        assertArrayEquals(new int[]{4096, 4096, 65536, 1048576, 0, 64}, SizeList.parse("4k,4K,64k,1m,0,64").sizes());
        assertArrayEquals(new int[]{1 << 30}, SizeList.parse("1g", 1L << 30).sizes());
        assertEquals("4k,1m", SizeList.parse("4k,1m").spec(), "the server is given -S as the client got it");
    }

    @Test
    void shouldRefuseAGivenSizeAboveMaxMsgSizeNamingTheSizeAndTheLimit()
    {
        final IllegalArgumentException above = assertThrows(IllegalArgumentException.class,
            () -> SizeList.parse("64,2000000000", 1L << 30));
        assertTrue(above.getMessage().contains("2000000000") && above.getMessage().contains("1073741824") &&
            above.getMessage().contains("max_msg_size"), above.getMessage());
        final IllegalArgumentException suffixed = assertThrows(IllegalArgumentException.class,
            () -> SizeList.parse("8k", 4096));
        assertTrue(suffixed.getMessage().contains("8k (8192)") && suffixed.getMessage().contains("4096"),
            suffixed.getMessage());
        assertArrayEquals(new int[]{4096}, SizeList.parse("4k", 4096).sizes(), "the limit itself is allowed");
    }

    @Test
    void shouldRefuseASizeBeyondAJavaBufferWhateverMaxMsgSizeSays()
    {
        final IllegalArgumentException beyond = assertThrows(IllegalArgumentException.class,
            () -> SizeList.parse("2g", Long.MAX_VALUE));
        assertTrue(beyond.getMessage().contains("2g (2147483648)") &&
            beyond.getMessage().contains(Integer.toString(Integer.MAX_VALUE)), beyond.getMessage());
    }

    @Test
    void shouldDropDefaultAndAllSizesAboveMaxMsgSizeAsFiPingpongDoes()
    {
        assertArrayEquals(new int[]{64, 256, 1024, 4096}, SizeList.parse(null, 4096).sizes());
        assertArrayEquals(SizeList.allSizes(12), SizeList.parse("all", 12).sizes());
    }

    @Test
    void shouldRefuseWhatIsNotASize()
    {
        final IllegalArgumentException word = assertThrows(IllegalArgumentException.class,
            () -> SizeList.parse("64,big"));
        assertTrue(word.getMessage().contains("'big'"), word.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SizeList.parse("-1"));
        assertThrows(IllegalArgumentException.class, () -> SizeList.parse("64,,128"));
        assertThrows(IllegalArgumentException.class, () -> SizeList.parse("4294967296"));
        for (final String bad : new String[]{"4kb", "1t", "4.5k", "k", "0x10", " ", "+5"})
        {
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                () -> SizeList.parse(bad), bad);
            assertTrue(ex.getMessage().contains("'" + bad + "'") && ex.getMessage().contains("k, m or g"),
                ex.getMessage());
        }
    }
}
