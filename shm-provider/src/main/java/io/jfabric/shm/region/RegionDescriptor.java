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

import org.agrona.BitUtil;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

/**
 * Layout version 10 ({@link #LAYOUT_VERSION} says what each version from 5 on changed) of a named domain's region
 * file, {@code <rootDir>/<domain name>.domain}: the only class that computes offsets into it.
 * <p>
 * Version 4 added the region nonce (named AV files carry it, so a file of an earlier region of the same name is never
 * opened as this one's), the removal word and the user table (who maps the region now, so {@code jfabric clean}
 * removes a region only once every process that opened it is gone). Version 3 gave each slot one receive lane per sender slot and a slot header sized for the lane owner words.
 * Version 2 added the MR key table's lock and provider key sequence to the header and gave the key and counter
 * tables their entry layouts ({@code MrTableDescriptor}, {@code CounterTableDescriptor}); a version 1 file (left by
 * an older jfabric) is refused and must be removed.
 * <p>
 * The file is a header page, then one slot per endpoint, then the memory region key table and the counter table.
 * Every part starts on a {@link #PAGE_LENGTH} boundary, so the file can be mapped in pieces later:
 * <pre>
 *   +------------------------------+  0
 *   |  Header (HEADER_LENGTH)      |
 *   +------------------------------+  SLOT_AREA_OFFSET = slotOffset(g, 0)
 *   |  Slot 0 (slotLength(g))      |
 *   +------------------------------+  slotOffset(g, 1)
 *   |  ...                         |
 *   +------------------------------+  slotOffset(g, slotCount - 1)
 *   |  Slot slotCount - 1          |
 *   +------------------------------+  mrTableOffset(g)
 *   |  MR key table                |  mrTableEntries x MR_ENTRY_LENGTH, page aligned
 *   +------------------------------+  counterTableOffset(g)
 *   |  Counter table               |  counterEntries x COUNTER_ENTRY_LENGTH, page aligned
 *   +------------------------------+  mrAuthTableOffset(g)
 *   |  MR key digests              |  mrTableEntries x 8: the AuthKeyDigest of each MR entry's
 *   |                              |  authorization key, 0 for none (layout 6), page aligned
 *   +------------------------------+  regionLength(g)
 * </pre>
 * The header, one page; each group starts a cache line so the two fields other processes write (ready and attach
 * count) share no line with anything else:
 * <pre>
 *    0                   1                   2                   3
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *   +---------------------------------------------------------------+  0 identity
 *   |                      Magic "JFABRIC" + 1                      |
 *   |                                                               |
 *   +---------------------------------------------------------------+  8
 *   |                        Layout Version                         |
 *   +---------------------------------------------------------------+  12
 *   |                        Header Length                          |
 *   +---------------------------------------------------------------+  16
 *   |                   Region (file) Length                        |
 *   |                                                               |
 *   +---------------------------------------------------------------+  24
 *   |                     Reserved up to 64                        ...
 *   +---------------------------------------------------------------+  64 geometry
 *   |                          Slot Count                           |
 *   +---------------------------------------------------------------+  68
 *   |                      Rx Ring Capacity                         |
 *   +---------------------------------------------------------------+  72
 *   |                      Tx Ring Capacity                         |
 *   +---------------------------------------------------------------+  76
 *   |                      CQ Ring Capacity                         |
 *   +---------------------------------------------------------------+  80
 *   |                      MR Table Entries                         |
 *   +---------------------------------------------------------------+  84
 *   |                      Counter Entries                          |
 *   +---------------------------------------------------------------+  88
 *   |                     Reserved up to 128                       ...
 *   +---------------------------------------------------------------+  128 creator
 *   |                Creator Pid (ProcessHandle.pid)                |
 *   |                                                               |
 *   +---------------------------------------------------------------+  136
 *   |        Creator Process Start Time (epoch ms, 0 if unknown)    |
 *   |                                                               |
 *   +---------------------------------------------------------------+  144
 *   |                  Creation Time (epoch ms)                     |
 *   |                                                               |
 *   +---------------------------------------------------------------+  152
 *   |   Region Nonce: random, never 0, drawn by the creator; names  |
 *   |   this region's AV files                                      |
 *   +---------------------------------------------------------------+  160
 *   |                     Reserved up to 192                       ...
 *   +---------------------------------------------------------------+  192 name
 *   |                  Domain Name Length (bytes)                   |
 *   +---------------------------------------------------------------+  196
 *   |       Domain Name, US-ASCII, up to NAME_CAPACITY bytes       ...
 *   +---------------------------------------------------------------+  448 checksum
 *   |       Header Checksum: CRC32C of bytes [0, CHECKSUM_OFFSET)   |
 *   +---------------------------------------------------------------+  452
 *   |                     Reserved up to 512                       ...
 *   +---------------------------------------------------------------+  512 ready
 *   |  Ready: READY_VALUE, written last with release by the creator |
 *   +---------------------------------------------------------------+  516
 *   |                     Reserved up to 576                       ...
 *   +---------------------------------------------------------------+  576 attach
 *   |   Attach Count: every open adds one atomically (getAndAdd)    |
 *   |                                                               |
 *   +---------------------------------------------------------------+  584
 *   |                     Reserved up to 640                       ...
 *   +---------------------------------------------------------------+  640 MR table lock
 *   |   MR Table Lock: 0 free, else the writer's ProcessIdentity    |
 *   |                                                               |
 *   +---------------------------------------------------------------+  648
 *   |                     Reserved up to 704                       ...
 *   +---------------------------------------------------------------+  704 MR key sequence
 *   |   Provider Key Sequence: next FI_MR_PROV_KEY key (getAndAdd)  |
 *   |                                                               |
 *   +---------------------------------------------------------------+  712
 *   |                     Reserved up to 768                       ...
 *   +---------------------------------------------------------------+  768 removal
 *   |   Remover: 0, or the ProcessIdentity of a process removing    |
 *   |   the region (jfabric clean); see RegionUsers                 |
 *   +---------------------------------------------------------------+  776
 *   |                     Reserved up to 832                       ...
 *   +---------------------------------------------------------------+  832 fault
 *   |   Fault: 0, or the ProcessIdentity of the process that found  |
 *   |   the file truncated under the mapping (see RegionWatch)      |
 *   +---------------------------------------------------------------+  840
 *   |                     Reserved up to 1024                      ...
 *   +---------------------------------------------------------------+  1024 user table
 *   |   User 0: 0 free, else the ProcessIdentity of a process with  |
 *   |   the region open (one entry per open RegionFile)             |
 *   +---------------------------------------------------------------+  1032
 *   |   User 1 ... User USER_TABLE_ENTRIES - 1 (8 bytes each)      ...
 *   +---------------------------------------------------------------+  4096
 * </pre>
 * Every field is in the platform's native byte order, as Agrona's rings are; the magic reads back wrong on a host
 * of the other order, so such a file is refused rather than misread. The creator writes everything before the
 * checksum, then the checksum, then the ready field with release semantics; a reader acquire-reads the ready field
 * first and checks magic, version, checksum, lengths and nonce before trusting any other field. The remover word and
 * the user table lie outside the checksum: they change while the region is in use, each only by CAS; so does the
 * fault word, which a reader of an older jfabric (a reserved zero to it) ignores.
 * <p>
 * One slot, {@code slotLength(g)} bytes. Its header's fields are drawn in {@code io.jfabric.shm.region.SlotDescriptor};
 * then come its receive <em>lanes</em>, one {@code SpscLane} ({@link SpscLaneDescriptor}) per possible sender slot, so lane
 * {@code s} of slot {@code r} carries only what the endpoint in slot {@code s} sends to the endpoint in slot
 * {@code r} (together the receive context: many senders, one receiver, and each lane single-producer, which is
 * what keeps a send free of contended atomics); then the transmit-context ring (a {@code ManyToOneRingBuffer}:
 * what peers return to this slot's transmit side); then one completion ring, which belongs to whichever completion
 * queue claimed it, not to the slot's endpoint:
 * <pre>
 *   +------------------------------+  slotOffset(g, r)
 *   |  Slot header (slotHeaderLength(g), page aligned)       |  owner, incarnation, state, lane owners
 *   +------------------------------+  laneOffset(g, r, 0) = rxRingOffset(g, r)
 *   |  Lane 0: rxRingBytes + lane trailer, LANE_ALIGNMENT    |  sent by slot 0's endpoint
 *   +------------------------------+  laneOffset(g, r, 1)
 *   |  ...                                                   |
 *   +------------------------------+  laneOffset(g, r, slotCount - 1)
 *   |  Lane slotCount - 1                                    |
 *   +------------------------------+  txRingOffset(g, r), page aligned
 *   |  Tx ring: txRingBytes + ring trailer, page aligned     |  what peers return to the transmit side
 *   +------------------------------+  cqRingOffset(g, r)
 *   |  CQ ring: cqRingBytes + ring trailer, page aligned     |  completion ring number r
 *   +------------------------------+  slotOffset(g, r + 1)
 * </pre>
 * A lane occupies {@code capacity + SpscLaneDescriptor.TRAILER_LENGTH} bytes ({@link #laneLength(int)}) from its
 * offset, the rest up to the next {@link #LANE_ALIGNMENT} is padding; a ring (transmit, completion) occupies
 * {@code capacity + RingBufferDescriptor.TRAILER_LENGTH} bytes ({@link #ringLength(int)}), the rest up to the next
 * page is padding. Key table and counter table entries are
 * {@link #MR_ENTRY_LENGTH} and {@link #COUNTER_ENTRY_LENGTH} bytes; their fields are drawn in
 * {@code io.jfabric.shm.mr.MrTableDescriptor} and {@code io.jfabric.shm.cntr.CounterTableDescriptor}, which compute
 * offsets within an entry from {@link #mrEntryOffset} and {@link #counterEntryOffset}.
 * <p>
 * Stateless; any thread.
 */
