package io.jfabric;

import java.nio.ByteBuffer;

/**
 * Memory other processes of the same domain can reach one-sidedly, from {@link Domain#allocShareable(long)}: in
 * the shm provider a file under the domain's directory that this process maps and peers map on demand. Register
 * (part of) it with {@link Flags#FI_REMOTE_READ} and/or {@link Flags#FI_REMOTE_WRITE} to let a peer that knows the
 * key read or write it.
 * <p>
 * {@link #close()} frees it: fails with {@link Errno#FI_EBUSY} while a memory region registered over it is open.
 * Thread safe; the bytes themselves are the application's to synchronise.
 */
public interface ShareableMemory extends AutoCloseable
{
    /** @return length in bytes, as asked. */
    long length();

    /**
     * @return a direct buffer over the memory (position 0, limit {@link #length()}; a new view each call), usable
     * until {@link #close()}.
     */
    ByteBuffer buffer();

    /**
     * @return the native address of the first byte in this process: the "virtual address" a peer uses with
     * {@link MrMode#FI_MR_VIRT_ADDR}.
     */
    long address();

    @Override
    void close();
}
