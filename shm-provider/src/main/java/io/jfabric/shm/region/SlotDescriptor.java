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
package io.jfabric.shm.region;

import io.jfabric.shm.core.ProcessIdentity;
import io.jfabric.shm.region.RegionDescriptor;
import io.jfabric.shm.region.RegionGeometry;

import org.agrona.BitUtil;

/**
 * Layout of an endpoint slot's header in the domain region (the slot itself is placed by
 * {@link RegionDescriptor}): the only class that computes offsets into it.
 * <pre>
 *    0                   1                   2                   3
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *   +---------------------------------------------------------------+  0 owner line
 *   |   Owner: ProcessIdentity of the process holding the slot, 0   |
 *   |   when free; claimed and released by CAS                      |
 *   +---------------------------------------------------------------+  8
 *   |   Incarnation: +1 at every claim, never 0 once claimed        |
 *   +---------------------------------------------------------------+  12
 *   |   State: FREE, CLAIMED (opened), ACTIVE (enabled), release    |
 *   +---------------------------------------------------------------+  16
 *   |   Context Of (long): in a slot that serves a context of a     |
 *   |   scalable endpoint, that endpoint's address slot + 1 (high   |
 *   |   32) and incarnation (low 32); 0 in an endpoint's own slot   |
 *   +---------------------------------------------------------------+  24
 *   |                     Reserved up to 64                        ...
 *   +---------------------------------------------------------------+  64
 *   |   Heartbeat, epoch ms (long): every 10 ms while enabled       |
 *   +---------------------------------------------------------------+  72
 *   |                     Reserved up to 128                       ...
 *   +---------------------------------------------------------------+  128 completion ring line
 *   |   CQ Owner: ProcessIdentity of the process whose completion   |
 *   |   queue uses this slot's completion ring, 0 when free (CAS)   |
 *   +---------------------------------------------------------------+  136
 *   |                     Reserved up to 192                       ...
 *   +---------------------------------------------------------------+  192 path statistics (owner writes)
 *   |   Sends that went whole into an idle lane (long) [S]          |
 *   +---------------------------------------------------------------+  200
 *   |   Sends segmented into FIRST + PIECE records (long) [P]       |
 *   +---------------------------------------------------------------+  208
 *   |   Sends the receiver copied from shareable memory (long) [P]  |
 *   +---------------------------------------------------------------+  216
 *   |   Zero-copy claims committed (long) [S]                       |
 *   +---------------------------------------------------------------+  224
 *   |   Whole sends queued behind another to the same peer (long)[P]|
 *   +---------------------------------------------------------------+  232
 *   |   Lane records dropped as damaged (long) [R]                  |
 *   +---------------------------------------------------------------+  240
 *   |                     Reserved up to 256                       ...
 *   +---------------------------------------------------------------+  256 authorization keys
 *   |   Key Count (int): digests that follow; 0 = accepts no key    |
 *   +---------------------------------------------------------------+  260
 *   |                     Reserved up to 320                       ...
 *   +---------------------------------------------------------------+  320
 *   |   Key Digest 0 ... MAX_AUTH_DIGESTS - 1 (long each): the      |
 *   |   authorization keys the endpoint accepts senders with        |
 *   +---------------------------------------------------------------+  384 receive contexts (scalable endpoint)
 *   |   RX Context Count (int): receive contexts a scalable         |
 *   |   endpoint's address slot leads to; 0 for an endpoint         |
 *   +---------------------------------------------------------------+  388
 *   |                     Reserved up to 448                       ...
 *   +---------------------------------------------------------------+  448
 *   |   RX Context 0 ... MAX_EP_CONTEXTS - 1 (long each): the slot  |
 *   |   + 1 (high 32) and incarnation (low 32) of that enabled      |
 *   |   receive context, 0 while it is not enabled (release/acquire)|
 *   +---------------------------------------------------------------+  576 remote access counters
 *   |   Remote Read Counter (int): counter table index + 1 of the     |
 *   |   counter bound with FI_REMOTE_READ (FI_RMA_EVENT), 0 = none    |
 *   +---------------------------------------------------------------+  580
 *   |   Remote Write Counter (int): index + 1 of the counter bound    |
 *   |   with FI_REMOTE_WRITE, 0 = none                                |
 *   +---------------------------------------------------------------+  584
 *   |                     Reserved up to 1024                      ...
 *   +---------------------------------------------------------------+  1024 = SLOT_LANE_OWNERS_OFFSET
 *   |   Lane Owner 0 (long): who may write lane 0 of this slot      |
 *   +---------------------------------------------------------------+  1032
 *   |   Lane Owner 1 ... one per slot                              ...
 *   +---------------------------------------------------------------+  slotHeaderLength(g)
 * </pre>
 * The key count and digests, and the remote access counters, are written before the slot's state goes ACTIVE
 * (release) and never change while it is; a sender reads them after acquiring that state (see {@code AuthKeys}). An
 * initiator whose RMA or atomic operation on this endpoint succeeded adds one to the counter a remote access
 * counter word names (the entry of the domain's counter table, {@code CounterTableDescriptor}).
 * <p>
 * A scalable endpoint holds one slot for its address (whose RX context count is non-zero and never changes while
 * it is ACTIVE) and one slot per context; a sender that resolves the address slot reads the entry of the receive
 * context it names and writes that context's lane instead. An entry is published with an ordered store when its
 * context is enabled and zeroed before the context's slot is released.
 * <p>
 * Each statistic has one writer, so a plain increment published with an ordered store is exact: [S] the
 * endpoint's sending side, [P] its transmit progress (see {@code TxContext}), [R] its receive context.
 * <p>
 * A lane owner word is 0 when the lane is free, else {@code (senderIncarnation << 32) | receiverIncarnation}: the
 * sender in slot {@code s} claims lane {@code s} of receiver {@code r} by CAS from 0 (or from a word naming an
 * earlier receiver incarnation) to its stamp, and checks the word before every send, so a receiver that closes or
 * is replaced (it zeroes its lane owners) is noticed by a sender's next send. The receiver frees a lane (CAS back to
 * 0) once it has drained it and its sender incarnation is gone.
 * <p>
 * Stateless; any thread.
 */
