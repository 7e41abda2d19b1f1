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
package io.jfabric.shm.core;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Child JVM for {@link ProcessIdentityTest}: writes its own {@link ProcessIdentity#self()} to a file (atomically, by
 * rename), then stays alive until a second file appears, so the parent can judge it both alive and, after it
 * exits, gone. Arguments: identity file, go file.
 */
public final class IdentityChildMain
{
    private IdentityChildMain()
    {
    }

    /**
     * @param args identity file, go file.
     * @throws Exception on any failure, so the child exits non-zero.
     */
    public static void main(final String[] args) throws Exception
    {
        final Path identityFile = Path.of(args[0]);
        final Path goFile = Path.of(args[1]);
        final Path temp = identityFile.resolveSibling(identityFile.getFileName() + ".tmp");
        Files.writeString(temp, Long.toString(ProcessIdentity.self()), StandardCharsets.US_ASCII);
        Files.move(temp, identityFile, StandardCopyOption.ATOMIC_MOVE);
        final long deadline = System.currentTimeMillis() + 60_000;
        while (!Files.exists(goFile))
        {
            if (System.currentTimeMillis() > deadline)
            {
                throw new IllegalStateException("no go file " + goFile);
            }
            Thread.sleep(5);
        }
        System.out.println("result pid=" + ProcessHandle.current().pid());
    }
}
