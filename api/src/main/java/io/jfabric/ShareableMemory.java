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
