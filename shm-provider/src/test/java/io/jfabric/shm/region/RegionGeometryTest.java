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

import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.shm.config.ShmConfig;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RegionGeometryTest
{
    private static final RegionGeometry SMALL = new RegionGeometry(2, 4096, 8192, 4096, 16, 8);

    @Test
    void shouldTakeSlotsRingsAndTablesFromConfig()
    {
        final Map<String, String> settings = Map.of(
            "ep.count", "3",
            "rx.ring.bytes", "65536",
            "tx.ring.bytes", "8192",
            "cq.ring.bytes", "16384",
            "mr.count", "32",
            "cntr.count", "5");
        final RegionGeometry geometry = RegionGeometry.from(ShmConfig.of(settings::get));

        assertEquals(new RegionGeometry(3, 65536, 8192, 16384, 32, 5), geometry);
    }

    @Test
    void shouldFitTheDefaultConfigInOneMapping()
    {
        final RegionGeometry geometry = RegionGeometry.from(ShmConfig.of(key -> null));

        assertTrue(RegionDescriptor.regionLength(geometry) <= RegionDescriptor.MAX_REGION_LENGTH);
    }

    @Test
    void shouldBeEqualByValue()
    {
        final RegionGeometry same = new RegionGeometry(2, 4096, 8192, 4096, 16, 8);

        assertEquals(SMALL, same);
        assertEquals(SMALL.hashCode(), same.hashCode());
        assertNotEquals(SMALL, new RegionGeometry(2, 4096, 8192, 4096, 16, 9));
        assertEquals(
            "RegionGeometry{slotCount=2, rxRingBytes=4096, txRingBytes=8192, cqRingBytes=4096, " +
            "mrTableEntries=16, counterEntries=8}",
            SMALL.toString());
    }

    @Test
    void shouldDescribeEveryDifferingFieldWithBothValues()
    {
        final RegionGeometry other = new RegionGeometry(4, 4096, 8192, 8192, 16, 8);

        assertEquals("slotCount 2 vs 4, cqRingBytes 4096 vs 8192", SMALL.describeMismatch(other));
        assertEquals("", SMALL.describeMismatch(SMALL));
    }

    @Test
    void shouldRefuseRingCapacityThatIsNotAPowerOfTwo()
    {
        final FabricException ex = assertThrows(
            FabricException.class, () -> new RegionGeometry(1, 4096 + 4096, 12288, 4096, 0, 0));

        assertEquals(Errno.FI_EINVAL, ex.errno());
        assertTrue(ex.getMessage().contains("txRingBytes=12288"), ex.getMessage());
    }

    @Test
    void shouldRefuseOutOfRangeCounts()
    {
        assertEquals(Errno.FI_EINVAL,
            assertThrows(FabricException.class, () -> new RegionGeometry(0, 4096, 4096, 4096, 0, 0)).errno());
        assertEquals(Errno.FI_EINVAL,
            assertThrows(FabricException.class, () -> new RegionGeometry(1, 2048, 4096, 4096, 0, 0)).errno());
        assertEquals(Errno.FI_EINVAL,
            assertThrows(FabricException.class, () -> new RegionGeometry(1, 4096, 4096, 4096, -1, 0)).errno());
        assertEquals(Errno.FI_EINVAL,
            assertThrows(FabricException.class, () -> new RegionGeometry(1, 4096, 4096, 4096, 0, -1)).errno());
    }

    @Test
    void shouldRefuseGeometryLargerThanOneMapping()
    {
        final FabricException ex = assertThrows(
            FabricException.class, () -> new RegionGeometry(64, 1 << 30, 4096, 4096, 0, 0));

        assertEquals(Errno.FI_EINVAL, ex.errno());
        assertTrue(ex.getMessage().contains("more than the " + RegionDescriptor.MAX_REGION_LENGTH), ex.getMessage());
    }
}
