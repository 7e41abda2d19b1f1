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
package io.jfabric.shm.ep;

import org.agrona.BitUtil;
import org.agrona.concurrent.ringbuffer.RecordDescriptor;

/**
 * Layout of the body of a record in a receive lane (an Agrona {@code OneToOneRingBuffer}, whose own 8-byte record
 * header carries the body length and the record type): the only class that computes offsets into one.
 * <pre>
 *    0                   1                   2                   3
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
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
 *   +---------------------------------------------------------------+  contentLength(type, length)
 *   |  With FLAG_CHECKSUM: CRC32C of bytes 0 .. content (int)       |
 *   +---------------------------------------------------------------+
 * </pre>
 * Types: {@link #MSG} a whole message; {@link #FIRST} the first piece of a larger message, whose total length
 * follows the header; {@link #RTS} a message the receiver copies itself, in one copy, out of the sender's shareable
 * memory (key and address as {@code RemoteMemory} takes them), acknowledging through the sender's transmit-context
 * ring with the cookie ({@link TxRecordDescriptor}); {@link #PIECE} a following piece (pieces of one message are
 * consecutive in their lane, as one sender writes a lane in order). A record's body is padded to Agrona's record
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
    /** The highest record type. */
    public static final int MAX_TYPE = 7;
    /** Whole records are a multiple of this: Agrona's own record alignment. */
    public static final int RECORD_ALIGNMENT = RecordDescriptor.ALIGNMENT;

    private LaneRecordDescriptor()
    {
    }

    /**
     * @param headerAndPayload bytes of body that carry something (this header, any total length, the payload).
     * @return the body length to claim so the record ends on a {@link #RECORD_ALIGNMENT} boundary.
     */
    public static int bodyLength(final int headerAndPayload)
    {
        return BitUtil.align(headerAndPayload + RecordDescriptor.HEADER_LENGTH, RECORD_ALIGNMENT) -
            RecordDescriptor.HEADER_LENGTH;
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
            default:
                return -1;
        }
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
