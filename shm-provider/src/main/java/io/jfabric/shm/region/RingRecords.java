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
package io.jfabric.shm.region;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.ringbuffer.RecordDescriptor;

/**
 * Commit and abort of a record claimed in an Agrona ring (Agrona's {@code tryClaim}), for producers whose consumer
 * may clear the record under them: {@link RingReader#unblock} (the record's producer was taken for stopped or dead),
 * {@link RingReader#repair} (the ring was found damaged). Agrona's own commit reads the header and then writes it, and
 * throws when the record is no longer claimed; these change the whole 8-byte header (length and type) with one
 * compare-and-set from what the claim wrote, so exactly one of the producer and the consumer wins, and a refused
 * commit tells the producer its record was not delivered. A record claimed off the 8-byte alignment (from a producer
 * position someone overwrote) is refused without an atomic access, which off alignment would split a cache line.
 * <p>
 * Stateless; the producer's thread.
 */
public final class RingRecords
{
    private static final int PADDING_TYPE = -1;

    private RingRecords()
    {
    }

    /**
     * @param type   a record type.
     * @param length a record length (header and body), negative while claimed.
     * @return the 8-byte header of such a record: the length in its low half, the type in its high half.
     */
    public static long header(final int type, final int length)
    {
        return ((long)type << 32) | (length & 0xFFFF_FFFFL);
    }

    /**
     * Publish a claimed record.
     *
     * @param ring  the ring's buffer.
     * @param index what the ring's {@code tryClaim} returned.
     * @return whether it was published: false when the record is no longer the one claimed there.
     */
    public static boolean commit(final AtomicBuffer ring, final int index)
    {
        final int at = index - RecordDescriptor.HEADER_LENGTH;
        if ((at & (RecordDescriptor.ALIGNMENT - 1)) != 0)
        {
            return false; // claimed from a producer position someone overwrote: no atomic access off alignment
        }
        final long claimed = ring.getLongVolatile(at);
        return (int)claimed < 0 && ring.compareAndSetLong(at, claimed, header((int)(claimed >> 32), -(int)claimed));
    }

    /**
     * Publish a claimed record with one ordered store, for a producer whose consumer never clears a record under it
     * while it writes (a completion ring whose writers are serialized with its reader): as Agrona's commit, but a
     * record that is no longer claimed is refused instead of thrown about.
     *
     * @param ring  the ring's buffer.
     * @param index what the ring's {@code tryClaim} returned.
     * @return whether it was published.
     */
    public static boolean commitPlain(final AtomicBuffer ring, final int index)
    {
        final int at = index - RecordDescriptor.HEADER_LENGTH;
        final int length = ring.getInt(at);
        if (length >= 0)
        {
            return false;
        }
        ring.putIntRelease(at, -length);
        return true;
    }

    /**
     * Give a claimed record up: the consumer steps over it.
     *
     * @param ring  the ring's buffer.
     * @param index what the ring's {@code tryClaim} returned.
     * @return whether it was given up: false when the record is no longer the one claimed there.
     */
    public static boolean abort(final AtomicBuffer ring, final int index)
    {
        final int at = index - RecordDescriptor.HEADER_LENGTH;
        if ((at & (RecordDescriptor.ALIGNMENT - 1)) != 0)
        {
            return false;
        }
        final long claimed = ring.getLongVolatile(at);
        return (int)claimed < 0 && ring.compareAndSetLong(at, claimed, header(PADDING_TYPE, -(int)claimed));
    }
}
