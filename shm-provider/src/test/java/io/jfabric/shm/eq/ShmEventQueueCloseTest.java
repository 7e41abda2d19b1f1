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
import io.jfabric.FabricException;
import io.jfabric.Flags;
import io.jfabric.WaitObj;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ShmEventQueueCloseTest
{
    private final TestFabricFid fabric = new TestFabricFid();
    private final ShmEventQueue eq = new ShmEventQueue(
        fabric, new EqAttr().size(8).flags(Flags.FI_WRITE).waitObj(WaitObj.UNSPEC), 0, TestFabricFid.config(64, 64));
    private final EqEntry entry = new EqEntry();

    @Test
    void shouldCloseIdempotently()
    {
        eq.close();
        eq.close();

        assertTrue(eq.isClosed());
        assertEquals(0, fabric.references());
    }

    @Test
    void shouldFailWithEbusyWhileBoundAndStayUsable()
    {
        eq.retain("fi_domain_bind");

        final FabricException ex = assertThrows(FabricException.class, eq::close);

        assertEquals(Errno.FI_EBUSY, ex.errno());
        assertFalse(eq.isClosed());
        assertEquals(1, eq.write(EqEvent.NOTIFY.value(), entry, 0));
        assertEquals(1, eq.read(entry, 0));

        eq.release();
        eq.close();
        assertTrue(eq.isClosed());
    }

    @Test
    void shouldReturnEbadfFromEveryCallAfterClose()
    {
        eq.write(EqEvent.NOTIFY.value(), entry, 0);
        eq.close();

        assertEquals(-Errno.FI_EBADF, eq.read(entry, 0));
        assertEquals(-Errno.FI_EBADF, eq.readErr(new EqErrEntry(), 0));
        assertEquals(-Errno.FI_EBADF, eq.write(EqEvent.NOTIFY.value(), entry, 0));
        assertEquals(-Errno.FI_EBADF, eq.sread(entry, -1, 0));
        assertEquals(-Errno.FI_EBADF, eq.postEvent(EqEvent.MR_COMPLETE.value(), fabric, 0, 0));
        assertEquals(-Errno.FI_EBADF, eq.postError(fabric, 0, 0, Errno.FI_EIO, 0, "late"));
        assertEquals(0, eq.depth(), "events left on a closed queue are lost, as fi_close says");
    }

    @Test
    void shouldRefuseBindingAfterClose()
    {
        eq.close();

        final FabricException ex = assertThrows(FabricException.class, () -> eq.retain("fi_domain_bind"));
        assertEquals(Errno.FI_EBADF, ex.errno());
    }

    @Test
    void shouldReleaseTheFabricOnClose()
    {
        assertEquals(1, fabric.references());

        eq.close();

        assertEquals(0, fabric.references());
        fabric.close();
    }
}
