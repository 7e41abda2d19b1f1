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

import io.jfabric.shm.ShmTestRoot;
import io.jfabric.shm.core.ProcessIdentity;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A temporary file's name says what it is built for and which process made it.
 */
class TempFilesTest
{
    private final ShmTestRoot root = new ShmTestRoot();

    @AfterEach
    void after()
    {
        root.close();
    }

    @Test
    void shouldNameATemporaryFileForItsTargetAndThisProcess() throws Exception
    {
        Files.createDirectory(root.dir());
        final Path temp = TempFiles.create(root.dir(), "orders.x.domain",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        final String name = temp.getFileName().toString();

        assertTrue(name.startsWith(".orders.x.domain."), name);
        assertEquals(ProcessIdentity.self(), TempFiles.ownerOf(name), name);
        assertEquals("orders.x.domain", TempFiles.targetOf(name));

        OwnedFiles.delete(temp);
        assertFalse(Files.exists(temp));
    }

    @Test
    void shouldReadNoOwnerFromAnyOtherName()
    {
        for (final String name : new String[] {
            "orders.domain", ".orders.12345.tmp", "..uid-probe.42.tmp", ".orders.domain.00000000000000zz.1.tmp",
            ".orders.domain.0000000000000000.1.tmp", ".0000000000000001.1.tmp", "orders.domain.00000000000004d2.1.tmp"})
        {
            assertEquals(0, TempFiles.ownerOf(name), name);
            assertNull(TempFiles.targetOf(name), name);
        }
    }
}