public final class RegionDescriptor
{
    /** Magic number at offset 0: the bytes {@code "JFABRIC"} followed by a 1 byte, read as a little-endian long. */
    public static final long MAGIC = 0x01_43_49_52_42_41_46_4AL;

    /**
     * The layout this class describes. 5: lane records carry 24 bits of the receiver incarnation (16 before) and an
     * ABORT record type ({@code LaneRecordDescriptor}); slot heartbeats move every 10 ms ({@code Heartbeats}).
     * 6: authorization key digests in slots and MR entries. 7: slot headers name the receive contexts of a scalable
     * endpoint and the endpoint a context serves ({@link SlotDescriptor}). 8: slot headers name the endpoint's
     * FI_REMOTE_READ and FI_REMOTE_WRITE counters, which initiators raise (FI_RMA_EVENT). 9: lanes carry emulated
     * RMA and atomic requests and transmit rings their responses ({@code LaneRecordDescriptor#RMA_WRITE},
     * {@code TxRecordDescriptor#RESPONSE}), and key table entries of local-only memory may grant remote access: a
     * process of layout 8 would take the requests for damaged records and clear the lane. 10: receive lanes are
     * {@code SpscLane}s ({@link SpscLaneDescriptor}: one 8-byte frame word per record, a 512-byte trailer with the
     * positions at other offsets, {@link #laneLength(int)}) instead of Agrona's {@code OneToOneRingBuffer}s: a
     * process of layout 9 would read the frames and positions wrong. 11: a lane frame's high half is a type byte and
     * a stamp of the record's position, and the lane trailer holds the producer's repair request where layout 10 kept
     * its cache of the consumer position ({@link SpscLaneDescriptor}): a process of layout 10 would take every
     * record's type for an unknown one. 12: the lane trailer holds a copy of the consumer position, which the
     * producer compares before it trusts the position ({@link SpscLaneDescriptor}): a process of layout 11 would
     * never write it, and its producers would find every full lane full for good.
     */
    public static final int LAYOUT_VERSION = 12;

