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
import io.jfabric.Fid;
import io.jfabric.Flags;
import io.jfabric.WaitObj;
import io.jfabric.shm.config.ShmConfig;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

class ShmEventQueueReadWriteTest
{
    private static final ShmConfig CONFIG = TestFabricFid.config(1024, 64);
    private static final int NOTIFY = EqEvent.NOTIFY.value();

    private final TestFabricFid fabric = new TestFabricFid();
    private final ShmEventQueue eq = open(32, Flags.FI_WRITE, WaitObj.NONE);
    private final EqEntry entry = new EqEntry();

    @AfterEach
    void close()
    {
        eq.close();
    }

    @Test
    void shouldReadWrittenEventsInOrderPeekingFirst()
    {
        // fabtests unit/eq_test.c eq_write_read_self: 5 events, fids alternating EQ/fabric, every read peeked first.
        for (int i = 0; i < 5; i++)
        {
            final Fid fid = (i & 1) != 0 ? fabric : eq;
            assertEquals(1, eq.write(NOTIFY, new EqEntry().fid(fid).context(i), 0));
        }

        for (int i = 0; i < 10; i++)
        {
            entry.set(-1, null, -1, -1);
            assertEquals(1, eq.read(entry, (i & 1) != 0 ? 0 : Flags.FI_PEEK));
            assertEquals(NOTIFY, entry.event());
            assertEquals(i / 2, entry.context());
            assertSame((i & 2) != 0 ? fabric : eq, entry.fid());
        }

        assertEquals(-Errno.FI_EAGAIN, eq.read(entry, 0));
    }

    @Test
    void shouldHoldExactlySizeEvents()
    {
        // eq_test.c eq_size_verify: an EQ of size 32 accepts 32 writes.
        for (int i = 0; i < 32; i++)
        {
            assertEquals(1, eq.write(NOTIFY, entry.context(i), 0), "write " + i);
        }

        assertEquals(-Errno.FI_EAGAIN, eq.write(NOTIFY, entry, 0));
        assertEquals(32, eq.depth());
    }

    @Test
    void shouldAcceptWriteAgainOnceAnEventIsRead()
    {
        for (int i = 0; i < 32; i++)
        {
            eq.write(NOTIFY, entry.context(i), 0);
        }
        assertEquals(-Errno.FI_EAGAIN, eq.write(NOTIFY, entry, 0));

        assertEquals(1, eq.read(entry, 0));
        assertEquals(0, entry.context());
        assertEquals(1, eq.write(NOTIFY, entry.context(32), 0));
        assertEquals(false, eq.isOverrun());
    }

    @Test
    void shouldLeavePeekedEventsForTheNextRead()
    {
        // eq_test.c eq_wait_read_peek: peek at 5 events, then read the same 5.
        for (int i = 0; i < 5; i++)
        {
            eq.write(NOTIFY, entry.context(i), 0);
        }
        for (int i = 0; i < 5; i++)
        {
            assertEquals(1, eq.read(entry, Flags.FI_PEEK));
            assertEquals(0, entry.context());
        }
        for (int i = 0; i < 5; i++)
        {
            assertEquals(1, eq.read(entry, 0));
            assertEquals(i, entry.context());
        }
        assertEquals(-Errno.FI_EAGAIN, eq.read(entry, Flags.FI_PEEK));
    }

    @Test
    void shouldCarryEventTypeFidContextAndData()
    {
        final EqEntry written = new EqEntry().event(NOTIFY).fid(fabric).context(7).data(0x1234_5678_9ABCL);

        assertEquals(1, eq.write(EqEvent.JOIN_COMPLETE.value(), written, 0));
        assertEquals(1, eq.read(entry, 0));

        assertEquals(EqEvent.JOIN_COMPLETE.value(), entry.event());
        assertSame(fabric, entry.fid());
        assertEquals(7, entry.context());
        assertEquals(0x1234_5678_9ABCL, entry.data());
    }

    @Test
    void shouldCopyTheWrittenEntrySoTheHolderCanBeReused()
    {
        final EqEntry holder = new EqEntry();
        eq.write(NOTIFY, holder.context(1), 0);
        eq.write(NOTIFY, holder.context(2), 0);

        eq.read(entry, 0);
        assertEquals(1, entry.context());
        eq.read(entry, 0);
        assertEquals(2, entry.context());
    }

