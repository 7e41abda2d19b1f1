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
import io.jfabric.examples.WellKnownAddress;

/**
 * What the publisher and its subscribers agree on: how they ask getinfo for an endpoint, where the publisher lives,
 * and what a message looks like. Stateless; any thread.
 *
 * <h2>Finding each other, across restarts</h2>
 * The publisher is at a {@link WellKnownAddress}: on shm an endpoint slot of the domain it takes with
 * {@code fi_setname} (by default the last, {@code fi_shm://localhost:<ep_cnt - 1>/<domain>}), on a native provider
 * the node and service its endpoint listens at ({@code FI_SOURCE}; by default 127.0.0.1 and {@link #DEFAULT_PORT}).
 * Subscribers insert that address into their AV with {@code fi_av_insertsvc}, once: it names whoever is there, so
 * a restarted publisher is reached with no change on their side.
 * <p>
 * The publisher learns of subscribers from their SUBSCRIBE messages, which carry the subscriber's own
 * {@code fi_getname} bytes (the provider's address format: text on shm, a {@code struct sockaddr_in} on tcp), and
 * inserts them into its AV. A subscriber repeats its SUBSCRIBE every {@link #SUBSCRIBE_INTERVAL_MS} ms, so a
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
    /** The shm domain both sides use unless told otherwise: the name of the region file under /dev/shm. */
    public static final String DEFAULT_DOMAIN = "pubsub";
    /** The port a native provider's publisher listens on unless told otherwise ({@code --service}). */
    public static final int DEFAULT_PORT = 9230;

    /** Subscriber to publisher: "send to me" (payload: the subscriber's fi_getname bytes). Repeated as a keepalive. */
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
    /**
     * Largest message either side sends; receive buffers are this long. Within shm's inject size (4 KiB), so the
     * publisher injects there; above tcp's (64 B), where a longer message goes with fi_send.
     */
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
     * @param address the provider and where the publisher is.
     * @param domain  shm's named domain: every process that names it shares its region file, and so can talk.
     * @return the hints.
     */
    public static Info hints(final WellKnownAddress address, final String domain)
    {
        final Info hints = new Info();
        // FI_MSG: untagged send/recv. FI_SOURCE: completions say who sent (CompletionQueue.readFrom fills srcAddr).
        hints.caps(Flags.FI_MSG | Flags.FI_SOURCE);
        // Reliable datagrams: connectionless, every message arrives once and in order per sender.
        hints.epAttr().type(EpType.RDM);
        hints.domainAttr()
            // One thread uses all of this side's objects: no locks on the data path.
            .threading(Threading.DOMAIN)
            // Data moves when this process reads its CQ (no provider thread): read it often.
            .dataProgress(Progress.MANUAL);
        return address.hints(hints, domain);
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
}
