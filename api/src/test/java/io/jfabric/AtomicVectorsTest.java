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

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The atomic vector holders ({@code struct fi_ioc}, {@code struct fi_rma_ioc}, {@code struct fi_msg_atomic}): their
 * element sums, which the provider checks against each other, and their limits.
 */
class AtomicVectorsTest
{
    @Test
    void shouldSumTheElementsOfTheEntriesInUseOnly()
    {
        final ByteBuffer b = ByteBuffer.allocate(64);
        final Ioc ioc = new Ioc(3).add(b, 0, 2, 0).add(b, 8, 5, 0);
        assertEquals(7, ioc.totalElements());
        assertSame(b, ioc.buf[1]);
        assertEquals(8, ioc.offset[1]);
        assertEquals(4, ioc.set(b, 4, 4, 9).totalElements(), "set makes it one entry");
        assertEquals(9, ioc.desc[0]);
        final RmaIoc rma = new RmaIoc(2).add(100, 3, 7).add(200, 4, 8);
        assertEquals(7, rma.totalElements());
        assertEquals(1, rma.set(300, 1, 9).count);
    }

    @Test
    void shouldAnswerMinusOneForANegativeCountOrNoEntries()
    {
        final Ioc ioc = new Ioc(2);
        assertEquals(-1, ioc.totalElements(), "no entry in use");
        ioc.add(ByteBuffer.allocate(8), 0, -1, 0);
        assertEquals(-1, ioc.totalElements(), "a negative element count");
        final RmaIoc rma = new RmaIoc(1).set(0, 1, 1);
        rma.count = 2;
        assertEquals(-1, rma.totalElements(), "a count above the holder's capacity");
    }

    @Test
    void shouldRefuseAnEntryPastTheCapacityAndAnEmptyHolder()
    {
        final Ioc ioc = new Ioc(1).add(ByteBuffer.allocate(8), 0, 1, 0);
        assertEquals(Errno.FI_EINVAL, assertThrows(FabricException.class,
            () -> ioc.add(ByteBuffer.allocate(8), 0, 1, 0)).errno());
        assertEquals(Errno.FI_EINVAL, assertThrows(FabricException.class, () -> new RmaIoc(0)).errno());
        final AtomicMsg msg = new AtomicMsg(2, 4);
        assertEquals(2, msg.msgIov.buf.length);
        assertEquals(4, msg.rmaIov.addr.length);
        assertEquals(Addresses.FI_ADDR_UNSPEC, msg.addr);
    }
}
