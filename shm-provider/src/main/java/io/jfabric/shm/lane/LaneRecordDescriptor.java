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
package io.jfabric.shm.lane;

import io.jfabric.shm.region.SpscLaneDescriptor;

import org.agrona.BitUtil;

/**
 * Layout of the body of a record in a receive lane (an {@link SpscLane}, whose own 8-byte frame word before the body
 * carries the record length and the record type, {@link SpscLaneDescriptor}): the only class that computes offsets
 * into one. Offsets are from the body, which is what the lane's claim and read hand out.
 * <pre>
 *    0                   1                   2                   3
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *   +---------------------------------------------------------------+  -8 the lane's frame word, stored last:
 *   |  Record Length (int): frame + body; &lt; 0 claimed, &gt; 0 committed |     SpscLaneDescriptor, not this class
 *   |  Type (int): MSG ... MAX_TYPE, or the lane's padding (-1)      |
 *   +---------------------------------------------------------------+  0
 *   |                              Tag                              |
 *   |                                                               |
 *   +---------------------------------------------------------------+  8
 *   |                     Remote CQ Data                            |
 *   |                                                               |
 *   +---------------------------------------------------------------+  16
 *   |              Payload Length (bytes in this record)            |
 *   +-----------------------------------------------+---------------+  20
 *   |        Receiver Incarnation, low 24 bits      |     Flags     |
 *   +-----------------------------------------------+---------------+  24 PAYLOAD_OFFSET
 *   |  MSG, PIECE: payload ...                                     ...
 *   |  FIRST: Total Length (long), then payload at 32              ...
 *   |  ACK_REQUEST: Sender Cookie (long) at 24                      |
 *   |  RTS:   Total Length (long) at 24, Key (long) at 32,          |
 *   |         Address (long) at 40, Sender Cookie (long) at 48      |
 *   |  ABORT: nothing more                                          |
 *   |  WRITE_DATA: nothing more; Tag holds the bytes written        |
 *   |  RMA_WRITE, RMA_READ, ATOMIC: a request, drawn below          |
 *   +---------------------------------------------------------------+  contentLength(type, length)
 *   |  With FLAG_CHECKSUM: CRC32C of bytes 0 .. content (int)       |
 *   |  (of bytes 8 .. content for a request: its State may change)  |
 *   +---------------------------------------------------------------+
 * </pre>
 * An emulated one-sided request ({@link #RMA_WRITE}, {@link #RMA_READ}, {@link #ATOMIC}): an RMA or atomic on memory
 * the target process registered but no peer can map (a heap or direct buffer), which the target endpoint's receive
 * progress performs on its own memory when it drains the lane, answering through the initiator's transmit-context
 * ring ({@link TxRecordDescriptor#RESPONSE}). The Tag word is the request's State and the Payload Length counts
 * the bytes after the fixed part (the region list and the payload):
 * <pre>
 *    0                   1                   2                   3
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *   +---------------------------------------------------------------+  0
 *   |  State: the cookie while pending; STATE_TAKEN once the target |
 *   |  took it; STATE_CANCELLED once the initiator gave it up (CAS) |
 *   +---------------------------------------------------------------+  8
 *   |  Remote CQ Data (RMA_WRITE with FLAG_CQ_DATA: fi_writedata)   |
 *   |                                                               |
 *   +---------------------------------------------------------------+  16
 *   |  Payload Length: bytes from 40 to the end of the content      |
 *   +-----------------------------------------------+---------------+  20
 *   |        Receiver Incarnation, low 24 bits      |     Flags     |
 *   +-----------------------------------------------+---------------+  24
 *   |  Initiator Cookie (long): names the operation in the response |
 *   |                                                               |
 *   +---------------+---------------+---------------+---------------+  32
 *   | Region Count  |  Datatype     |  Atomic Op    |  Atomic Kind  |
 *   +---------------+---------------+---------------+---------------+  36
 *   |  Total: bytes of target memory the operation covers (int)     |
 *   +---------------------------------------------------------------+  40 REGION_LIST_OFFSET
 *   |  Region 0: Key (long) at +0, Address (long) at +8,            |
 *   |  Key Table Control (long) at +16: the entry's control word    |
 *   |  the initiator checked; Length in bytes (int) at +24,         |
 *   |  reserved (int) at +28                                   32 B |
 *   |  ... Region Count regions (1 to MAX_REGIONS)                  |
 *   +---------------------------------------------------------------+  requestPayloadOffset(regions)
 *   |  RMA_WRITE: the bytes, Total of them, regions in order        |
 *   |  ATOMIC: the operands (none for FI_ATOMIC_READ), then for the |
 *   |  compare kind as many compare values, native byte order       |
 *   |  RMA_READ: nothing                                            |
 *   |  With FLAG_BOUNCE (RMA_WRITE, RMA_READ): the bounce, below    |
 *   +---------------------------------------------------------------+
 * </pre>
 * A request whose bytes do not fit one lane record (a write's) or one transmit ring record (a read's answer) carries,
 * with {@link #FLAG_BOUNCE}, a reference to the initiator's <em>bounce</em> instead: a shareable memory segment of
 * the initiating process (layout {@code mr.SegmentDescriptor}) that holds a write's bytes, Total of them, from the
 * offset, or takes a read's; the target copies between it and its regions, and answers without payload:
 * <pre>
 *    0                   1                   2                   3
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *   +---------------------------------------------------------------+  requestPayloadOffset(regions)
 *   |  Owner (long): the initiating process's ProcessIdentity; the  |
 *   |  target checks it is the owner of the initiator's slot        |
 *   +---------------------------------------------------------------+  +8
 *   |  Segment Id (long): the owner's number for the segment        |
 *   +---------------------------------------------------------------+  +16
 *   |  Nonce (long): the segment's, as its header holds it          |
 *   +---------------------------------------------------------------+  +24
 *   |  Offset (long): of the bytes, from the segment's data start   |
 *   +---------------------------------------------------------------+  +32 BOUNCE_LENGTH
 * </pre>
 * Datatype and Atomic Op are libfabric's numbers ({@code AtomicDatatype.value()}, {@code AtomicOp.value()}); Atomic
 * Kind is {@code AtomicSupport.Kind}'s ordinal (0 fi_atomic, 1 fetch, 2 compare). The State word lets each side
 * decide once: the target swaps it from the cookie to {@link #STATE_TAKEN} before it applies the request, and an
 * initiator that gives the operation up (its target stopped, or it closes) swaps it to {@link #STATE_CANCELLED}; the
 * target skips a request it cannot take. So an operation that completes in error because it was given up was never
 * applied. Neither value is ever a cookie (a cookie's low 32 bits are a pool index below 2^16).
 * <p>
 * Types: {@link #MSG} a whole message; {@link #FIRST} the first piece of a larger message, whose total length
 * follows the header; {@link #RTS} a message the receiver copies itself, in one copy, out of the sender's shareable
 * memory (key and address as {@code RemoteMemory} takes them), acknowledging through the sender's transmit-context
 * ring with the cookie ({@link TxRecordDescriptor}); {@link #PIECE} a following piece (pieces of one message are
 * consecutive in their lane, as one sender writes a lane in order). A record's body is padded to the lane's record
 * alignment ({@link #RECORD_ALIGNMENT}, 8 bytes) and no further: records follow each other with no gap, so a record
 * spans only the cache lines its bytes need. (Padded to whole cache lines, a 64-byte message took two lines plus a
 * third for the next record's pre-zeroed header; in a two-JVM pingpong of bare Agrona rings on the team's host that
 * cost 1.5 times the round trip of unpadded 96-byte records when the host was in its slow mode.) {@link #ABORT} says
 * the sender gave up the message it was sending in pieces (its receiver had stopped, and the sender completed the
 * send in error); the receive that was taking it completes in error. The receiver drops a record whose receiver
 * incarnation is not its own: it was written for an earlier endpoint in the same slot. 24 bits of it are compared: a
 * slot would have to be opened 16.7 million times while a record waits in its lane for one to be mistaken.
 * <p>
 * Stateless; any thread.
 */