public final class SlotDescriptor
{
    /** Offset of the owner identity (long). */
    public static final int OWNER_OFFSET = 0;
    /** Offset of the incarnation (int). */
    public static final int INCARNATION_OFFSET = 8;
    /** Offset of the state (int). */
    public static final int STATE_OFFSET = 12;
    /** Offset of the heartbeat (long). */
    public static final int HEARTBEAT_OFFSET = BitUtil.CACHE_LINE_LENGTH;
    /** Offset of the completion ring's owner (long). */
    public static final int CQ_OWNER_OFFSET = 2 * BitUtil.CACHE_LINE_LENGTH;
    /** Offset of the count of sends that travelled in one lane record (long). */
    public static final int STAT_INLINE_OFFSET = 3 * BitUtil.CACHE_LINE_LENGTH;
    /** Offset of the count of segmented sends (long). */
    public static final int STAT_SEGMENTED_OFFSET = STAT_INLINE_OFFSET + 8;
    /** Offset of the count of one-copy (rendezvous) sends (long). */
    public static final int STAT_RENDEZVOUS_OFFSET = STAT_INLINE_OFFSET + 16;
    /** Offset of the count of committed zero-copy claims (long). */
    public static final int STAT_CLAIMED_OFFSET = STAT_INLINE_OFFSET + 24;
    /** Offset of the count of whole sends that were queued behind another send to the same peer (long). */
    public static final int STAT_QUEUED_OFFSET = STAT_INLINE_OFFSET + 32;
    /** Offset of the count of lane records the receiver dropped as damaged (long). */
    public static final int STAT_DAMAGED_OFFSET = STAT_INLINE_OFFSET + 40;
    /** Offset of the count of authorization key digests the endpoint accepts (int). */
    public static final int AUTH_COUNT_OFFSET = 4 * BitUtil.CACHE_LINE_LENGTH;
    /** Offset of the first authorization key digest (long). */
    public static final int AUTH_DIGESTS_OFFSET = 5 * BitUtil.CACHE_LINE_LENGTH;
    /** Offset of the scalable endpoint a context's slot serves (long), 0 in an endpoint's own slot. */
    public static final int CONTEXT_OF_OFFSET = 16;
    /** Offset of the count of receive contexts behind a scalable endpoint's address slot (int). */
    public static final int RX_CONTEXT_COUNT_OFFSET = 6 * BitUtil.CACHE_LINE_LENGTH;
    /** Offset of the first receive context entry (long). */
    public static final int RX_CONTEXTS_OFFSET = 7 * BitUtil.CACHE_LINE_LENGTH;
    /** Offset of the counter table index + 1 of the endpoint's FI_REMOTE_READ counter (int). */
    public static final int REMOTE_READ_COUNTER_OFFSET = 9 * BitUtil.CACHE_LINE_LENGTH;
    /** Offset of the counter table index + 1 of the endpoint's FI_REMOTE_WRITE counter (int). */
    public static final int REMOTE_WRITE_COUNTER_OFFSET = REMOTE_READ_COUNTER_OFFSET + 4;
    /** The most transmit or receive contexts of one scalable endpoint (max_ep_tx_ctx, max_ep_rx_ctx). */
    public static final int MAX_EP_CONTEXTS = io.jfabric.shm.core.ShmCapabilities.MAX_EP_CONTEXTS;
    /** The most authorization keys one endpoint accepts. */
    public static final int MAX_AUTH_DIGESTS = 8;
    /** State: no endpoint. */
    public static final int STATE_FREE = 0;
    /** State: an endpoint holds the slot but is not enabled; its lanes do not accept messages yet. */
    public static final int STATE_CLAIMED = 1;
    /** State: an enabled endpoint receives through the slot's lanes. */
    public static final int STATE_ACTIVE = 2;

