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

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * One piece of memory to register ({@code struct iovec} of fi_mr(3)): a range of a direct or heap
 * {@link ByteBuffer}, of a {@code byte[]}, or of {@link ShareableMemory}.
 * <p>
 * How peers reach each kind registered with {@link Flags#FI_REMOTE_READ} or {@link Flags#FI_REMOTE_WRITE}
 * (in the shm provider):
 * <ul>
 *   <li>{@link ShareableMemory}: peers in other processes map the same file and copy one-sidedly, any size.</li>
 *   <li>A direct {@link ByteBuffer} (including a {@link java.nio.MappedByteBuffer}) or a {@code byte[]} / heap
 *       {@link ByteBuffer}: no other process can map it, so the target endpoint's progress serves each operation
 *       (the emulated path), up to one lane record per operation; FI_REMOTE_WRITE on a read-only buffer is refused
 *       with {@link Errno#FI_EACCES}.</li>
 * </ul>
 * An Agrona buffer is registered through the memory it wraps ({@code byteBuffer()} or {@code byteArray()}).
 * <p>
 * Immutable; the range is taken when the iov is made ({@link ByteBuffer}: from its position to its limit).
 */
public final class MrIov
{
    private final ByteBuffer buffer;
    private final byte[] array;
    private final ShareableMemory shareable;
    private final long offset;
    private final long length;

    private MrIov(
        final ByteBuffer buffer, final byte[] array, final ShareableMemory shareable, final long offset, final long length)
    {
        this.buffer = buffer;
        this.array = array;
        this.shareable = shareable;
        this.offset = offset;
        this.length = length;
    }

    /**
     * @param buffer a direct or heap buffer; its bytes from position to limit are the range.
     * @return the iov.
     */
    public static MrIov of(final ByteBuffer buffer)
    {
        Objects.requireNonNull(buffer, "buffer");
        return new MrIov(buffer, null, null, buffer.position(), buffer.remaining());
    }

    /**
     * @param array  heap memory.
     * @param offset first byte.
     * @param length bytes.
     * @return the iov.
     */
    public static MrIov of(final byte[] array, final int offset, final int length)
    {
        Objects.requireNonNull(array, "array");
        return new MrIov(null, array, null, offset, length);
    }

    /**
     * @param memory shareable memory from {@link Domain#allocShareable(long)}.
     * @param offset first byte within it.
     * @param length bytes.
     * @return the iov.
     */
    public static MrIov of(final ShareableMemory memory, final long offset, final long length)
    {
        Objects.requireNonNull(memory, "memory");
        return new MrIov(null, null, memory, offset, length);
    }

    /** @return the buffer, or null when the iov is not over a {@link ByteBuffer}. */
    public ByteBuffer buffer()
    {
        return buffer;
    }

    /** @return the array, or null when the iov is not over a {@code byte[]}. */
    public byte[] array()
    {
        return array;
    }

    /** @return the shareable memory, or null when the iov is not over shareable memory. */
    public ShareableMemory shareable()
    {
        return shareable;
    }

    /** @return offset of the first byte in the buffer, array or shareable memory. */
    public long offset()
    {
        return offset;
    }

    /** @return length in bytes. */
    public long length()
    {
        return length;
    }

    @Override
    public String toString()
    {
        final String kind = shareable != null ? "shareable" : array != null ? "byte[]" :
            buffer.isDirect() ? "direct" : "heap";
        return "MrIov{" + kind + ", offset=" + offset + ", length=" + length + '}';
    }
}
