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
package io.jfabric.shm.stat;

import io.jfabric.shm.ShmTestRoot;
import io.jfabric.shm.region.RegionFile;
import io.jfabric.shm.region.RegionGeometry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A region file removed and created anew under its name while a process still maps the earlier one: the snapshot of
 * the earlier file says it is no longer linked, and {@link RegionMappers} finds the process on the deleted file.
 */
class RegionMappersTest
{
    private static final RegionGeometry GEOMETRY = new RegionGeometry(2, 4096, 4096, 4096, 4, 4);

    private final ShmTestRoot root = new ShmTestRoot();

    @AfterEach
    void removeRoot()
    {
        root.close();
    }

    @Test
    void shouldFindAProcessStillMappingAnEarlierRegionOfTheDomain() throws Exception
    {
        final Path file = RegionFile.regionPath(root.dir(), "split");
        try (RegionFile earlier = RegionFile.openOrCreate(root.dir(), "split", GEOMETRY, false);
            RegionImage earlierImage = RegionImage.open(file))
        {
            final long earlierInode = DomainStat.sample(earlierImage).inode();
            assertTrue(DomainStat.sample(earlierImage).stillLinked());

            Files.delete(file);
            try (RegionFile later = RegionFile.openOrCreate(root.dir(), "split", GEOMETRY, false))
            {
                final DomainStat now = DomainStat.read(file);
                assertNotEquals(earlierInode, now.inode());
                assertNotEquals(earlier.regionNonce(), now.regionNonce());
                assertFalse(DomainStat.sample(earlierImage).stillLinked(), "the earlier file is not the one named");

                final RegionMappers mappers = RegionMappers.scan(file);

                final long pid = ProcessHandle.current().pid();
                assertTrue(mappers.mappers().contains(new RegionMappers.Mapper(pid, now.inode())),
                    mappers.mappers()::toString);
                assertEquals(List.of(new RegionMappers.Mapper(pid, earlierInode)), mappers.others(now.inode()));
            }
        }
    }

    @Test
    void shouldFindNobodyMappingAFileNoProcessOpened()
    {
        final RegionMappers mappers = RegionMappers.scan(root.dir().resolve("nobody.domain"));

        assertTrue(mappers.mappers().isEmpty(), mappers.mappers()::toString);
    }
}