    private SlotDescriptor()
    {
    }

    /**
     * @param g    geometry.
     * @param slot slot index.
     * @return region offset of the slot's owner identity.
     */
    public static int ownerOffset(final RegionGeometry g, final int slot)
    {
        return RegionDescriptor.slotOffset(g, slot) + OWNER_OFFSET;
    }

    /**
     * @param g    geometry.
     * @param slot slot index.
     * @return region offset of the slot's incarnation.
     */
    public static int incarnationOffset(final RegionGeometry g, final int slot)
    {
        return RegionDescriptor.slotOffset(g, slot) + INCARNATION_OFFSET;
    }

    /**
     * @param g    geometry.
     * @param slot slot index.
     * @return region offset of the slot's state.
     */
    public static int stateOffset(final RegionGeometry g, final int slot)
    {
        return RegionDescriptor.slotOffset(g, slot) + STATE_OFFSET;
    }

    /**
     * @param g    geometry.
     * @param slot slot index.
     * @return region offset of the slot's heartbeat.
     */
    public static int heartbeatOffset(final RegionGeometry g, final int slot)
    {
        return RegionDescriptor.slotOffset(g, slot) + HEARTBEAT_OFFSET;
    }

    /**
     * @param g    geometry.
     * @param slot slot index, which is also the completion ring's number.
     * @return region offset of that completion ring's owner.
     */
    public static int cqOwnerOffset(final RegionGeometry g, final int slot)
    {
        return RegionDescriptor.slotOffset(g, slot) + CQ_OWNER_OFFSET;
    }

    /**
     * @param g          geometry.
     * @param slot       slot index.
     * @param statOffset one of the STAT_ offsets.
     * @return region offset of that statistic of the slot.
     */
    public static int statOffset(final RegionGeometry g, final int slot, final int statOffset)
    {
        return RegionDescriptor.slotOffset(g, slot) + statOffset;
    }

    /**
     * @param g        geometry.
     * @param receiver receiving slot.
     * @param sender   sending slot.
     * @return region offset of the owner word of the lane from {@code sender} to {@code receiver}.
     */
    public static int laneOwnerOffset(final RegionGeometry g, final int receiver, final int sender)
    {
        if (sender < 0 || sender >= g.slotCount())
        {
            throw new IndexOutOfBoundsException("sender slot " + sender + " not in [0, " + g.slotCount() + ")");
        }
        return RegionDescriptor.slotOffset(g, receiver) + RegionDescriptor.SLOT_LANE_OWNERS_OFFSET + 8 * sender;
    }

