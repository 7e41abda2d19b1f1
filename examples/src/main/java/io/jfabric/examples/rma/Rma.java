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
package io.jfabric.examples.rma;

import io.jfabric.EpType;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Progress;
import io.jfabric.Threading;

import java.nio.charset.StandardCharsets;

/**
 * What the target and its initiators agree on: the getinfo hints, the target's well-known address, the key and
 * the layout of the registered memory. Stateless; any thread.
 *
 * <h2>Addresses in the target's memory</h2>
 * The hints ask for no {@code mr_mode} bits, so the key is the one the target chooses ({@link #KEY}, not one the
 * provider picks: FI_MR_PROV_KEY) and an address is an offset from the registered memory's first byte (not the
 * target's virtual address: FI_MR_VIRT_ADDR). An initiator therefore needs nothing from the target but its
 * address, which is well-known (the domain's last endpoint slot, as the pubsub publisher's).
 * <pre>
 *   0                                        4096              4104                 1 MiB
 *   +----------------------------------------+-----------------+------- ... --------+
 *   |  block: what initiators write (4 KiB)  | counter (u64)   |      unused        |
 *   +----------------------------------------+-----------------+------- ... --------+
 * </pre>
 */
public final class Rma
{
    /** The domain both sides use unless told otherwise. */
    public static final String DEFAULT_DOMAIN = "rma";
    /** The key the target registers its memory under. */
    public static final long KEY = 42;
    /** Bytes the target registers. */
    public static final int MEMORY_LENGTH = 1 << 20;
    /** Offset of the block initiators write. */
    public static final long BLOCK_OFFSET = 0;
    /** Length of that block. */
    public static final int BLOCK_LENGTH = 4096;
    /** Offset of the 64-bit counter initiators add 1 to. */
    public static final long COUNTER_OFFSET = BLOCK_OFFSET + BLOCK_LENGTH;
    /** The message an initiator sends the target when it is done. */
    public static final String DONE = "done";

    private Rma()
    {
    }

    /**
     * @param domain the named domain.
     * @return the fi_getinfo hints of both sides.
     */
    public static Info hints(final String domain)
    {
        final Info hints = new Info();
        // FI_RMA and FI_ATOMIC: read, write and atomics, both as initiator and (FI_REMOTE_*) as target. FI_MSG for
        // the initiator's "done".
        hints.caps(Flags.FI_MSG | Flags.FI_RMA | Flags.FI_ATOMIC | Flags.FI_LOCAL_COMM);
        hints.fabricAttr().provName("shm");
        hints.epAttr().type(EpType.RDM);
        // No mr_mode bits: user-chosen keys, 0-based offsets.
        hints.domainAttr().name(domain).threading(Threading.DOMAIN).dataProgress(Progress.MANUAL).mrMode(0);
        return hints;
    }

    /**
     * @param info   the info getinfo returned.
     * @param domain the domain's name.
     * @return the target's well-known address: the domain's last slot, with no incarnation.
     */
    public static String targetAddress(final Info info, final String domain)
    {
        return "fi_shm://localhost:" + (info.domainAttr().epCnt() - 1) + "/" + domain;
    }

    /**
     * @param round  the initiator's round (0 for the first initiator, 1 for the next, ...: the counter's value).
     * @param index  a byte's index in the block.
     * @return the byte an initiator writes there.
     */
    public static byte blockByte(final long round, final int index)
    {
        return (byte)(round * 31 + index);
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