    @Test
    void shouldLeaveTheEntryUntouchedWhenNothingIsRead()
    {
        entry.set(9, fabric, 9, 9);

        assertEquals(-Errno.FI_EAGAIN, eq.read(entry, 0));

        assertEquals(9, entry.event());
        assertSame(fabric, entry.fid());
    }

    @Test
    void shouldReturnEagainFromReadErrWhenNoErrorIsQueued()
    {
        // eq_test.c eq_readerr_ret_eagain: write 5, read 5, readerr returns -FI_EAGAIN.
        for (int i = 0; i < 5; i++)
        {
            eq.write(NOTIFY, entry, 0);
        }
        for (int i = 0; i < 5; i++)
        {
            assertEquals(1, eq.read(entry, 0));
        }

        assertEquals(-Errno.FI_EAGAIN, eq.readErr(new EqErrEntry(), 0));
    }

    @Test
    void shouldReturnEagainFromReadErrWhileOnlyEventsAreQueued()
    {
        eq.write(NOTIFY, entry, 0);

        assertEquals(-Errno.FI_EAGAIN, eq.readErr(new EqErrEntry(), 0));
        assertEquals(1, eq.read(entry, 0));
    }

    @Test
    void shouldReturnEinvalFromWriteWithoutFiWrite()
    {
        try (ShmEventQueue readOnly = open(8, 0, WaitObj.NONE))
        {
            assertEquals(-Errno.FI_EINVAL, readOnly.write(NOTIFY, entry, 0));
            assertEquals(-Errno.FI_EAGAIN, readOnly.read(entry, 0));
        }
    }

    @Test
    void shouldStillDeliverProviderEventsWithoutFiWrite()
    {
        try (ShmEventQueue readOnly = open(8, 0, WaitObj.NONE))
        {
            assertEquals(0, readOnly.postEvent(EqEvent.MR_COMPLETE.value(), fabric, 3, 0));
            assertEquals(1, readOnly.read(entry, 0));
            assertEquals(EqEvent.MR_COMPLETE.value(), entry.event());
            assertEquals(3, entry.context());
        }
    }

    @Test
    void shouldReturnEbadflagsForFlagsTheCallDoesNotTake()
    {
        assertEquals(-Errno.FI_EBADFLAGS, eq.write(NOTIFY, entry, Flags.FI_PEEK));
        assertEquals(-Errno.FI_EBADFLAGS, eq.read(entry, Flags.FI_WRITE));
        assertEquals(-Errno.FI_EBADFLAGS, eq.readErr(new EqErrEntry(), Flags.FI_MORE));
        assertEquals(0, eq.depth());
    }

    @Test
    void shouldReturnEinvalForANullHolder()
    {
        assertEquals(-Errno.FI_EINVAL, eq.write(NOTIFY, null, 0));
        assertEquals(-Errno.FI_EINVAL, eq.read(null, 0));
        assertEquals(-Errno.FI_EINVAL, eq.readErr(null, 0));
        assertEquals(-Errno.FI_EINVAL, eq.sread(null, 0, 0));
    }

    @Test
    void shouldKeepOrderAcrossManyWrapsOfTheRing()
    {
        for (int i = 0; i < 30; i++)
        {
            assertEquals(1, eq.write(NOTIFY, entry.context(i), 0));
        }
        for (int i = 30; i < 2030; i++)
        {
            assertEquals(1, eq.write(NOTIFY, entry.context(i), 0));
            assertEquals(1, eq.read(entry, 0));
            assertEquals(i - 30, entry.context());
        }
        for (int i = 2000; i < 2030; i++)
        {
            assertEquals(1, eq.read(entry, 0));
            assertEquals(i, entry.context());
        }
        entry.clear();
        assertEquals(-Errno.FI_EAGAIN, eq.read(entry, 0));
        assertNull(entry.fid());
    }

    private ShmEventQueue open(final int size, final long flags, final WaitObj waitObj)
    {
        return new ShmEventQueue(fabric, new EqAttr().size(size).flags(flags).waitObj(waitObj), 0, CONFIG);
    }
}