    /** Alignment of every part of the file. */
    public static final int PAGE_LENGTH = 4096;

    /** Length of the header. */
    public static final int HEADER_LENGTH = PAGE_LENGTH;

    /** Largest region: one {@link org.agrona.concurrent.UnsafeBuffer} (int indexed) must cover it. */
    public static final long MAX_REGION_LENGTH = (Integer.MAX_VALUE / PAGE_LENGTH) * (long)PAGE_LENGTH;

    /** Offset of the magic number (long). */
    public static final int MAGIC_OFFSET = 0;

    /** Offset of the layout version (int). */
    public static final int LAYOUT_VERSION_OFFSET = 8;

    /** Offset of the header length (int). */
    public static final int HEADER_LENGTH_OFFSET = 12;

    /** Offset of the region length (long): the length the file must have. */
    public static final int REGION_LENGTH_OFFSET = 16;

    /** Offset of the geometry group. */
    public static final int GEOMETRY_OFFSET = BitUtil.CACHE_LINE_LENGTH;

    /** Offset of the slot count (int). */
    public static final int SLOT_COUNT_OFFSET = GEOMETRY_OFFSET;

    /** Offset of the rx ring capacity (int). */
    public static final int RX_RING_BYTES_OFFSET = GEOMETRY_OFFSET + 4;

