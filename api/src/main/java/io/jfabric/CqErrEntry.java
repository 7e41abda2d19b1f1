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

/**
 * One error completion ({@code struct fi_cq_err_entry}, fi_cq(3)) as {@link CompletionQueue#readErr} fills it.
 * <p>
 * A reusable holder with public fields: the application keeps one, every readErr overwrites every field and copies
 * at most {@code errData.length} bytes of provider error data (a UTF-8 text detailing the error), setting
 * {@link #errDataSize}. Not thread safe.
 */
public final class CqErrEntry
{
    /** Context of the failed operation. */
    public long opContext;
    /** Completion flags. */
    public long flags;
    /** Bytes transferred. */
    public long len;
    /** Where data was placed in the receive buffer. */
    public long bufOffset;
    /** Remote CQ data. */
    public long data;
    /** Tag. */
    public long tag;
    /** Overflow length: bytes of the message that did not fit (FI_ETRUNC). */
    public long olen;
    /** Positive errno (FI_ETRUNC, FI_ECANCELED, FI_ENOMSG, ...). */
    public int err;
    /** Provider errno (the shm provider repeats {@link #err}). */
    public int provErrno;
    /** Source fi_addr when known, else FI_ADDR_NOTAVAIL. */
    public long srcAddr;
    /** Receives the error data. */
    public final byte[] errData;
    /** Bytes of {@link #errData} filled. */
    public int errDataSize;

    /** An entry receiving up to 64 bytes of error data. */
    public CqErrEntry()
    {
        this(64);
    }

    /**
     * @param errDataCapacity bytes of error data to receive.
     */
    public CqErrEntry(final int errDataCapacity)
    {
        if (errDataCapacity < 0)
        {
            throw new FabricException(Errno.FI_EINVAL, "CqErrEntry: errDataCapacity is negative: " + errDataCapacity);
        }
        errData = new byte[errDataCapacity];
    }

    @Override
    public String toString()
    {
        return "CqErrEntry{opContext=" + opContext + ", flags=0x" + Long.toHexString(flags) + ", len=" + len +
            ", olen=" + olen + ", err=" + err + " (" + Errno.strerror(err) + "), tag=0x" + Long.toHexString(tag) +
            ", errData=" + new String(errData, 0, errDataSize, java.nio.charset.StandardCharsets.UTF_8) + '}';
    }
}
