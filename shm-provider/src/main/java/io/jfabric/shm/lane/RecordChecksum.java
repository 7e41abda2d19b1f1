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
package io.jfabric.shm.lane;

import org.agrona.concurrent.AtomicBuffer;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The CRC32C of a lane record's content ({@link LaneRecordDescriptor#FLAG_CHECKSUM}): computed by the JDK's
 * intrinsic (the CPU's crc32 instruction where there is one) straight over the mapped region, with no copy and no
 * allocation: a view of the region's byte buffer, made once, is pointed at the record each time.
 * <p>
 * Not thread safe: one per role that writes or reads records (a transmit context's sending side, its transmit
 * progress, a receive context).
 */
public final class RecordChecksum
{
    private final CRC32C crc = new CRC32C();
    private ByteBuffer view;

    /**
     * @param lane   a lane (an {@code UnsafeBuffer} over part of the region's mapping).
     * @param index  where the record's body starts in the lane.
     * @param length bytes of content.
     * @return their CRC32C, as an int.
     */
    private int of(final AtomicBuffer lane, final int index, final int length)
    {
        ByteBuffer v = view;
        if (v == null)
        {
            v = lane.byteBuffer().duplicate();
            view = v;
        }
        final int from = lane.wrapAdjustment() + index;
        v.clear();
        v.position(from).limit(from + length);
        crc.reset();
        crc.update(v);
        return (int)crc.getValue();
    }

    /**
     * Seal a record: store the CRC32C of its content, with its record type folded in, as an int right after it.
     *
     * @param lane    the lane the record is in.
     * @param index   where the record's body starts in the lane.
     * @param content bytes of content.
     * @param type    the record's type (in its frame word, which the content does not cover).
     */
    public void seal(final AtomicBuffer lane, final int index, final int content, final int type)
    {
        lane.putInt(index + content, of(lane, index, content, type));
    }

    /**
     * @param lane   a lane.
     * @param index  where the content starts.
     * @param length bytes of content.
     * @param type   the record's type.
     * @return the checksum {@link #seal} stores for them: their CRC32C with the type folded in.
     */
    public int of(final AtomicBuffer lane, final int index, final int length, final int type)
    {
        return of(lane, index, length) ^ type;
    }
}
