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
package io.jfabric.shm.eq;

import io.jfabric.EqAttr;
import io.jfabric.EqEntry;
import io.jfabric.EqErrEntry;
import io.jfabric.EqEvent;
import io.jfabric.Errno;
import io.jfabric.Flags;
import io.jfabric.WaitObj;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

class ShmEventQueueErrorTest
{
    private static final int MAX_ERR_DATA = 16;

    private final TestFabricFid fabric = new TestFabricFid();
    private final ShmEventQueue eq = new ShmEventQueue(
        fabric, new EqAttr().size(8).flags(Flags.FI_WRITE).waitObj(WaitObj.UNSPEC), 0,
        TestFabricFid.config(64, MAX_ERR_DATA));
    private final EqEntry entry = new EqEntry();
    private final EqErrEntry err = new EqErrEntry();

    @AfterEach
    void close()
    {
        eq.close();
    }

    @Test
    void shouldReturnEavailWhenErrorAtHead()
    {
        assertEquals(0, eq.postError(fabric, 5, 6, Errno.FI_EIO, Errno.FI_EIO, "boom"));

        assertEquals(-Errno.FI_EAVAIL, eq.read(entry, 0));
        assertEquals(-Errno.FI_EAVAIL, eq.read(entry, Flags.FI_PEEK));
        assertEquals(-Errno.FI_EAVAIL, eq.sread(entry, 0, 0));
    }

    @Test
    void shouldReportErrorsAheadOfEventsQueuedBeforeThem()
    {
        // fi_eq(3): errors go to a temporary error queue; reading while it holds an item fails with FI_EAVAIL.
        eq.postEvent(EqEvent.MR_COMPLETE.value(), fabric, 1, 0);
        eq.postError(fabric, 2, 0, Errno.FI_ENOMEM, Errno.FI_ENOMEM, "no key");

        assertEquals(-Errno.FI_EAVAIL, eq.read(entry, 0));
        assertEquals(1, eq.readErr(err, 0));
        assertEquals(2, err.context());

        assertEquals(1, eq.read(entry, 0));
        assertEquals(1, entry.context());
        assertEquals(-Errno.FI_EAGAIN, eq.read(entry, 0));
    }

    @Test
    void shouldFillEveryFieldOfTheErrorEntry()
    {
        eq.postError(fabric, 0xABC, 42, Errno.FI_EKEYREJECTED, 1234, "key 7 rejected");

        assertEquals(1, eq.readErr(err, 0));

        assertSame(fabric, err.fid());
        assertEquals(0xABC, err.context());
        assertEquals(42, err.data());
        assertEquals(Errno.FI_EKEYREJECTED, err.err());
        assertEquals(1234, err.provErrno());
        assertEquals("key 7 rejected".length(), err.errDataSize());
        assertEquals("key 7 rejected", new String(err.errData(), 0, err.errDataSize(), StandardCharsets.UTF_8));
    }

    @Test
    void shouldReadErrorsInOrderAndThenReturnEagain()
    {
        eq.postError(fabric, 1, 0, Errno.FI_EIO, 0, (String)null);
        eq.postError(fabric, 2, 0, Errno.FI_EIO, 0, (String)null);

        assertEquals(1, eq.readErr(err, 0));
        assertEquals(1, err.context());
        assertEquals(1, eq.readErr(err, 0));
        assertEquals(2, err.context());
        assertEquals(-Errno.FI_EAGAIN, eq.readErr(err, 0));
        assertEquals(-Errno.FI_EAGAIN, eq.read(entry, 0));
    }

    @Test
    void shouldLeavePeekedErrorQueued()
    {
        eq.postError(fabric, 9, 0, Errno.FI_EIO, 0, "x");

        assertEquals(1, eq.readErr(err, Flags.FI_PEEK));
        assertEquals(9, err.context());
        assertEquals(-Errno.FI_EAVAIL, eq.read(entry, 0));
        assertEquals(1, eq.readErr(err, 0));
        assertEquals(-Errno.FI_EAGAIN, eq.readErr(err, 0));
    }

    @Test
    void shouldKeepAtMostMaxErrDataBytesCutOnACharacterBoundary()
    {
        // 15 ASCII bytes then a 2-byte character: the 16-byte limit falls inside it, so 15 bytes are kept.
        eq.postError(fabric, 0, 0, Errno.FI_EIO, 0, "abcdefghijklmno\u00e9tail");

        final EqErrEntry large = new EqErrEntry(256);
        assertEquals(1, eq.readErr(large, 0));
        assertEquals(15, large.errDataSize());
        assertEquals("abcdefghijklmno", new String(large.errData(), 0, 15, StandardCharsets.UTF_8));
    }

    @Test
    void shouldTruncateErrorDataToTheReadersBuffer()
    {
        eq.postError(fabric, 0, 0, Errno.FI_EIO, 0, "0123456789");

        final EqErrEntry small = new EqErrEntry(4);
        assertEquals(1, eq.readErr(small, 0));
        assertEquals(4, small.errDataSize());
        assertArrayEquals("0123".getBytes(StandardCharsets.US_ASCII), small.errData());
    }

    @Test
    void shouldRefuseAnErrorWithoutAPositiveErrnoOrWithABadRange()
    {
        assertEquals(-Errno.FI_EINVAL, eq.postError(fabric, 0, 0, 0, 0, "zero"));
        assertEquals(-Errno.FI_EINVAL, eq.postError(fabric, 0, 0, -Errno.FI_EIO, 0, "negated"));
        assertEquals(-Errno.FI_EINVAL, eq.postError(fabric, 0, 0, Errno.FI_EIO, 0, new byte[4], 2, 3));
        assertEquals(-Errno.FI_EINVAL, eq.postError(fabric, 0, 0, Errno.FI_EIO, 0, null, 0, 1));
        assertEquals(-Errno.FI_EAGAIN, eq.readErr(err, 0));
    }

    @Test
    void shouldCountErrorsAgainstTheQueueSize()
    {
        for (int i = 0; i < 4; i++)
        {
            assertEquals(0, eq.postError(fabric, i, 0, Errno.FI_EIO, 0, "e"));
            assertEquals(1, eq.write(EqEvent.NOTIFY.value(), entry, 0));
        }

        assertEquals(-Errno.FI_EAGAIN, eq.write(EqEvent.NOTIFY.value(), entry, 0));
        assertEquals(8, eq.depth());
    }

    @Test
    void shouldPrintProviderErrnoAndErrorData()
    {
        eq.postError(fabric, 0, 0, Errno.FI_ENOMEM, Errno.FI_ENOMEM, "key table full");
        eq.readErr(err, 0);

        assertEquals("Cannot allocate memory: key table full", eq.strerror(err.provErrno(), err.errData()));
        assertEquals("Cannot allocate memory: key table full", eq.strerror(err));
    }

    @Test
    void shouldPrintJustTheErrnoWithoutErrorDataAndJustTheDataWithoutAnErrno()
    {
        assertEquals("Queue has been overrun", eq.strerror(Errno.FI_EOVERRUN, null));
        assertEquals("Queue has been overrun", eq.strerror(Errno.FI_EOVERRUN, new byte[8]));
        assertEquals("detail", eq.strerror(0, "detail".getBytes(StandardCharsets.UTF_8)));
    }
}
