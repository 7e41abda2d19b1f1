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
package io.jfabric.shm.rx;

import io.jfabric.Addresses;
import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.shm.av.ShmAddress;
import io.jfabric.shm.core.LocalHost;
import io.jfabric.shm.cq.ShmCompletionQueue;
import io.jfabric.shm.region.SlotDescriptor;

import java.nio.charset.StandardCharsets;

/**
 * FI_SOURCE_ERR (fi_getinfo(3), fi_cq(3)) for one receiving endpoint: a message received from a sender its AV does not
 * hold completes as an error entry with {@link Errno#FI_EADDRNOTAVAIL} ("the data transfer was successfully received
 * and processed"), whose err_data is the sender's address in the domain's FI_ADDR_STR format, ready for
 * fi_av_insert: {@code fi_shm://<host>:<slot>/<domain>?gen=<incarnation>}, exactly what the sender's fi_getname gives
 * (a context of a scalable endpoint is reported with that endpoint's address). The address is written into this
 * object's own buffer: no allocation.
 * <p>
 * The whole address must fit the CQ's error data: an endpoint whose addresses could be longer than the domain's
 * max_err_data is refused at fi_enable with FI_EINVAL naming the setting to raise.
 * <p>
 * Threads: the receive side's, under its receive guard.
 */
public final class SourceErrors
{
    /** Digits of the largest slot (65536 slots at most) and of the largest incarnation (unsigned 32 bits). */
    private static final int SLOT_DIGITS = 5;
    private static final int INCARNATION_DIGITS = 10;

    private final byte[] prefix;
    private final byte[] suffix;
    private final byte[] address;

    private SourceErrors(final String host, final String domainName)
    {
        prefix = (ShmAddress.SCHEME + host + ':').getBytes(StandardCharsets.US_ASCII);
        suffix = ('/' + domainName + ShmAddress.GEN_QUALIFIER).getBytes(StandardCharsets.US_ASCII);
        address = new byte[maxLength()];
    }

    /**
     * FI_SOURCE_ERR of an endpoint being enabled.
     *
     * @param info       the endpoint's info.
     * @param domainName the domain's name.
     * @param maxErrData the domain's max_err_data: what its CQs' error entries carry.
     * @return the endpoint's source errors, or null when it was not opened with FI_SOURCE_ERR.
     * @throws FabricException FI_EINVAL when an address could be longer than max_err_data.
     */
    public static SourceErrors of(final Info info, final String domainName, final long maxErrData)
    {
        final long caps = info.caps() | (info.rxAttr() != null ? info.rxAttr().caps() : 0);
        if ((caps & Flags.FI_SOURCE_ERR) == 0)
        {
            return null;
        }
        final SourceErrors errors = new SourceErrors(LocalHost.name(), domainName);
        if (errors.maxLength() > maxErrData)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_enable: FI_SOURCE_ERR reports a sender's address as error " +
                "data, up to " + errors.maxLength() + " bytes in domain '" + domainName + "', but max_err_data is " +
                maxErrData + " (raise jfabric.shm.max.err.data)");
        }
        return errors;
    }

    /** @return the longest address this domain's senders can have. */
    int maxLength()
    {
        return prefix.length + SLOT_DIGITS + suffix.length + INCARNATION_DIGITS;
    }

    /**
     * Complete a receive from a sender the AV does not hold: the error entry in place of the success entry.
     *
     * @param cq       the receive CQ.
     * @param sources  the receive side's senders.
     * @param senderId the sender, as its records name it.
     * @param context  the receive's context.
     * @param cqFlags  the completion flags.
     * @param len      the bytes received.
     * @param bufOffset where they start.
     * @param data     the remote CQ data.
     * @param tag      the tag.
     */
    void complete(
        final ShmCompletionQueue cq, final SenderAddresses sources, final long senderId, final long context,
        final long cqFlags, final long len, final long bufOffset, final long data, final long tag)
    {
        final long word = sources.addressSlot(senderId);
        final int length = format(SlotDescriptor.wordSlot(word), SlotDescriptor.wordIncarnation(word) & 0xFFFF_FFFFL);
        cq.writeError(context, cqFlags, len, bufOffset, data, tag, 0, Errno.FI_EADDRNOTAVAIL,
            Addresses.FI_ADDR_NOTAVAIL, address, length);
    }

    /**
     * Write {@code ShmAddress.format(host, slot, domain, incarnation)} into {@link #address()}.
     *
     * @return its length.
     */
    int format(final int slot, final long incarnation)
    {
        int at = put(prefix, 0);
        at = digits(slot, at);
        at = put(suffix, at);
        if (incarnation == 0)
        {
            return at - ShmAddress.GEN_QUALIFIER.length(); // no qualifier for incarnation 0
        }
        return digits(incarnation, at);
    }

    /** @return the buffer {@link #format} writes. */
    byte[] address()
    {
        return address;
    }

    private int put(final byte[] bytes, final int at)
    {
        System.arraycopy(bytes, 0, address, at, bytes.length);
        return at + bytes.length;
    }

    private int digits(final long value, final int at)
    {
        int n = 1;
        for (long v = value / 10; v > 0; v /= 10)
        {
            n++;
        }
        long v = value;
        for (int i = at + n - 1; i >= at; i--)
        {
            address[i] = (byte)('0' + (int)(v % 10));
            v /= 10;
        }
        return at + n;
    }
}