    /** Offset of the tx ring capacity (int). */
    public static final int TX_RING_BYTES_OFFSET = GEOMETRY_OFFSET + 8;

    /** Offset of the CQ ring capacity (int). */
    public static final int CQ_RING_BYTES_OFFSET = GEOMETRY_OFFSET + 12;

    /** Offset of the MR table entry count (int). */
    public static final int MR_TABLE_ENTRIES_OFFSET = GEOMETRY_OFFSET + 16;

    /** Offset of the counter table entry count (int). */
    public static final int COUNTER_ENTRIES_OFFSET = GEOMETRY_OFFSET + 20;

    /** Offset of the creator's pid (long). */
    public static final int CREATOR_PID_OFFSET = 2 * BitUtil.CACHE_LINE_LENGTH;

    /** Offset of the creator's process start time, epoch ms (long); 0 when the platform does not say. */
    public static final int CREATOR_START_TIME_OFFSET = CREATOR_PID_OFFSET + 8;

    /** Offset of the creation time, epoch ms (long). */
    public static final int CREATION_TIME_OFFSET = CREATOR_PID_OFFSET + 16;

    /** Offset of the region nonce (long): random, never 0, drawn when the region is created. */
    public static final int REGION_NONCE_OFFSET = CREATOR_PID_OFFSET + 24;

    /** Offset of the domain name length in bytes (int). */
    public static final int NAME_LENGTH_OFFSET = 3 * BitUtil.CACHE_LINE_LENGTH;

    /** Offset of the domain name bytes. */
    public static final int NAME_OFFSET = NAME_LENGTH_OFFSET + 4;

    /** Offset of the header checksum (int): CRC32C of bytes {@code [0, CHECKSUM_OFFSET)}. */
    public static final int CHECKSUM_OFFSET = 7 * BitUtil.CACHE_LINE_LENGTH;

    /** Most bytes the name field holds. */
    public static final int NAME_CAPACITY = CHECKSUM_OFFSET - NAME_OFFSET;

    /** Offset of the ready field (int), written last with release. */
    public static final int READY_OFFSET = 8 * BitUtil.CACHE_LINE_LENGTH;

    /** Value of the ready field once the header is complete; anything else means not ready. */
    public static final int READY_VALUE = 1;

    /** Offset of the attach count (long). */
    public static final int ATTACH_COUNT_OFFSET = 9 * BitUtil.CACHE_LINE_LENGTH;

