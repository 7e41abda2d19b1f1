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

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class EqErrEntryTest
{
    @Test
    void shouldReceiveDefaultCapacityOfErrorData()
    {
        assertEquals(EqErrEntry.DEFAULT_ERR_DATA_CAPACITY, new EqErrEntry().errData().length);
    }

    @Test
    void shouldTruncateErrorDataToItsBuffer()
    {
        final byte[] detail = "0123456789".getBytes(StandardCharsets.US_ASCII);
        final EqErrEntry entry = new EqErrEntry(4);

        entry.set(null, 1, 2, Errno.FI_EIO, 99, detail, 0, detail.length);

        assertEquals(4, entry.errDataSize());
        assertArrayEquals("0123".getBytes(StandardCharsets.US_ASCII), entry.errData());
        assertEquals(Errno.FI_EIO, entry.err());
        assertEquals(99, entry.provErrno());
        assertEquals(1, entry.context());
        assertEquals(2, entry.data());
    }

    @Test
    void shouldZeroStaleBytesWhenShorterDataArrives()
    {
        final EqErrEntry entry = new EqErrEntry(8);
        final byte[] longer = "abcdefgh".getBytes(StandardCharsets.US_ASCII);
        final byte[] shorter = "xy".getBytes(StandardCharsets.US_ASCII);

        entry.set(null, 0, 0, Errno.FI_EIO, 0, longer, 0, longer.length);
        entry.set(null, 0, 0, Errno.FI_EIO, 0, shorter, 0, shorter.length);

        assertEquals(2, entry.errDataSize());
        assertArrayEquals(new byte[]{ 'x', 'y', 0, 0, 0, 0, 0, 0 }, entry.errData());
    }

    @Test
    void shouldCopyIntoAnotherEntryTruncatingToItsBuffer()
    {
        final byte[] detail = "detail".getBytes(StandardCharsets.US_ASCII);
        final EqErrEntry source = new EqErrEntry(16).set(null, 5, 6, Errno.FI_ENOMEM, 7, detail, 0, detail.length);
        final EqErrEntry target = new EqErrEntry(3);

        source.copyTo(target);

        assertEquals(5, target.context());
        assertEquals(6, target.data());
        assertEquals(Errno.FI_ENOMEM, target.err());
        assertEquals(7, target.provErrno());
        assertEquals(3, target.errDataSize());
        assertArrayEquals("det".getBytes(StandardCharsets.US_ASCII), target.errData());
    }

    @Test
    void shouldReceiveNoDataWithoutABuffer()
    {
        final byte[] detail = "x".getBytes(StandardCharsets.US_ASCII);
        final EqErrEntry entry = new EqErrEntry().errData(null);

        entry.set(null, 0, 0, Errno.FI_EIO, 0, detail, 0, 1);

        assertEquals(0, entry.errDataSize());
        assertEquals(0, entry.errData().length);
    }

    @Test
    void shouldUseTheCallersBuffer()
    {
        final byte[] buffer = new byte[2];
        final EqErrEntry entry = new EqErrEntry().errData(buffer);

        entry.set(null, 0, 0, Errno.FI_EIO, 0, new byte[]{ 9, 9, 9 }, 0, 3);

        assertArrayEquals(new byte[]{ 9, 9 }, buffer);
    }

    @Test
    void shouldClearEveryFieldAndTheBuffer()
    {
        final EqErrEntry entry = new EqErrEntry(2).set(null, 1, 1, Errno.FI_EIO, 1, new byte[]{ 1, 1 }, 0, 2);

        entry.clear();

        assertNull(entry.fid());
        assertEquals(0, entry.err());
        assertEquals(0, entry.errDataSize());
        assertArrayEquals(new byte[2], entry.errData());
    }

    @Test
    void shouldRefuseANegativeCapacityAndARangeOutsideTheSource()
    {
        assertThrows(IllegalArgumentException.class, () -> new EqErrEntry(-1));
        assertThrows(IndexOutOfBoundsException.class,
            () -> new EqErrEntry().set(null, 0, 0, Errno.FI_EIO, 0, new byte[2], 1, 2));
    }
}
