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

/**
 * Layout of the body of a record in a slot's transmit-context ring (an Agrona {@code ManyToOneRingBuffer}: any
 * receiver may write to it), which returns to a sender what its peers owe it: the acknowledgement ({@link #ACK}) of
 * a rendezvous ({@link LaneRecordDescriptor#RTS}) once the receiver has copied the data, or failed to, and of a
 * delivery request ({@link LaneRecordDescriptor#ACK_REQUEST}); and the response ({@link #RESPONSE}) to an emulated
 * one-sided request ({@link LaneRecordDescriptor#RMA_WRITE}, {@code RMA_READ}, {@code ATOMIC}) once the target has
 * performed it, or failed to, carrying the bytes a read or a fetching atomic returns.
 * <pre>
 *    0                   1                   2                   3
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *   +---------------------------------------------------------------+  0
 *   |     Sender Cookie (long), from the RTS, ACK_REQUEST or request|
 *   |                                                               |
 *   +---------------------------------------------------------------+  8
 *   |   Status: 0, or the negated errno of the receiver's work      |
 *   +---------------------------------------------------------------+  12
 *   |   Sender Incarnation the request was written by               |
 *   +---------------------------------------------------------------+  16  ACK_LENGTH, RESPONSE_PAYLOAD_OFFSET
 *   |   RESPONSE only: RMA_READ the bytes read, regions in order;   |
 *   |   fetching or compare ATOMIC the values before, native order; |
 *   |   the request's Total of them (present, unread, on an error)  |
 *   +---------------------------------------------------------------+
 * </pre>
 * Stateless; any thread.
 */
public final class TxRecordDescriptor
{
    /** Record type of a rendezvous acknowledgement. */
    public static final int ACK = 1;
    /** Offset of the cookie (long). */
    public static final int COOKIE_OFFSET = 0;
    /** Offset of the status (int). */
    public static final int STATUS_OFFSET = 8;
    /** Offset of the sender incarnation (int). */
    public static final int INCARNATION_OFFSET = 12;
    /** Length of an ACK body. */
    public static final int ACK_LENGTH = 16;
    /** Record type of the response to an emulated one-sided request. */
    public static final int RESPONSE = 2;
    /** Offset of a response's payload. */
    public static final int RESPONSE_PAYLOAD_OFFSET = 16;

    private TxRecordDescriptor()
    {
    }
}