    /** Offset of the slot area: the first slot. */
    public static final int SLOT_AREA_OFFSET = HEADER_LENGTH;

    /** Smallest length of a slot's header; {@link #slotHeaderLength} grows it to hold one lane owner per slot. */
    public static final int SLOT_HEADER_LENGTH = PAGE_LENGTH;

    /** Offset in a slot header of the first lane owner word (see {@code io.jfabric.shm.region.SlotDescriptor}). */
    public static final int SLOT_LANE_OWNERS_OFFSET = 1024;

    /** Alignment of each receive lane: two cache lines, so no two lanes share a line or an adjacent-line pair. */
    public static final int LANE_ALIGNMENT = 2 * BitUtil.CACHE_LINE_LENGTH;

    /**
     * Offset of the MR key table's writer lock (long), own cache line: 0 when free, else the
     * {@link io.jfabric.shm.core.ProcessIdentity} (pid and start time) of the process inserting into or withdrawing from
     * the table (see {@code io.jfabric.shm.mr.MrTableDescriptor}). Outside the
     * checksum: it changes while the region is in use.
     */
    public static final int MR_TABLE_LOCK_OFFSET = 10 * BitUtil.CACHE_LINE_LENGTH;

    /** Offset of the provider key sequence (long), own cache line: the next FI_MR_PROV_KEY key is taken from it. */
    public static final int MR_KEY_SEQUENCE_OFFSET = 11 * BitUtil.CACHE_LINE_LENGTH;

    /**
     * Offset of the remover word (long), own cache line: 0, or the {@link io.jfabric.shm.core.ProcessIdentity} of a process
     * removing the region. Outside the checksum.
     */
    public static final int REMOVER_OFFSET = 12 * BitUtil.CACHE_LINE_LENGTH;

    /**
     * Offset of the fault word (long), own cache line: 0 while the region is sound, else the
     * {@link io.jfabric.shm.core.ProcessIdentity} of the process that found its file truncated: every process's watch
     * then takes the region as unusable, and no new open is allowed. Outside the checksum.
     */
    public static final int FAULT_OFFSET = 13 * BitUtil.CACHE_LINE_LENGTH;

    /** Offset of the user table, to the end of the header. Outside the checksum. */
    public static final int USER_TABLE_OFFSET = 16 * BitUtil.CACHE_LINE_LENGTH;

    /** Length of a user table entry (long): 0 free, else the identity of a process with the region open. */
    public static final int USER_ENTRY_LENGTH = 8;

    /** Entries of the user table: how many region opens (domain objects, in all processes) it records at once. */
    public static final int USER_TABLE_ENTRIES = (HEADER_LENGTH - USER_TABLE_OFFSET) / USER_ENTRY_LENGTH;

    /** Length of an MR key table entry's authorization key digest. */
    public static final int MR_AUTH_DIGEST_LENGTH = 8;

    /** Length of a memory region key table entry. */
    public static final int MR_ENTRY_LENGTH = 64;

    /** Length of a counter table entry. */
    public static final int COUNTER_ENTRY_LENGTH = 64;

    private RegionDescriptor()
    {
    }

    /**
     * @param index user table entry, in {@code [0, USER_TABLE_ENTRIES)}.
     * @return its offset.
     */
    public static int userEntryOffset(final int index)
    {
        if (index < 0 || index >= USER_TABLE_ENTRIES)
        {
            throw new IndexOutOfBoundsException("user entry " + index + " not in [0, " + USER_TABLE_ENTRIES + ")");
        }
        return USER_TABLE_OFFSET + index * USER_ENTRY_LENGTH;
    }

    /**
     * @param capacity ring capacity, a power of two.
     * @return bytes a ring of that capacity occupies: capacity plus Agrona's ring trailer.
     */
    public static int ringLength(final int capacity)
    {
        return capacity + RingBufferDescriptor.TRAILER_LENGTH;
    }

