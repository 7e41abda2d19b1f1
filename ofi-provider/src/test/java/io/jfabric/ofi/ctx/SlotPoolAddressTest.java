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
package io.jfabric.ofi.ctx;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The CQ reader finds a slot from a completion's {@code op_context} without a division (a shift, and a multiplication
 * by the inverse of the stride's odd part): every slot's address, and no other, maps back to its slot, whatever the
 * stride (a power of two or not, as tcp;ofi_rxm's 576 bytes).
 */
class SlotPoolAddressTest
{
    @Test
    void shouldInvertEveryOddNumberModuloTwoToThe64()
    {
        for (final long odd : new long[] {1, 3, 9, 15, 127, 0x7FFF_FFFF_FFFF_FFFFL, -1L, 0x1234_5678_9ABC_DEF1L})
        {
            assertEquals(1L, odd * SlotPool.inverse(odd), "inverse of " + odd);
        }
    }

    @Test
    void shouldFindEverySlotFromItsAddressAndNothingElse()
    {
        for (final long stride : new long[] {64, 192, 512, 576, 960, 1024, 64 * 127})
        {
            for (final int capacity : new int[] {1, 16, 2048})
            {
                try (Arena arena = Arena.ofConfined())
                {
                    final SlotPool pool = new SpscSlotPool(capacity, stride, 12, arena);
                    assertEquals(stride, pool.stride(), "the stride as asked: no native memory added");
                    final long first = pool.address(0);
                    for (int slot = 0; slot < capacity; slot++)
                    {
                        final long address = pool.address(slot);
                        assertEquals(first + slot * stride, address, "slots side by side, stride apart");
                        assertEquals(slot, pool.slotOf(address), "slot " + slot + " of stride " + stride);
                        for (long inside = 8; inside < stride; inside += 8)
                        {
                            assertEquals(-1, pool.slotOf(address + inside), "inside slot " + slot + "'s block, +" +
                                inside + ", stride " + stride);
                        }
                    }
                    assertEquals(-1, pool.slotOf(first - stride), "before the first block");
                    assertEquals(-1, pool.slotOf(first - 8), "just before the first block");
                    assertEquals(-1, pool.slotOf(first + capacity * stride), "after the last block");
                    assertEquals(-1, pool.slotOf(0), "no context");
                }
            }
        }
    }
}