public final class LaneRecordDescriptor
{
    /** Record type of a whole message. */
    public static final int MSG = 1;
    /** Record type of a message's first piece. */
    public static final int FIRST = 2;
    /** Record type of a following piece. */
    public static final int PIECE = 3;
    /** Record type of a rendezvous: the payload stays in the sender's shareable memory. */
    public static final int RTS = 4;
    /** Offset of the tag (long). */
    public static final int TAG_OFFSET = 0;
    /** Offset of the remote CQ data (long). */
    public static final int DATA_OFFSET = 8;
    /** Offset of the payload length in this record (int). */
    public static final int LENGTH_OFFSET = 16;
    /** Offset of flags (low 8 bits) and the receiver incarnation's low 24 bits (high 24) (int). */
    public static final int FLAGS_OFFSET = 20;
    /** Length of the header. */
    public static final int HEADER_LENGTH = 24;
    /** Offset of the payload of MSG and PIECE records. */
    public static final int PAYLOAD_OFFSET = HEADER_LENGTH;
    /** Offset of a FIRST record's total message length (long). */
    public static final int TOTAL_LENGTH_OFFSET = HEADER_LENGTH;
    /**
     * Record type of a delivery acknowledgement request (FI_DELIVERY_COMPLETE): written right after a message's last
     * record; by the time the receiver reads it, that message is placed or buffered, so it acknowledges the cookie
     * at {@link #ACK_REQUEST_COOKIE_OFFSET} through the sender's transmit-context ring.
     */
    public static final int ACK_REQUEST = 5;
    /** Offset of an ACK_REQUEST record's cookie (long). */
    public static final int ACK_REQUEST_COOKIE_OFFSET = HEADER_LENGTH;
    /** Length of an ACK_REQUEST record's body. */
    public static final int ACK_REQUEST_LENGTH = HEADER_LENGTH + 8;
    /** Record type of an abort: the sender gave up the message it was sending in pieces in this lane. */
    public static final int ABORT = 6;
    /** Length of an ABORT record's body. */
    public static final int ABORT_LENGTH = HEADER_LENGTH;
    /** Offset of an RTS record's key (long). */
    public static final int RTS_KEY_OFFSET = HEADER_LENGTH + 8;
    /** Offset of an RTS record's address (long). */
    public static final int RTS_ADDR_OFFSET = HEADER_LENGTH + 16;
    /** Offset of an RTS record's sender cookie (long). */
    public static final int RTS_COOKIE_OFFSET = HEADER_LENGTH + 24;
    /** Length of an RTS record's body. */
    public static final int RTS_LENGTH = HEADER_LENGTH + 32;
    /** Offset of a FIRST record's payload. */
    public static final int FIRST_PAYLOAD_OFFSET = HEADER_LENGTH + 8;
    /** Flag: the message is tagged. */
    public static final int FLAG_TAGGED = 1;
    /** Flag: the remote CQ data is valid (FI_REMOTE_CQ_DATA). */
    public static final int FLAG_CQ_DATA = 2;
    /**
     * Flag: a CRC32C of the record's content (header, flags word included, and what follows it: see
     * {@link #contentLength}) is stored as an int right after the content.
     */
    public static final int FLAG_CHECKSUM = 4;
    /**
     * Flag of an emulated RMA request: its bytes are in the initiator's bounce segment, which its payload names
     * ({@link #BOUNCE_OWNER_OFFSET} on, {@link #BOUNCE_LENGTH} bytes), not in the request or its answer.
     */
    public static final int FLAG_BOUNCE = 8;
    /** Offset of a bounce reference's owner identity (long), from the request's payload. */
    public static final int BOUNCE_OWNER_OFFSET = 0;
    /** Offset of a bounce reference's segment id (long), from the request's payload. */
    public static final int BOUNCE_SEGMENT_OFFSET = 8;
    /** Offset of a bounce reference's segment nonce (long), from the request's payload. */
    public static final int BOUNCE_NONCE_OFFSET = 16;
    /** Offset of a bounce reference's data offset (long), from the request's payload. */
    public static final int BOUNCE_DATA_OFFSET = 24;
    /** Bytes of a bounce reference: a bounced request's whole payload. */
    public static final int BOUNCE_LENGTH = 32;
    /** Bytes of the checksum that follows a record's content when {@link #FLAG_CHECKSUM} is set. */
    public static final int CHECKSUM_LENGTH = 4;
    /**
     * Record type of an RMA write's remote CQ data (fi_writedata): written after the initiator copied the bytes into
     * the target's memory; the receiver reports a completion with FI_RMA | FI_REMOTE_WRITE | FI_REMOTE_CQ_DATA, the
     * length in the tag field and the data, and consumes no receive.
     */
    public static final int WRITE_DATA = 7;
    /** Length of a WRITE_DATA record's body. */
    public static final int WRITE_DATA_LENGTH = HEADER_LENGTH;
    /** Record type of an emulated RMA write request (fi_write and friends, fi_writedata with FLAG_CQ_DATA). */
    public static final int RMA_WRITE = 8;
    /** Record type of an emulated RMA read request. */
    public static final int RMA_READ = 9;
    /** Record type of an emulated atomic request (fi_atomic, fi_fetch_atomic, fi_compare_atomic and forms). */
    public static final int ATOMIC = 10;
    /** The highest record type. */
    public static final int MAX_TYPE = 10;
    /** Offset of a request's State (long): the Tag word. */
    public static final int STATE_OFFSET = TAG_OFFSET;
    /** Bytes of a request's State, which its checksum does not cover. */
    public static final int STATE_LENGTH = 8;
    /** State of a request the target has taken: it applies it and answers. */
    public static final long STATE_TAKEN = -1L;
    /** State of a request its initiator gave up: the target skips it. */
    public static final long STATE_CANCELLED = -2L;
    /** Offset of a request's initiator cookie (long). */
    public static final int REQUEST_COOKIE_OFFSET = HEADER_LENGTH;
    /** Offset of a request's region count (byte). */
    public static final int REQUEST_REGIONS_OFFSET = HEADER_LENGTH + 8;
    /** Offset of an atomic request's datatype (byte, libfabric's number). */
    public static final int REQUEST_DATATYPE_OFFSET = HEADER_LENGTH + 9;
    /** Offset of an atomic request's op (byte, libfabric's number). */
    public static final int REQUEST_OP_OFFSET = HEADER_LENGTH + 10;
    /** Offset of an atomic request's kind (byte, {@code AtomicSupport.Kind} ordinal). */
    public static final int REQUEST_KIND_OFFSET = HEADER_LENGTH + 11;
    /** Offset of a request's total (int): bytes of target memory it covers. */
    public static final int REQUEST_TOTAL_OFFSET = HEADER_LENGTH + 12;
    /** Offset of a request's region list. */
    public static final int REGION_LIST_OFFSET = HEADER_LENGTH + 16;
    /** Bytes of one region of a request's list. */
    public static final int REGION_LENGTH = 32;
    /** Offset of a region's key (long), from the region's start. */
    public static final int REGION_KEY_OFFSET = 0;
    /** Offset of a region's address (long), from the region's start. */
    public static final int REGION_ADDR_OFFSET = 8;
    /** Offset of a region's key table control word (long), from the region's start. */
    public static final int REGION_CONTROL_OFFSET = 16;
    /** Offset of a region's length in bytes (int), from the region's start. */
    public static final int REGION_BYTES_OFFSET = 24;
    /** The most regions one request names: rma_iov_limit. */
    public static final int MAX_REGIONS = 4;
    /** Whole records (frame word and body) are a multiple of this: the lane's own record alignment. */
    public static final int RECORD_ALIGNMENT = SpscLaneDescriptor.RECORD_ALIGNMENT;

