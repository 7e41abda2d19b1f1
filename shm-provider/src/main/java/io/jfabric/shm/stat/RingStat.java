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
package io.jfabric.shm.stat;

/**
 * One ring of a domain region as sampled: its capacity and its producer (tail) and consumer (head) positions from
 * the ring's trailer (a lane's {@code SpscLaneDescriptor}, an Agrona ring's {@code RingBufferDescriptor}), so its
 * occupancy is the bytes written and not yet consumed. The two positions are read at slightly different moments
 * (head first), so the occupancy is a moment's view, clamped to {@code [0, capacity]}. Immutable; any thread.
 */
public final class RingStat
{
    /** Which ring of a slot it is. */
    public enum Kind
    {
        /** A receive lane: what the endpoint in the sender slot sends to this slot's endpoint. */
        LANE("lane"),
        /** The transmit-context ring: what peers return to this slot's sending side. */
        TRANSMIT("tx ring"),
        /** The completion ring numbered like the slot, used by whichever completion queue claimed it. */
        COMPLETION("cq ring");

        private final String text;

        Kind(final String text)
        {
            this.text = text;
        }

        /** @return how output names it. */
        public String text()
        {
            return text;
        }
    }

    private final Kind kind;
    private final int sender;
    private final int senderIncarnation;
    private final int capacity;
    private final long producerPosition;
    private final long consumerPosition;

    /**
     * @param kind              which ring.
     * @param sender            for a lane, the sending slot; else -1.
     * @param senderIncarnation for a lane, the incarnation its owner word names (0: no sender holds it); else 0.
     * @param capacity          its capacity in bytes.
     * @param producerPosition  its tail position.
     * @param consumerPosition  its head position.
     */
    public RingStat(
        final Kind kind,
        final int sender,
        final int senderIncarnation,
        final int capacity,
        final long producerPosition,
        final long consumerPosition)
    {
        this.kind = kind;
        this.sender = sender;
        this.senderIncarnation = senderIncarnation;
        this.capacity = capacity;
        this.producerPosition = producerPosition;
        this.consumerPosition = consumerPosition;
    }

    /** @return which ring. */
    public Kind kind()
    {
        return kind;
    }

    /** @return for a lane, the sending slot; else -1. */
    public int sender()
    {
        return sender;
    }

    /** @return for a lane, the sender incarnation its owner word names, 0 when no sender holds it; else 0. */
    public int senderIncarnation()
    {
        return senderIncarnation;
    }

    /** @return capacity in bytes. */
    public int capacity()
    {
        return capacity;
    }

    /** @return the producer (tail) position: bytes ever written. */
    public long producerPosition()
    {
        return producerPosition;
    }

    /** @return the consumer (head) position: bytes ever consumed. */
    public long consumerPosition()
    {
        return consumerPosition;
    }

    /** @return bytes written and not yet consumed, in {@code [0, capacity]}. */
    public long occupancy()
    {
        return Math.max(0, Math.min(capacity, producerPosition - consumerPosition));
    }

    /** @return what identifies this ring within its slot across samples: kind and sender. */
    public String key()
    {
        return kind == Kind.LANE ? kind.text() + " " + sender : kind.text();
    }

    @Override
    public String toString()
    {
        return key() + ": " + occupancy() + " of " + capacity + " bytes (producer " + producerPosition +
            ", consumer " + consumerPosition + ")";
    }
}
