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
package io.jfabric.shm;

import io.jfabric.Errno;
import io.jfabric.shm.region.AgronaAccess;
import io.jfabric.testsupport.ChildJvm;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A JVM started without the flag Agrona 2.x needs: a real child JVM opens a domain without it, several times.
 */
class AgronaExportsTest
{
    private static final int TRIES = 3;

    private final ShmTestRoot root = new ShmTestRoot();

    @AfterEach
    void after()
    {
        root.close();
    }

    @Test
    void shouldRefuseEveryOpenNamingTheMissingFlagAndLeaveNoFileBehind() throws Exception
    {
        final ChildJvm child = ChildJvm.startWithoutAgronaExports(
            NoAgronaExportsMain.class, List.of("jfabric.shm.dir=" + root.dir()), "noflag", Integer.toString(TRIES));
        final String out = child.awaitSuccess(60);

        if (Files.exists(root.dir()))
        {
            try (Stream<Path> files = Files.list(root.dir()))
            {
                assertEquals(List.of(), files.map(p -> p.getFileName().toString()).collect(Collectors.toList()),
                    "no temporary region file is left by a try");
            }
        }
        assertFalse(Files.exists(root.dir()), "the check comes before the root directory is created");
        final List<Map<String, String>> results = out.lines().filter(line -> line.startsWith("result "))
            .map(ChildJvm::parseResult).collect(Collectors.toList());
        assertEquals(TRIES, results.size(), out);
        for (final Map<String, String> result : results)
        {
            assertEquals(Integer.toString(Errno.FI_ENOSYS), result.get("errno"), out);
            assertTrue(result.get("message").contains(AgronaAccess.JVM_FLAG.replace(' ', '_')), out);
        }
    }
}
