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
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EqAttrTest
{
    @Test
    void shouldDefaultToTheCStructureZeroValuesWithWaitNone()
    {
        final EqAttr attr = new EqAttr();

        assertEquals(0, attr.size());
        assertEquals(0, attr.flags());
        assertSame(WaitObj.NONE, attr.waitObj());
        assertEquals(0, attr.signalingVector());
    }

    @Test
    void shouldSetFieldsFluently()
    {
        final EqAttr attr = new EqAttr()
            .size(32)
            .flags(Flags.FI_WRITE | Flags.FI_AFFINITY)
            .waitObj(WaitObj.UNSPEC)
            .signalingVector(3);

        assertEquals(32, attr.size());
        assertEquals(Flags.FI_WRITE | Flags.FI_AFFINITY, attr.flags());
        assertSame(WaitObj.UNSPEC, attr.waitObj());
        assertEquals(3, attr.signalingVector());
    }

    @Test
    void shouldCopyIndependently()
    {
        final EqAttr original = new EqAttr().size(8).flags(Flags.FI_WRITE).waitObj(WaitObj.YIELD).signalingVector(1);
        final EqAttr copy = original.copy();

        copy.size(16).flags(0).waitObj(WaitObj.NONE).signalingVector(2);

        assertNotSame(original, copy);
        assertEquals(8, original.size());
        assertEquals(Flags.FI_WRITE, original.flags());
        assertSame(WaitObj.YIELD, original.waitObj());
        assertEquals(1, original.signalingVector());
    }

    @Test
    void shouldPrintLikeTheCStructure()
    {
        final String text = new EqAttr().size(4).flags(Flags.FI_WRITE).waitObj(WaitObj.MUTEX_COND).toString();

        assertTrue(text.contains("size: 4"), text);
        assertTrue(text.contains("FI_WRITE"), text);
        assertTrue(text.contains("FI_WAIT_MUTEX_COND"), text);
    }
}
