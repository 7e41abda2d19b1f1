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

import java.util.Arrays;
import java.util.Objects;

/**
 * One error of an event queue ({@code struct fi_eq_err_entry}, fi_eq(3)), as
 * {@link EventQueue#readErr(EqErrEntry, long)} reports it.
 * <p>
 * A reusable mutable holder: the application keeps one and passes it to every readErr, which overwrites every
 * field, so reading errors allocates nothing. The holder owns the buffer that receives the provider's error
 * data, as the C caller passes {@code err_data} with {@code err_data_size} on input: a read copies at most
 * {@code errData().length} bytes of it, sets {@link #errDataSize()} to the number copied, and zeroes the rest of
 * the buffer, so the buffer can also be read as a NUL-terminated string (see
 * {@link EventQueue#strerror(int, byte[])}). The shm provider's error data is a UTF-8 text that details the error;
 * a provider keeps at most {@code domain_attr.max_err_data} bytes of it.
 * <p>
 * Not thread safe: one holder per reading thread.
 */
public final class EqErrEntry
{
    /** Bytes of error data a holder made with {@link #EqErrEntry()} can receive. */
    public static final int DEFAULT_ERR_DATA_CAPACITY = 64;

    private static final byte[] NO_DATA = new byte[0];

    private Fid fid;
    private long context;
    private long data;
    private int err;
    private int provErrno;
    private byte[] errData;
    private int errDataSize;

    /**
     * An empty entry whose buffer receives up to {@link #DEFAULT_ERR_DATA_CAPACITY} bytes of error data.
     */
    public EqErrEntry()
    {
        this(DEFAULT_ERR_DATA_CAPACITY);
    }

    /**
     * An empty entry whose buffer receives up to {@code errDataCapacity} bytes of error data.
     *
     * @param errDataCapacity bytes of error data to receive; 0 to receive none.
     * @throws IllegalArgumentException when negative.
     */
    public EqErrEntry(final int errDataCapacity)
    {
        if (errDataCapacity < 0)
        {
            throw new IllegalArgumentException("errDataCapacity=" + errDataCapacity + " is negative");
        }
        errData = errDataCapacity == 0 ? NO_DATA : new byte[errDataCapacity];
    }

    /**
     * @return the object the error concerns ({@code fid}).
     */
    public Fid fid()
    {
        return fid;
    }

    /**
     * @return the context of the failed operation ({@code context}); 0 when it had none.
     */
    public long context()
    {
        return context;
    }

    /**
     * @return the operation-specific data ({@code data}), as the generating object's page describes.
     */
    public long data()
    {
        return data;
    }

    /**
     * @return the general reason for the error, a positive libfabric errno ({@code err}), such as
     * {@link Errno#FI_EOVERRUN}.
     */
    public int err()
    {
        return err;
    }

    /**
     * @return the provider's own error code ({@code prov_errno}), a debugging aid; see
     * {@link EventQueue#strerror(int, byte[])}.
     */
    public int provErrno()
    {
        return provErrno;
    }

    /**
     * @return the buffer that receives the provider's error data ({@code err_data}); valid for
     * {@link #errDataSize()} bytes and zero after them.
     */
    public byte[] errData()
    {
        return errData;
    }

    /**
     * Replace the buffer that receives error data, as a C caller passes its own {@code err_data} buffer.
     *
     * @param buffer the new buffer; its length is the most bytes a read copies. Null receives none.
     * @return this.
     */
    public EqErrEntry errData(final byte[] buffer)
    {
        errData = buffer == null ? NO_DATA : buffer;
        errDataSize = 0;
        return this;
    }

    /**
     * @return the number of bytes of error data in {@link #errData()} ({@code err_data_size} on output).
     */
    public int errDataSize()
    {
        return errDataSize;
    }

    /**
     * Set every field; the error data is copied into this holder's buffer, truncated to its length, and the rest
     * of the buffer is zeroed. Providers fill entries with it; so can tests.
     *
     * @param fid       the object the error concerns.
     * @param context   the failed operation's context.
     * @param data      operation-specific data.
     * @param err       positive libfabric errno.
     * @param provErrno provider error code.
     * @param src       error data to copy, or null for none.
     * @param srcOffset where the error data starts in {@code src}.
     * @param length    bytes of error data in {@code src}.
     * @return this.
     * @throws IndexOutOfBoundsException when {@code srcOffset} and {@code length} do not fit {@code src}.
     */
    public EqErrEntry set(
        final Fid fid,
        final long context,
        final long data,
        final int err,
        final int provErrno,
        final byte[] src,
        final int srcOffset,
        final int length)
    {
        final int copied;
        if (src == null)
        {
            copied = 0;
        }
        else
        {
            Objects.checkFromIndexSize(srcOffset, length, src.length);
            copied = Math.min(length, errData.length);
            System.arraycopy(src, srcOffset, errData, 0, copied);
        }
        if (copied < errData.length)
        {
            Arrays.fill(errData, copied, errData.length, (byte)0);
        }
        this.fid = fid;
        this.context = context;
        this.data = data;
        this.err = err;
        this.provErrno = provErrno;
        this.errDataSize = copied;
        return this;
    }

    /**
     * Copy every field of this entry into another, its error data truncated to the other's buffer.
     *
     * @param target the entry to fill.
     * @return the target.
     */
    public EqErrEntry copyTo(final EqErrEntry target)
    {
        return target.set(fid, context, data, err, provErrno, errData, 0, errDataSize);
    }

    /**
     * Reset every field to the state of a new entry, keeping the buffer (zeroed).
     *
     * @return this.
     */
    public EqErrEntry clear()
    {
        return set(null, 0, 0, 0, 0, null, 0, 0);
    }

    /**
     * @return the entry for logs, with the error's libfabric name.
     */
    public String toString()
    {
        final String name = Errno.name(err);
        return "fi_eq_err_entry: { fid: " + fid + ", context: 0x" + Long.toHexString(context) + ", data: " + data +
            ", err: " + (name != null ? name : Integer.toString(err)) + ", prov_errno: " + provErrno +
            ", err_data_size: " + errDataSize + " }";
    }
}
