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

import org.junit.jupiter.api.Test;

import static io.jfabric.shm.LayoutAssertions.assertFieldsInsideAlignedApart;
import static io.jfabric.shm.lane.TxRecordDescriptor.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * {@link TxRecordDescriptor} pinned (libfabric's {@code static_assert}s): the types and every offset and length of a
 * transmit-context ring record. A layout change fails here first.
 */
class TxRecordDescriptorTest
{
    @Test
    void shouldPinTheTypesOffsetsAndLengths()
    {
        assertEquals(1, ACK);
        assertEquals(2, RESPONSE);
        assertNotEquals(ACK, RESPONSE);
        assertEquals(0, COOKIE_OFFSET);
        assertEquals(8, STATUS_OFFSET);
        assertEquals(12, INCARNATION_OFFSET);
        assertEquals(16, ACK_LENGTH);
        assertEquals(16, RESPONSE_PAYLOAD_OFFSET);
    }

    @Test
    void shouldFillAnAcknowledgementWithItsFieldsAndStartAResponsesPayloadRightAfterThem()
    {
        assertFieldsInsideAlignedApart("acknowledgement", ACK_LENGTH,
            new int[]{COOKIE_OFFSET, 8}, new int[]{STATUS_OFFSET, 4}, new int[]{INCARNATION_OFFSET, 4});
        assertEquals(8 + 4 + 4, ACK_LENGTH, "no byte of an acknowledgement is unused");
        assertEquals(ACK_LENGTH, RESPONSE_PAYLOAD_OFFSET, "a response is an acknowledgement and its payload");
    }
}