    /**
     * @param senderIncarnation   the sending endpoint's incarnation.
     * @param receiverIncarnation the receiving endpoint's incarnation.
     * @return the lane owner word.
     */
    public static long laneStamp(final int senderIncarnation, final int receiverIncarnation)
    {
        return ((long)senderIncarnation << 32) | (receiverIncarnation & 0xFFFF_FFFFL);
    }

    /**
     * @param stamp a lane owner word.
     * @return the sender incarnation it names.
     */
    public static int senderIncarnation(final long stamp)
    {
        return (int)(stamp >>> 32);
    }

    /**
     * @param stamp a lane owner word.
     * @return the receiver incarnation it names.
     */
    public static int receiverIncarnation(final long stamp)
    {
        return (int)stamp;
    }

    /**
     * @param g    geometry.
     * @param slot slot index.
     * @return region offset of the slot's authorization key count.
     */
    public static int authCountOffset(final RegionGeometry g, final int slot)
    {
        return RegionDescriptor.slotOffset(g, slot) + AUTH_COUNT_OFFSET;
    }

    /**
     * @param g     geometry.
     * @param slot  slot index.
     * @param index digest index, below {@link #MAX_AUTH_DIGESTS}.
     * @return region offset of the slot's authorization key digest {@code index}.
     */
    public static int authDigestOffset(final RegionGeometry g, final int slot, final int index)
    {
        return RegionDescriptor.slotOffset(g, slot) + AUTH_DIGESTS_OFFSET + 8 * index;
    }

    /**
     * @param g    geometry.
     * @param slot slot index.
     * @return region offset of the word naming the scalable endpoint the slot's context serves.
     */
    public static int contextOfOffset(final RegionGeometry g, final int slot)
    {
        return RegionDescriptor.slotOffset(g, slot) + CONTEXT_OF_OFFSET;
    }

    /**
     * @param g    geometry.
     * @param slot a scalable endpoint's address slot.
     * @return region offset of its receive context count.
     */
    public static int rxContextCountOffset(final RegionGeometry g, final int slot)
    {
        return RegionDescriptor.slotOffset(g, slot) + RX_CONTEXT_COUNT_OFFSET;
    }

    /**
     * @param g     geometry.
     * @param slot  a scalable endpoint's address slot.
     * @param index receive context index, below {@link #MAX_EP_CONTEXTS}.
     * @return region offset of that receive context's entry.
     */
    public static int rxContextOffset(final RegionGeometry g, final int slot, final int index)
    {
        return RegionDescriptor.slotOffset(g, slot) + RX_CONTEXTS_OFFSET + 8 * index;
    }

    /**
     * @param g     geometry.
     * @param slot  slot index.
     * @param write the FI_REMOTE_WRITE counter (else FI_REMOTE_READ).
     * @return region offset of the word naming the endpoint's counter for remote reads or writes.
     */
    public static int remoteCounterOffset(final RegionGeometry g, final int slot, final boolean write)
    {
        return RegionDescriptor.slotOffset(g, slot) + (write ? REMOTE_WRITE_COUNTER_OFFSET : REMOTE_READ_COUNTER_OFFSET);
    }

    /**
     * @param slot        a slot.
     * @param incarnation its incarnation.
     * @return the word that names them in a receive context entry or a context-of word: never 0.
     */
    public static long slotWord(final int slot, final int incarnation)
    {
        return ((long)(slot + 1) << 32) | (incarnation & 0xFFFF_FFFFL);
    }

    /**
     * @param word a non-zero word of {@link #slotWord}.
     * @return the slot it names.
     */
    public static int wordSlot(final long word)
    {
        return (int)(word >>> 32) - 1;
    }

    /**
     * @param word a word of {@link #slotWord}.
     * @return the incarnation it names.
     */
    public static int wordIncarnation(final long word)
    {
        return (int)word;
    }
}