    /**
     * @param capacity lane capacity ({@code rxRingBytes}), a power of two.
     * @return bytes a receive lane of that capacity occupies: capacity plus the lane trailer
     * ({@link SpscLaneDescriptor#laneLength(int)}).
     */
    public static int laneLength(final int capacity)
    {
        return SpscLaneDescriptor.laneLength(capacity);
    }

    /**
     * @param g geometry.
     * @return length of one slot: its header, its lanes and two page aligned rings.
     */
    public static int slotLength(final RegionGeometry g)
    {
        return (int)slotLengthLong(g);
    }

    /**
     * @param g     geometry.
     * @param index slot index in {@code [0, slotCount)}.
     * @return offset of that slot.
     */
    public static int slotOffset(final RegionGeometry g, final int index)
    {
        checkSlotIndex(g, index);
        return (int)(SLOT_AREA_OFFSET + index * slotLengthLong(g));
    }

    /**
     * @param g     geometry.
     * @param index slot index.
     * @return offset of that slot's first receive lane ({@link #laneLength(int)} of {@code rxRingBytes}).
     */
    public static int rxRingOffset(final RegionGeometry g, final int index)
    {
        return slotOffset(g, index) + slotHeaderLength(g);
    }

    /**
     * @param g        geometry.
     * @param receiver slot of the receiving endpoint.
     * @param sender   slot of the sending endpoint.
     * @return offset of the lane (a {@link #laneLength(int)} of {@code rxRingBytes}) from sender to receiver.
     */
    public static int laneOffset(final RegionGeometry g, final int receiver, final int sender)
    {
        checkSlotIndex(g, sender);
        return rxRingOffset(g, receiver) + sender * laneSpan(g);
    }

    /**
     * @param g geometry.
     * @return bytes between two lanes: a lane of {@code rxRingBytes} and its trailer, {@link #LANE_ALIGNMENT}
     * aligned.
     */
    public static int laneSpan(final RegionGeometry g)
    {
        return BitUtil.align(laneLength(g.rxRingBytes()), LANE_ALIGNMENT);
    }

    /**
     * @param g geometry.
     * @return length of a slot's header: room for {@link #SLOT_LANE_OWNERS_OFFSET} and one 8-byte lane owner word per
     * slot, page aligned.
     */
    public static int slotHeaderLength(final RegionGeometry g)
    {
        return (int)slotHeaderLengthLong(g);
    }

    /**
     * @param g     geometry.
     * @param index slot index.
     * @return offset of that slot's transmit-context ring ({@link #ringLength(int)} of {@code txRingBytes}).
     */
    public static int txRingOffset(final RegionGeometry g, final int index)
    {
        return rxRingOffset(g, index) + (int)lanesLengthLong(g);
    }

    /**
     * @param g     geometry.
     * @param index slot index.
     * @return offset of that slot's completion ring ({@link #ringLength(int)} of {@code cqRingBytes}).
     */
    public static int cqRingOffset(final RegionGeometry g, final int index)
    {
        return txRingOffset(g, index) + ringSpan(g.txRingBytes());
    }

    /**
     * @param g geometry.
     * @return offset of the memory region key table.
     */
    public static int mrTableOffset(final RegionGeometry g)
    {
        return (int)mrTableOffsetLong(g);
    }

    /**
     * @param g geometry.
     * @return length of the key table, page aligned.
     */
    public static int mrTableLength(final RegionGeometry g)
    {
        return (int)tableLength(g.mrTableEntries(), MR_ENTRY_LENGTH);
    }

    /**
     * @param g     geometry.
     * @param index entry index in {@code [0, mrTableEntries)}.
     * @return offset of that key table entry.
     */
    public static int mrEntryOffset(final RegionGeometry g, final int index)
    {
        if (index < 0 || index >= g.mrTableEntries())
        {
            throw new IndexOutOfBoundsException("mr entry " + index + " not in [0, " + g.mrTableEntries() + ")");
        }
        return mrTableOffset(g) + index * MR_ENTRY_LENGTH;
    }