    private LaneRecordDescriptor()
    {
    }

    /**
     * @param laneCapacity the capacity of a lane.
     * @param checksum     whether records carry a checksum after their content.
     * @return the largest message that travels in one MSG record of such a lane, with its header and checksum: 8168
     * bytes in a 64 KiB lane, 8164 with checksums.
     */
    public static int inlineLimit(final int laneCapacity, final boolean checksum)
    {
        final int laneMax = SpscLaneDescriptor.maxBodyLength(laneCapacity);
        return (laneMax + SpscLaneDescriptor.HEADER_LENGTH) / RECORD_ALIGNMENT * RECORD_ALIGNMENT -
            SpscLaneDescriptor.HEADER_LENGTH - HEADER_LENGTH - (checksum ? CHECKSUM_LENGTH : 0);
    }

    /**
     * @param headerAndPayload bytes of body that carry something (this header, any total length, the payload).
     * @return the body length to claim so the record ends on a {@link #RECORD_ALIGNMENT} boundary.
     */
    public static int bodyLength(final int headerAndPayload)
    {
        return BitUtil.align(headerAndPayload + SpscLaneDescriptor.HEADER_LENGTH, RECORD_ALIGNMENT) -
            SpscLaneDescriptor.HEADER_LENGTH;
    }

    /**
     * @param type   a record type.
     * @param length the record's payload length field.
     * @return the bytes the record's content takes: its header and what its type puts after it (the payload for
     * MSG, FIRST and PIECE); a checksum, when present, follows at this offset. -1 for an unknown type.
     */
    public static int contentLength(final int type, final int length)
    {
        switch (type)
        {
            case MSG:
            case PIECE:
                return PAYLOAD_OFFSET + length;
            case FIRST:
                return FIRST_PAYLOAD_OFFSET + length;
            case RTS:
                return RTS_LENGTH;
            case ACK_REQUEST:
                return ACK_REQUEST_LENGTH;
            case ABORT:
                return ABORT_LENGTH;
            case WRITE_DATA:
                return WRITE_DATA_LENGTH;
            case RMA_WRITE:
            case RMA_READ:
            case ATOMIC:
                return REGION_LIST_OFFSET + length;
            default:
                return -1;
        }
    }

