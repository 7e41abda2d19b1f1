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
package io.jfabric.examples.reqrep;

import io.jfabric.AvAttr;
import io.jfabric.AvType;
import io.jfabric.EpType;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Progress;
import io.jfabric.Threading;
import io.jfabric.examples.WellKnownAddress;

/**
 * What the server and its clients agree on: the getinfo hints, the server's well-known address, how a client makes
 * itself known, and the message layout. Stateless; any thread.
 *
 * <h2>How a reply finds its client: FI_SOURCE</h2>
 * The server's endpoint asks for FI_SOURCE, so when it reads a request with {@code CompletionQueue.readFrom}, the
 * completion's {@code srcAddr} is the client's fi_addr in the server's AV, and the server replies to exactly that. A
 * sender that is not in that AV comes as {@code FI_ADDR_NOTAVAIL}. How a client gets into it depends on what the
 * provider offers ({@link #sharedAv}):
 * <ul>
 * <li><b>A shared AV</b> (FI_SHARED_AV: jfabric's shm). Both sides open the same <em>named</em> address vector
 * ({@link #avAttr()}): one table in a file next to the domain's region, which every process that opens it sees,
 * with the same fi_addr values. A client inserts its own address ({@code fi_getname}) into it before its first
 * request; the server inserts nothing and needs no hello message.</li>
 * <li><b>Otherwise</b> (tcp and the other native providers), the portable way: each side has its own AV, and a
 * client's first message is a {@link #TYPE_HELLO} whose payload is its {@code fi_getname} bytes. The server
 * inserts them when the HELLO comes from an unknown source, replies, and from then on the client's requests come
 * with its fi_addr.</li>
 * </ul>
 * The server is found at its {@link WellKnownAddress}, as the pubsub publisher is.
 *
 * <h2>Message layout (requests and replies alike; a reply echoes its request)</h2>
 * <pre>
 *   0                   4                   8                                  16
 *   +-------------------+-------------------+-----------------------------------+
 *   |       type        |   payload length  |  client id (the client's pid)     |
 *   +-------------------+-------------------+-----------------------------------+
 *   |  sequence number                                                          |  24
 *   +---------------------------------------------------------------------------+
 *   |  payload: {@link #payloadByte}s; HELLO the client's address               |
 *   +---------------------------------------------------------------------------+
 * </pre>
 */
public final class ReqRep
{
    /** The shm domain both sides use unless told otherwise. */
    public static final String DEFAULT_DOMAIN = "reqrep";
    /** The port a native provider's server listens on unless told otherwise ({@code --service}). */
    public static final int DEFAULT_PORT = 9231;
    /** The named AV clients insert themselves into (where the provider shares AVs). */
    public static final String CLIENTS_AV = "clients";
    /** Entries of each AV: in the shared one each running client takes two (itself and the server's address). */
    public static final int CLIENTS_AV_COUNT = 256;

    /** A request to answer. */
    public static final int TYPE_REQUEST = 1;
    /** The client's last request: answered like any other, then the client closes. */
    public static final int TYPE_BYE = 2;
    /** Without a shared AV, the client's first message: its address, for the server to insert. Echoed. */
    public static final int TYPE_HELLO = 3;

    /** Offset of the type. */
    public static final int TYPE_OFFSET = 0;
    /** Offset of the payload length. */
    public static final int LENGTH_OFFSET = 4;
    /** Offset of the client id. */
    public static final int CLIENT_OFFSET = 8;
    /** Offset of the sequence number. */
    public static final int SEQUENCE_OFFSET = 16;
    /** Length of the header. */
    public static final int HEADER_LENGTH = 24;
    /**
     * Largest message. Within shm's inject_size ({@code jfabric.shm.inject.size}, 4 KiB by default), so the server
     * answers with fi_inject there; a reply above the provider's inject_size (tcp's is 64 B) goes with fi_send.
     */
    public static final int MAX_MESSAGE_LENGTH = 4096;
    /** Largest payload. */
    public static final int MAX_PAYLOAD_LENGTH = MAX_MESSAGE_LENGTH - HEADER_LENGTH;

    private ReqRep()
    {
    }

    /**
     * @param address the provider and where the server is.
     * @param domain  shm's named domain.
     * @return the fi_getinfo hints of both sides.
     */
    public static Info hints(final WellKnownAddress address, final String domain)
    {
        final Info hints = new Info();
        // FI_SOURCE: completions carry the sender's fi_addr. FI_SHARED_AV (shm): the AV is shared between
        // processes; a provider without it is asked for none (getinfo would find no match).
        hints.caps(Flags.FI_MSG | Flags.FI_SOURCE | (address.isShm() ? Flags.FI_SHARED_AV : 0));
        hints.epAttr().type(EpType.RDM);
        // One thread per side, progress in that thread's CQ reads: the lowest latency shm offers.
        hints.domainAttr().threading(Threading.DOMAIN).dataProgress(Progress.MANUAL);
        return address.hints(hints, domain);
    }

    /**
     * @param info the info getinfo returned.
     * @return whether its domain shares named AVs between processes (FI_SHARED_AV), so that clients join the
     *         server's AV themselves; otherwise they say {@link #TYPE_HELLO}.
     */
    public static boolean sharedAv(final Info info)
    {
        return (info.caps() & Flags.FI_SHARED_AV) != 0;
    }

    /**
     * @param info the info getinfo returned.
     * @return the attributes of each side's AV: the named one both sides open where the provider shares AVs (the
     *         first opener's count sizes its table), else a private one.
     */
    public static AvAttr avAttr(final Info info)
    {
        final AvAttr attr = new AvAttr().type(AvType.TABLE).count(CLIENTS_AV_COUNT);
        return sharedAv(info) ? attr.name(CLIENTS_AV) : attr;
    }

    /**
     * @param sequence a request's sequence number.
     * @param index    a byte's index in its payload.
     * @return the byte the client puts there (the reply must carry it back).
     */
    public static byte payloadByte(final long sequence, final int index)
    {
        return (byte)(sequence * 17 + index);
    }
}
