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
package io.jfabric.ofi.ep;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * Heap memory for the inject calls, which copy the bytes before they return and so may read the Java heap through a
 * critical downcall. Stateless.
 */
final class Heap
{
    private Heap()
    {
    }

    /**
     * @return a heap segment over {@code [offset, offset + len)} of the buffer's array, or null when the buffer has
     *         no accessible array (null, direct, read-only) or the range is outside it.
     */
    static MemorySegment slice(final ByteBuffer buf, final int offset, final int len)
    {
        if (buf == null || !buf.hasArray() || !EpCore.inBounds(buf, offset, len))
        {
            return null;
        }
        return MemorySegment.ofArray(buf.array()).asSlice(buf.arrayOffset() + (long)offset, len);
    }
}