    /**
     * @param g geometry.
     * @return offset of the counter table.
     */
    public static int counterTableOffset(final RegionGeometry g)
    {
        return (int)counterTableOffsetLong(g);
    }

    /**
     * @param g geometry.
     * @return length of the counter table, page aligned.
     */
    public static int counterTableLength(final RegionGeometry g)
    {
        return (int)tableLength(g.counterEntries(), COUNTER_ENTRY_LENGTH);
    }

    /**
     * @param g     geometry.
     * @param index entry index in {@code [0, counterEntries)}.
     * @return offset of that counter table entry.
     */
    public static int counterEntryOffset(final RegionGeometry g, final int index)
    {
        if (index < 0 || index >= g.counterEntries())
        {
            throw new IndexOutOfBoundsException("counter entry " + index + " not in [0, " + g.counterEntries() + ")");
        }
        return counterTableOffset(g) + index * COUNTER_ENTRY_LENGTH;
    }

    /**
     * Computed in long arithmetic, so it is safe to call on a geometry whose region would be too large.
     *
     * @param g geometry.
     * @return length of the whole file.
     */
    public static long regionLength(final RegionGeometry g)
    {
        return mrAuthTableOffsetLong(g) + tableLength(g.mrTableEntries(), MR_AUTH_DIGEST_LENGTH);
    }

    /**
     * @param g     geometry.
     * @param index MR key table entry index in {@code [0, mrTableEntries)}.
     * @return offset of that entry's authorization key digest (long), written by the entry's owner before it
     * publishes the entry and read inside a reader's sequence-locked window.
     */
    public static int mrAuthDigestOffset(final RegionGeometry g, final int index)
    {
        if (index < 0 || index >= g.mrTableEntries())
        {
            throw new IndexOutOfBoundsException("mr entry " + index + " not in [0, " + g.mrTableEntries() + ")");
        }
        return (int)mrAuthTableOffsetLong(g) + index * MR_AUTH_DIGEST_LENGTH;
    }

    private static long mrAuthTableOffsetLong(final RegionGeometry g)
    {
        return counterTableOffsetLong(g) + tableLength(g.counterEntries(), COUNTER_ENTRY_LENGTH);
    }

    private static int ringSpan(final int capacity)
    {
        return BitUtil.align(ringLength(capacity), PAGE_LENGTH);
    }

    private static long slotLengthLong(final RegionGeometry g)
    {
        return slotHeaderLengthLong(g) + lanesLengthLong(g) + ringSpan(g.txRingBytes()) + ringSpan(g.cqRingBytes());
    }

    private static long slotHeaderLengthLong(final RegionGeometry g)
    {
        return BitUtil.align(SLOT_LANE_OWNERS_OFFSET + 8L * g.slotCount(), (long)PAGE_LENGTH);
    }

    private static long lanesLengthLong(final RegionGeometry g)
    {
        return BitUtil.align((long)g.slotCount() * BitUtil.align(laneLength(g.rxRingBytes()), LANE_ALIGNMENT),
            (long)PAGE_LENGTH);
    }

    private static long mrTableOffsetLong(final RegionGeometry g)
    {
        return SLOT_AREA_OFFSET + g.slotCount() * slotLengthLong(g);
    }

    private static long counterTableOffsetLong(final RegionGeometry g)
    {
        return mrTableOffsetLong(g) + tableLength(g.mrTableEntries(), MR_ENTRY_LENGTH);
    }

    private static long tableLength(final int entries, final int entryLength)
    {
        return BitUtil.align((long)entries * entryLength, PAGE_LENGTH);
    }

    private static void checkSlotIndex(final RegionGeometry g, final int index)
    {
        if (index < 0 || index >= g.slotCount())
        {
            throw new IndexOutOfBoundsException("slot " + index + " not in [0, " + g.slotCount() + ")");
        }
    }
}
