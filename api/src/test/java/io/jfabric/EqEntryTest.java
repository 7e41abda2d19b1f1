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
package io.jfabric;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EqEntryTest
{
    @Test
    void shouldSetAndClearEveryField()
    {
        final EqEntry entry = new EqEntry().set(EqEvent.AV_COMPLETE.value(), null, 0x42, 7);

        assertEquals(EqEvent.AV_COMPLETE.value(), entry.event());
        assertEquals(0x42, entry.context());
        assertEquals(7, entry.data());

        entry.clear();

        assertEquals(0, entry.event());
        assertNull(entry.fid());
        assertEquals(0, entry.context());
        assertEquals(0, entry.data());
    }

    @Test
    void shouldNameKnownEventsAndPrintUnknownOnesAsUnsigned()
    {
        assertTrue(new EqEntry().event(EqEvent.MR_COMPLETE.value()).toString().contains("FI_MR_COMPLETE"));
        assertTrue(new EqEntry().event(-1).toString().contains("4294967295"));
    }
}
