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
package io.jfabric.shm.soak;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

import static io.jfabric.shm.soak.ReceiveLedger.Outcome.AFTER_GAP;
import static io.jfabric.shm.soak.ReceiveLedger.Outcome.CORRUPTED;
import static io.jfabric.shm.soak.ReceiveLedger.Outcome.DUPLICATE;
import static io.jfabric.shm.soak.ReceiveLedger.Outcome.IN_ORDER;
import static io.jfabric.shm.soak.ReceiveLedger.Outcome.WRONG_INCARNATION;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The soak receiver's checks on real {@link SoakMessage}s: each way a message can be wrong is found, and a whole
 * message in order is not, at every length from the header alone to the largest soak message.
 */
class ReceiveLedgerTest
{
    private static final long SELF = 0x51;
    private static final long SENDER = 0x77;

    private final ByteBuffer buf = ByteBuffer.allocateDirect(SoakPeerMain.MAX_MESSAGE + 64);
    private final CRC32C crc = new CRC32C();
    private final ReceiveLedger ledger = new ReceiveLedger(SELF);

    private ReceiveLedger.Outcome receive(final long receiver, final long seq, final int length)
    {
        SoakMessage.write(buf, 16, length, SENDER, receiver, seq, crc);
        return ledger.accept(buf, 16, length);
    }

    @Test
    void shouldTakeWholeMessagesInOrderAtEveryLength()
    {
        final int[] lengths = { SoakMessage.HEADER_LENGTH, 33, 39, 40, 41, 4096, 8193, SoakPeerMain.MAX_MESSAGE };
        for (int i = 0; i < lengths.length; i++)
        {
            assertEquals(IN_ORDER, receive(SELF, i + 1, lengths[i]), "length " + lengths[i]);
        }
        assertEquals(lengths.length, ledger.count());
        assertEquals(lengths.length, ledger.last(SENDER));
        assertEquals(0, ledger.corrupted());
    }

    @Test
    void shouldFindAFlippedByteAnywhereInTheMessage()
    {
        for (int at = 0; at < 300; at++)
        {
            SoakMessage.write(buf, 0, 300, SENDER, SELF, 1, crc);
            buf.put(at, (byte)(buf.get(at) ^ 0x10));
            assertEquals(CORRUPTED, ledger.accept(buf, 0, 300), "byte " + at);
        }
        assertEquals(300, ledger.corrupted());
        assertEquals(0, ledger.count());
    }

    @Test
    void shouldFindATruncatedOrTooShortMessage()
    {
        SoakMessage.write(buf, 0, 1000, SENDER, SELF, 1, crc);
        assertEquals(CORRUPTED, ledger.accept(buf, 0, 999));
        assertEquals(CORRUPTED, ledger.accept(buf, 0, 8));
        assertEquals(IN_ORDER, ledger.accept(buf, 0, 1000));
    }

    @Test
    void shouldFindAMessageForAnotherIncarnation()
    {
        assertEquals(IN_ORDER, receive(SELF, 1, 100));
        assertEquals(WRONG_INCARNATION, receive(SELF + 1, 2, 100));
        assertEquals(1, ledger.senders().get(SENDER).wrongIncarnation);
        assertEquals(1, ledger.last(SENDER), "not taken as a sequence number of ours");
    }

    @Test
    void shouldFindDuplicatesAndGaps()
    {
        assertEquals(IN_ORDER, receive(SELF, 1, 64));
        assertEquals(IN_ORDER, receive(SELF, 2, 64));
        assertEquals(DUPLICATE, receive(SELF, 2, 64));
        assertEquals(DUPLICATE, receive(SELF, 1, 64));
        assertEquals(AFTER_GAP, receive(SELF, 6, 64));
        assertEquals(3, ledger.lastGapFrom());
        assertEquals(5, ledger.lastGapTo());
        assertEquals(IN_ORDER, receive(SELF, 7, 64));
        final ReceiveLedger.FromSender from = ledger.senders().get(SENDER);
        assertEquals(2, from.duplicates);
        assertEquals("3-5", from.gaps.toString());
        assertEquals(4, from.count);
        assertEquals(7, from.last);
    }
}
