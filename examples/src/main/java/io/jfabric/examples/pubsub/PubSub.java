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
package io.jfabric.examples.pubsub;

import io.jfabric.EpType;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Progress;
import io.jfabric.Threading;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * What the publisher and its subscribers agree on: how they ask getinfo for an endpoint, where the publisher lives,
 * and what a message looks like. Stateless; any thread.
 *
 * <h2>Finding each other, across restarts</h2>
 * The publisher takes a <em>well-known address</em>: before enabling its endpoint it calls {@code fi_setname} with
 * the last endpoint slot of the domain, {@code fi_shm://localhost:<ep_cnt - 1>/<domain>}, much as a TCP server binds
 * a well-known port. Ordinary endpoints take the lowest free slot, so the last one is free unless the domain is
 * full. Subscribers insert that same address into their AV. It has no {@code ?gen=} qualifier, so it means
 * "whichever endpoint holds that slot now": when the publisher restarts, the subscribers' sends reach the new one
 * without any change on their side. (The address {@code fi_getname} prints carries {@code ?gen=n} and names one
 * incarnation only; use that form when a restarted peer must NOT be mistaken for the old one.)
 * <p>
 * The publisher learns of subscribers from their SUBSCRIBE messages, which carry the subscriber's own
 * {@code fi_getname} text. A subscriber repeats its SUBSCRIBE every {@link #SUBSCRIBE_INTERVAL_MS} ms, so a
 * restarted publisher, which starts with an empty subscriber list, has them all back within that time.
 *
 * <h2>Message layout</h2>
 * <pre>
 *   0                   4                   8                                  16
 *   +-------------------+-------------------+-----------------------------------+
 *   |       type        |   payload length  |  publisher id (its pid; DATA, END) |
 *   +-------------------+-------------------+-----------------------------------+
 *   |  sequence number (DATA: 1, 2, 3, ... per publisher id)                    |  24
 *   +---------------------------------------------------------------------------+
 *   |  payload: DATA {@link #payloadByte}s; SUBSCRIBE the subscriber's address   |
 *   +---------------------------------------------------------------------------+
 * </pre>
 */
public final class PubSub
{
    /** The domain both sides use unless told otherwise: the name of the region file under /dev/shm. */
    public static final String DEFAULT_DOMAIN = "pubsub";

    /** Subscriber to publisher: "send to me" (payload: the subscriber's address text). Repeated as a keepalive. */
    public static final int TYPE_SUBSCRIBE = 1;
    /** Publisher to subscriber: one message of the stream. */
    public static final int TYPE_DATA = 2;
    /** Publisher to subscriber: the stream is over (the publisher sent its --count messages). */
    public static final int TYPE_END = 3;

    /** Offset of the type. */
    public static final int TYPE_OFFSET = 0;
    /** Offset of the payload length. */
    public static final int LENGTH_OFFSET = 4;
    /** Offset of the publisher id. */
    public static final int PUBLISHER_OFFSET = 8;
    /** Offset of the sequence number. */
    public static final int SEQUENCE_OFFSET = 16;
    /** Length of the header; the payload follows it. */
    public static final int HEADER_LENGTH = 24;
    /** Largest message either side sends; receive buffers are this long. Below the provider's inject size (4 KiB). */
    public static final int MAX_MESSAGE_LENGTH = 1024;
    /** Largest payload of a message. */
    public static final int MAX_PAYLOAD_LENGTH = MAX_MESSAGE_LENGTH - HEADER_LENGTH;

    /** How often a subscriber repeats its SUBSCRIBE. */
    public static final long SUBSCRIBE_INTERVAL_MS = 100;

    private PubSub()
    {
    }

    /**
     * The fi_getinfo hints of both sides.
     *
     * @param domain the named domain: every process that names it shares its region file, and so can talk.
     * @return the hints.
     */
    public static Info hints(final String domain)
    {
        final Info hints = new Info();
        // FI_MSG: untagged send/recv. FI_SOURCE: completions say who sent (CompletionQueue.readFrom fills srcAddr).
        // FI_LOCAL_COMM: peers on this host only, which is all shm offers (it would be added anyway).
        hints.caps(Flags.FI_MSG | Flags.FI_SOURCE | Flags.FI_LOCAL_COMM);
        hints.fabricAttr().provName("shm");
        // Reliable datagrams: connectionless, every message arrives once and in order per sender.
        hints.epAttr().type(EpType.RDM);
        hints.domainAttr()
            .name(domain)
            // One thread uses all of this side's objects: no locks on the data path.
            .threading(Threading.DOMAIN)
            // Data moves when this process reads its CQ (no provider thread): read it often.
            .dataProgress(Progress.MANUAL);
        return hints;
    }

    /**
     * @param info   the info getinfo returned (its ep_cnt is the number of endpoint slots in the domain).
     * @param domain the domain's name.
     * @return the publisher's well-known address: the domain's last slot, with no incarnation.
     */
    public static String publisherAddress(final Info info, final String domain)
    {
        return "fi_shm://localhost:" + (info.domainAttr().epCnt() - 1) + "/" + domain;
    }

    /**
     * @param sequence a DATA message's sequence number.
     * @param index    a byte's index in its payload.
     * @return the byte the publisher puts there, so that a subscriber can check the payload arrived intact.
     */
    public static byte payloadByte(final long sequence, final int index)
    {
        return (byte)(sequence * 31 + index);
    }

    /**
     * Read an address (ASCII text) out of a message's payload.
     *
     * @param buffer the buffer holding the message.
     * @param offset where the message starts.
     * @param length the payload length.
     * @return the text.
     */
    public static String payloadText(final ByteBuffer buffer, final int offset, final int length)
    {
        final byte[] bytes = new byte[length];
        buffer.get(offset + HEADER_LENGTH, bytes);
        return new String(bytes, StandardCharsets.US_ASCII);
    }

    /**
     * @param name what {@code Endpoint.getname()} returned.
     * @return it as text, without the NUL padding an address buffer may carry.
     */
    public static String addressText(final byte[] name)
    {
        int length = 0;
        while (length < name.length && name[length] != 0)
        {
            length++;
        }
        return new String(name, 0, length, StandardCharsets.US_ASCII);
    }
}
