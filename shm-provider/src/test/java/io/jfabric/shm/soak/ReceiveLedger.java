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

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * What one soak instance has received, checked message by message as it arrives: a message is <em>corrupted</em>
 * when its length or CRC32C is wrong, addressed to a <em>wrong incarnation</em> when its intended receiver is not
 * this instance, a <em>duplicate</em> when its sequence number is not above the last one from its sender instance,
 * and it leaves a <em>gap</em> when its sequence number is more than one above. A gap is not yet a loss: a send that
 * completed in error (its receiver was taken as gone or stopped) leaves one legitimately; the coordinator
 * ({@link SoakAudit}) compares the gaps with the sender's failed sends.
 * <p>
 * Owned by the receiving thread of a {@link SoakPeerMain}; not thread safe.
 */
final class ReceiveLedger
{
    /** What the check of one message found. */
    enum Outcome
    {
        /** The next message of its sender, whole. */
        IN_ORDER,
        /** Whole, but one or more sequence numbers above the next: the numbers between are a gap. */
        AFTER_GAP,
        /** A sequence number already passed. */
        DUPLICATE,
        /** Addressed to another instance. */
        WRONG_INCARNATION,
        /** Length or checksum wrong. */
        CORRUPTED
    }

    /** What came from one sender instance. */
    static final class FromSender
    {
        long last;
        long count;
        long bytes;
        long duplicates;
        long wrongIncarnation;
        final SeqRanges gaps = new SeqRanges();
    }

    private final long self;
    private final CRC32C crc = new CRC32C();
    private final Map<Long, FromSender> senders = new LinkedHashMap<>();
    private long corrupted;
    private long lastGapFrom;
    private long lastGapTo;

    /**
     * @param self this instance's id.
     */
    ReceiveLedger(final long self)
    {
        this.self = self;
    }

    /**
     * Check one received message and count it.
     *
     * @param buf    the receive buffer.
     * @param offset absolute index where the message starts.
     * @param length the length its completion reported.
     * @return what the check found; after {@link Outcome#AFTER_GAP}, {@link #lastGapFrom()} and
     * {@link #lastGapTo()} say which numbers are missing.
     */
    Outcome accept(final ByteBuffer buf, final int offset, final int length)
    {
        if (!SoakMessage.intact(buf, offset, length, crc))
        {
            corrupted++;
            return Outcome.CORRUPTED;
        }
        final FromSender from = senders.computeIfAbsent(SoakMessage.sender(buf, offset), k -> new FromSender());
        if (SoakMessage.receiver(buf, offset) != self)
        {
            from.wrongIncarnation++;
            return Outcome.WRONG_INCARNATION;
        }
        final long seq = SoakMessage.sequence(buf, offset);
        if (seq <= from.last)
        {
            from.duplicates++;
            return Outcome.DUPLICATE;
        }
        Outcome outcome = Outcome.IN_ORDER;
        if (seq > from.last + 1)
        {
            lastGapFrom = from.last + 1;
            lastGapTo = seq - 1;
            from.gaps.add(lastGapFrom, lastGapTo);
            outcome = Outcome.AFTER_GAP;
        }
        from.last = seq;
        from.count++;
        from.bytes += length;
        return outcome;
    }

    /** @return the first missing number of the last gap. */
    long lastGapFrom()
    {
        return lastGapFrom;
    }

    /** @return the last missing number of the last gap. */
    long lastGapTo()
    {
        return lastGapTo;
    }

    /** @return messages whose length or checksum was wrong. */
    long corrupted()
    {
        return corrupted;
    }

    /** @return what came from each sender instance, in the order they were first heard from. */
    Map<Long, FromSender> senders()
    {
        return senders;
    }

    /**
     * @param sender a sender instance.
     * @return the last sequence number taken from it, 0 for none.
     */
    long last(final long sender)
    {
        final FromSender from = senders.get(sender);
        return from == null ? 0 : from.last;
    }

    /** @return messages taken in order (or after a gap), from every sender. */
    long count()
    {
        long n = 0;
        for (final FromSender from : senders.values())
        {
            n += from.count;
        }
        return n;
    }

    /** @return bytes of those messages. */
    long bytes()
    {
        long n = 0;
        for (final FromSender from : senders.values())
        {
            n += from.bytes;
        }
        return n;
    }
}
