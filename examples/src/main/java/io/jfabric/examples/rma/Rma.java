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
import io.jfabric.examples.WellKnownAddress;

/**
 * What the target and its initiators agree on: the getinfo hints, the target's well-known address, the key and
 * the layout of the registered memory. Stateless; any thread.
 *
 * <h2>Addresses in the target's memory</h2>
 * The hints ask for no {@code mr_mode} bits, so the key is the one the target chooses ({@link #KEY}, not one the
 * provider picks: FI_MR_PROV_KEY) and an address is an offset from the registered memory's first byte (not the
 * target's virtual address: FI_MR_VIRT_ADDR). An initiator therefore needs nothing from the target but its
 * address, which is well-known ({@link WellKnownAddress}, as the pubsub publisher's).
 * <pre>
 *   0                                        4096              4104                 1 MiB
 *   +----------------------------------------+-----------------+------- ... --------+
 *   |  block: what initiators write (4 KiB)  | counter (u64)   |      unused        |
 *   +----------------------------------------+-----------------+------- ... --------+
 * </pre>
 */
public final class Rma
{
    /** The shm domain both sides use unless told otherwise. */
    public static final String DEFAULT_DOMAIN = "rma";
    /** The port a native provider's target listens on unless told otherwise ({@code --service}). */
    public static final int DEFAULT_PORT = 9232;
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
     * @param address the provider and where the target is.
     * @param domain  shm's named domain.
     * @return the fi_getinfo hints of both sides.
     */
    public static Info hints(final WellKnownAddress address, final String domain)
    {
        final Info hints = new Info();
        // FI_RMA and FI_ATOMIC: read, write and atomics, both as initiator and (FI_REMOTE_*) as target. FI_MSG for
        // the initiator's "done".
        hints.caps(Flags.FI_MSG | Flags.FI_RMA | Flags.FI_ATOMIC);
        hints.epAttr().type(EpType.RDM);
        // No mr_mode bits: user-chosen keys, 0-based offsets.
        hints.domainAttr().threading(Threading.DOMAIN).dataProgress(Progress.MANUAL).mrMode(0);
        return address.hints(hints, domain);
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
}
