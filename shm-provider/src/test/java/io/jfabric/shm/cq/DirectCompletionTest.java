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
package io.jfabric.shm.cq;

import io.jfabric.Addresses;
import io.jfabric.CqEntries;
import io.jfabric.CqErrEntry;
import io.jfabric.Errno;
import io.jfabric.Flags;
import io.jfabric.shm.ep.EndpointPair;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A CQ read whose ring is empty takes the completions its own progress makes straight into the caller's array
 * (FI_THREAD_DOMAIN, manual progress): what it returns, and in which order, must be exactly what the ring would have
 * given, including when the array is smaller than what progress finds and when an error comes between successes.
 */
class DirectCompletionTest
{
    private static final int SIZE = 64;

    private EndpointPair pair;
    private final ByteBuffer payload = ByteBuffer.allocateDirect(SIZE);
    private final CqEntries entries = new CqEntries(8);

    @BeforeEach
    void open()
    {
        pair = new EndpointPair();
    }

    @AfterEach
    void close()
    {
        pair.close();
    }

    @Test
    void shouldReturnCompletionsInPostOrderWhenEachReadTakesFewerThanProgressFinds()
    {
        final ByteBuffer[] landing = new ByteBuffer[3];
        for (int i = 0; i < 3; i++)
        {
            landing[i] = ByteBuffer.allocateDirect(SIZE);
            assertEquals(0, pair.b.recv(landing[i], 0, SIZE, 0, Addresses.FI_ADDR_UNSPEC, 10 + i));
        }
        for (int i = 0; i < 3; i++)
        {
            payload.put(0, (byte)i);
            assertEquals(0, pair.a.inject(payload, 0, SIZE, pair.addrB));
        }
        for (int i = 0; i < 3; i++)
        {
            assertEquals(1, pair.cqB.read(entries, 1), "read " + i);
            assertEquals(10 + i, entries.opContext[0], "read " + i + " returns the receives in post order");
            assertEquals(Flags.FI_RECV | Flags.FI_MSG, entries.flags[0]);
            assertEquals(SIZE, entries.len[0]);
            assertEquals(i, landing[i].get(0), "message " + i + " landed in receive " + i);
        }
        assertEquals(-Errno.FI_EAGAIN, pair.cqB.read(entries, 1));
    }

    @Test
    void shouldGiveTheSenderAddressToReadFromAndLeaveSourcesAloneOnRead()
    {
        final ByteBuffer landing = ByteBuffer.allocateDirect(SIZE);
        assertEquals(0, pair.b.recv(landing, 0, SIZE, 0, Addresses.FI_ADDR_UNSPEC, 1));
        assertEquals(0, pair.a.inject(payload, 0, SIZE, pair.addrB));
        assertEquals(1, pair.cqB.readFrom(entries, 8));
        assertEquals(pair.addrA, entries.srcAddr[0], "readfrom names the sender");

        entries.srcAddr[0] = -7;
        assertEquals(0, pair.b.recv(landing, 0, SIZE, 0, Addresses.FI_ADDR_UNSPEC, 2));
        assertEquals(0, pair.a.inject(payload, 0, SIZE, pair.addrB));
        assertEquals(1, pair.cqB.read(entries, 8));
        assertEquals(2, entries.opContext[0]);
        assertEquals(-7, entries.srcAddr[0], "fi_cq_read does not write a source");
    }

    @Test
    void shouldKeepASuccessAfterAnErrorBehindTheErrorInTheRing()
    {
        final ByteBuffer landing = ByteBuffer.allocateDirect(SIZE);
        assertEquals(0, pair.b.recv(landing, 0, SIZE, 0, Addresses.FI_ADDR_UNSPEC, 1));
        assertEquals(0, pair.b.recv(landing, 0, SIZE / 2, 0, Addresses.FI_ADDR_UNSPEC, 2));
        assertEquals(0, pair.b.recv(landing, 0, SIZE, 0, Addresses.FI_ADDR_UNSPEC, 3));
        for (int i = 0; i < 3; i++)
        {
            assertEquals(0, pair.a.inject(payload, 0, SIZE, pair.addrB));
        }

        assertEquals(1, pair.cqB.read(entries, 8), "the read stops before the error");
        assertEquals(1, entries.opContext[0]);
        assertEquals(-Errno.FI_EAVAIL, pair.cqB.read(entries, 8), "the truncation is at the head");
        final CqErrEntry err = new CqErrEntry();
        assertEquals(1, pair.cqB.readErr(err, 0));
        assertEquals(2, err.opContext);
        assertEquals(Errno.FI_ETRUNC, err.err);
        assertEquals(SIZE / 2, err.olen);
        assertEquals(1, pair.cqB.read(entries, 8), "the success made after the error comes after it");
        assertEquals(3, entries.opContext[0]);
        assertEquals(-Errno.FI_EAGAIN, pair.cqB.read(entries, 8));
    }
}
