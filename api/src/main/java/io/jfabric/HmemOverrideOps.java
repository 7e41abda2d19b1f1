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
 * The HMEM override of fi_domain(3) ({@code struct fi_hmem_override_ops}): memory-movement callbacks a provider that
 * supports the override uses, in place of its own copies, whenever it reads or writes a user buffer, offered with
 * {@link Domain#setOps(String, long, Object, long)} under {@link #FI_SET_OPS_HMEM_OVERRIDE}. Where a provider accepts
 * it, every object allocated against the domain afterwards inherits it, and both callbacks are called on the data
 * path, from whichever thread drives progress, so they must not block.
 * <p>
 * The shm provider does not accept it: {@code setOps} checks its arguments and then fails with
 * {@link Errno#FI_ENOSYS}, since shm has no FI_HMEM and copies only host memory ({@link #FI_HMEM_SYSTEM}) itself.
 */
public interface HmemOverrideOps
{
    /** The name of this override: {@code FI_SET_OPS_HMEM_OVERRIDE}. */
    String FI_SET_OPS_HMEM_OVERRIDE = "hmem_override_ops";

    /** {@code FI_HMEM_SYSTEM}: ordinary host memory, the only interface the shm provider reports. */
    int FI_HMEM_SYSTEM = 0;

    /**
     * Copy from a user buffer described by an iov into {@code dest}.
     *
     * @param dest          destination, from its position, at most {@code size} bytes.
     * @param size          bytes to copy.
     * @param iface         the memory interface of the iov ({@link #FI_HMEM_SYSTEM}).
     * @param device        the device of the iov.
     * @param hmemIov       the source iov.
     * @param hmemIovOffset byte offset into the iov to start from.
     * @return bytes copied, or a negated libfabric errno.
     */
    long copyFromHmemIov(ByteBuffer dest, long size, int iface, long device, ByteBuffer[] hmemIov, long hmemIovOffset);

    /**
     * Copy {@code size} bytes from {@code src} into a user buffer described by an iov.
     *
     * @param iface         the memory interface of the iov.
     * @param device        the device of the iov.
     * @param hmemIov       the destination iov.
     * @param hmemIovOffset byte offset into the iov to start at.
     * @param src           source, from its position.
     * @param size          bytes to copy.
     * @return bytes copied, or a negated libfabric errno.
     */
    long copyToHmemIov(int iface, long device, ByteBuffer[] hmemIov, long hmemIovOffset, ByteBuffer src, long size);
}
