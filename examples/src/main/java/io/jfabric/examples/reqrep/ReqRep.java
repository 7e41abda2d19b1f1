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

import java.nio.charset.StandardCharsets;

/**
 * What the server and its clients agree on: the getinfo hints, the server's well-known address, the named address
 * vector they share, and the message layout. Stateless; any thread.
 *
 * <h2>How a reply finds its client: FI_SOURCE over a shared AV</h2>
 * Both sides open the same <em>named</em> address vector ({@link #avAttr()}): one table in a file next to the
 * domain's region, which every process that opens it sees, with the same fi_addr values. A client inserts its own
 * address ({@code fi_getname}) into it before its first request. The server's endpoint is bound to that AV, so
 * when it reads a request with {@code CompletionQueue.readFrom}, the completion's {@code srcAddr} is the client's
 * fi_addr, and the server replies to exactly that. A sender that is not in the AV comes as
 * {@code FI_ADDR_NOTAVAIL}: the server cannot answer it.
 * <p>
 * The server is found as the pubsub publisher is: it calls {@code fi_setname} with the domain's last slot, and
 * clients insert that address without {@code ?gen=}, so it keeps naming the server across restarts.
 *
 * <h2>Message layout (requests and replies alike; a reply echoes its request)</h2>
 * <pre>
 *   0                   4                   8                                  16
 *   +-------------------+-------------------+-----------------------------------+
 *   |       type        |   payload length  |  client id (the client's pid)     |
 *   +-------------------+-------------------+-----------------------------------+
 *   |  sequence number                                                          |  24
 *   +---------------------------------------------------------------------------+
 *   |  payload: {@link #payloadByte}s                                          |
 *   +---------------------------------------------------------------------------+
 * </pre>
 */
public final class ReqRep
{
    /** The domain both sides use unless told otherwise. */
    public static final String DEFAULT_DOMAIN = "reqrep";
    /** The named AV clients insert themselves into. */
    public static final String CLIENTS_AV = "clients";
    /** Entries of that AV: each running client takes two (itself and the server's address). */
    public static final int CLIENTS_AV_COUNT = 256;

    /** A request to answer. */
    public static final int TYPE_REQUEST = 1;
    /** The client's last request: answered like any other, then the client closes. */
    public static final int TYPE_BYE = 2;

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
     * Largest message: the server answers with fi_inject, which takes up to inject_size bytes
     * ({@code jfabric.shm.inject.size}, 4 KiB by default).
     */
    public static final int MAX_MESSAGE_LENGTH = 4096;
    /** Largest payload. */
    public static final int MAX_PAYLOAD_LENGTH = MAX_MESSAGE_LENGTH - HEADER_LENGTH;

    private ReqRep()
    {
    }

    /**
     * @param domain the named domain.
     * @return the fi_getinfo hints of both sides.
     */
    public static Info hints(final String domain)
    {
        final Info hints = new Info();
        // FI_SOURCE: completions carry the sender's fi_addr. FI_SHARED_AV: the AV is shared between processes.
        hints.caps(Flags.FI_MSG | Flags.FI_SOURCE | Flags.FI_SHARED_AV | Flags.FI_LOCAL_COMM);
        hints.fabricAttr().provName("shm");
        hints.epAttr().type(EpType.RDM);
        // One thread per side, progress in that thread's CQ reads: the lowest latency shm offers.
        hints.domainAttr().name(domain).threading(Threading.DOMAIN).dataProgress(Progress.MANUAL);
        return hints;
    }

    /**
     * @return the attributes of the named AV both sides open; the first opener's count sizes its table.
     */
    public static AvAttr avAttr()
    {
        return new AvAttr().type(AvType.TABLE).name(CLIENTS_AV).count(CLIENTS_AV_COUNT);
    }

    /**
     * @param info   the info getinfo returned.
     * @param domain the domain's name.
     * @return the server's well-known address: the domain's last slot, with no incarnation.
     */
    public static String serverAddress(final Info info, final String domain)
    {
        return "fi_shm://localhost:" + (info.domainAttr().epCnt() - 1) + "/" + domain;
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

    /**
     * @param name what {@code Endpoint.getname()} returned.
     * @return it as text, without NUL padding.
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