    /**
     * @param type a record type.
     * @return whether it is an emulated one-sided request.
     */
    public static boolean isRequest(final int type)
    {
        return type >= RMA_WRITE && type <= ATOMIC;
    }

    /**
     * @param type a record type.
     * @return where the record's checksum starts: after the State word of a request (which changes after the record
     * is sealed), else at the body's first byte.
     */
    public static int checksumStart(final int type)
    {
        return isRequest(type) ? STATE_LENGTH : 0;
    }

    /**
     * @param regions a request's region count.
     * @return the offset of its payload.
     */
    public static int requestPayloadOffset(final int regions)
    {
        return REGION_LIST_OFFSET + regions * REGION_LENGTH;
    }

    /**
     * @param index a region of a request's list, 0-based.
     * @return the offset of that region's first byte.
     */
    public static int regionOffset(final int index)
    {
        return REGION_LIST_OFFSET + index * REGION_LENGTH;
    }

    /**
     * @param flags               FLAG_ bits.
     * @param receiverIncarnation the receiving endpoint's incarnation.
     * @return the flags word.
     */
    public static int flagsWord(final int flags, final int receiverIncarnation)
    {
        return (receiverIncarnation << 8) | (flags & 0xFF);
    }

    /**
     * @param flagsWord a flags word.
     * @return its FLAG_ bits.
     */
    public static int flags(final int flagsWord)
    {
        return flagsWord & 0xFF;
    }

    /**
     * @param flagsWord           a flags word.
     * @param receiverIncarnation an incarnation.
     * @return whether the word was written for that incarnation (low 24 bits compared).
     */
    public static boolean isFor(final int flagsWord, final int receiverIncarnation)
    {
        return (flagsWord >>> 8) == (receiverIncarnation & 0xFF_FFFF);
    }
}
