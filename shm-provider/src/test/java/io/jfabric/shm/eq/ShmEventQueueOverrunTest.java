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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * fi_eq(3) NOTES: an overrun EQ fails writes with FI_EOVERRUN, still returns every valid event, then reports an
 * FI_EOVERRUN error event; it is fatal.
 */
class ShmEventQueueOverrunTest
{
    private static final int MR_COMPLETE = EqEvent.MR_COMPLETE.value();

    private final TestFabricFid fabric = new TestFabricFid();
    private final ShmEventQueue eq = new ShmEventQueue(
        fabric, new EqAttr().size(4).flags(Flags.FI_WRITE).waitObj(WaitObj.UNSPEC), 0, TestFabricFid.config(64, 64));
    private final EqEntry entry = new EqEntry();
    private final EqErrEntry err = new EqErrEntry();

    @AfterEach
    void close()
    {
        eq.close();
    }

    @Test
    void shouldOverrunWhenTheProviderPostsToAFullQueue()
    {
        fill();

        assertEquals(-Errno.FI_EOVERRUN, eq.postEvent(MR_COMPLETE, fabric, 99, 0));
        assertTrue(eq.isOverrun());
    }

    @Test
    void shouldNotOverrunWhenTheApplicationWritesToAFullQueue()
    {
        fill();

        assertEquals(-Errno.FI_EAGAIN, eq.write(EqEvent.NOTIFY.value(), entry, 0));
        assertFalse(eq.isOverrun());
    }

    @Test
    void shouldFailWritesAndPostsWithEoverrunOnceOverrun()
    {
        fill();
        eq.postEvent(MR_COMPLETE, fabric, 99, 0);
        drainEvents(4);

        assertEquals(-Errno.FI_EOVERRUN, eq.write(EqEvent.NOTIFY.value(), entry, 0));
        assertEquals(-Errno.FI_EOVERRUN, eq.postEvent(MR_COMPLETE, fabric, 100, 0));
        assertEquals(-Errno.FI_EOVERRUN, eq.postError(fabric, 0, 0, Errno.FI_EIO, 0, "late"));
    }

    @Test
    void shouldReturnEveryValidEventBeforeReportingTheOverrun()
    {
        fill();
        eq.postEvent(MR_COMPLETE, fabric, 99, 0);

        assertEquals(-Errno.FI_EAGAIN, eq.readErr(err, 0), "the overrun is reported only after the valid events");
        drainEvents(4);

        assertEquals(-Errno.FI_EAVAIL, eq.read(entry, 0));
        assertEquals(-Errno.FI_EAVAIL, eq.sread(entry, 1000, 0));
    }

    @Test
    void shouldReportTheOverrunAsAnErrorEventNamingTheQueueAndTheLostCount()
    {
        fill();
        eq.postEvent(MR_COMPLETE, fabric, 99, 0);
        eq.postError(fabric, 100, 0, Errno.FI_EIO, 0, "lost too");
        drainEvents(4);

        assertEquals(1, eq.readErr(err, 0));

        assertEquals(Errno.FI_EOVERRUN, err.err());
        assertEquals(Errno.FI_EOVERRUN, err.provErrno());
        assertSame(eq, err.fid());
        assertEquals(2, err.data());
        assertTrue(eq.strerror(err).startsWith("Queue has been overrun: event queue overrun"), eq.strerror(err));
    }

    @Test
    void shouldKeepReportingTheOverrunBecauseItIsFatal()
    {
        fill();
        eq.postEvent(MR_COMPLETE, fabric, 99, 0);
        drainEvents(4);

        for (int i = 0; i < 3; i++)
        {
            assertEquals(-Errno.FI_EAVAIL, eq.read(entry, 0));
            assertEquals(1, eq.readErr(err, 0));
            assertEquals(Errno.FI_EOVERRUN, err.err());
        }
    }

    @Test
    void shouldDeliverErrorsQueuedBeforeTheOverrunFirst()
    {
        eq.postError(fabric, 7, 0, Errno.FI_ENOMEM, 0, "first");
        for (int i = 0; i < 3; i++)
        {
            eq.postEvent(MR_COMPLETE, fabric, i, 0);
        }
        assertEquals(-Errno.FI_EOVERRUN, eq.postError(fabric, 8, 0, Errno.FI_EIO, 0, "overflowing"));

        assertEquals(-Errno.FI_EAVAIL, eq.read(entry, 0));
        assertEquals(1, eq.readErr(err, 0));
        assertEquals(Errno.FI_ENOMEM, err.err());
        assertEquals(7, err.context());
        drainEvents(3);
        assertEquals(1, eq.readErr(err, 0));
        assertEquals(Errno.FI_EOVERRUN, err.err());
        assertEquals(1, err.data());
    }

    private void fill()
    {
        for (int i = 0; i < 4; i++)
        {
            assertEquals(0, eq.postEvent(MR_COMPLETE, fabric, i, 0));
        }
    }

    private void drainEvents(final int count)
    {
        for (int i = 0; i < count; i++)
        {
            assertEquals(1, eq.read(entry, 0), "event " + i);
            assertEquals(i, entry.context());
        }
    }
}
