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

import io.jfabric.FabricException;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A second process for the tests of region creation when space runs out, run under a limit the test process must
 * not have itself (a file size limit, a private small tmpfs). Prints one {@code result ...} line of key=value pairs
 * per step (spaces in messages become '_').
 * <p>
 * Arguments: {@code create <rootDir> <slotCount> <rxRingBytes>}: open or create domain {@code "big"} with that many
 * slots of that receive ring size (other sizes minimal), then list the root directory.
 * {@code preallocate <file> <length>}: create the file and allocate its pages with {@link RegionFile#preallocate}.
 */
public final class RegionSpaceChildMain
{
    private RegionSpaceChildMain()
    {
    }

    /**
     * @param args see the class description.
     * @throws IOException when a file cannot be listed or created.
     */
    public static void main(final String[] args) throws IOException
    {
        for (int i = 0; i < args.length; )
        {
            switch (args[i])
            {
                case "create" ->
                {
                    create(Path.of(args[i + 1]), Integer.parseInt(args[i + 2]), Integer.parseInt(args[i + 3]));
                    i += 4;
                }
                case "preallocate" ->
                {
                    preallocate(Path.of(args[i + 1]), Long.parseLong(args[i + 2]));
                    i += 3;
                }
                default -> throw new IllegalArgumentException("unknown step " + args[i]);
            }
        }
        System.out.flush();
    }

    private static void create(final Path rootDir, final int slotCount, final int rxRingBytes) throws IOException
    {
        final RegionGeometry geometry = new RegionGeometry(slotCount, rxRingBytes, 4096, 4096, 16, 8);
        String result;
        try (RegionFile region = RegionFile.openOrCreate(rootDir, "big", geometry, false))
        {
            result = "created=" + region.created();
        }
        catch (final FabricException ex)
        {
            result = error(ex);
        }
        try (Stream<Path> files = Files.list(rootDir))
        {
            result += " files=" + files.map(p -> p.getFileName().toString()).sorted().collect(Collectors.joining(","));
        }
        System.out.println("result step=create length=" + RegionDescriptor.regionLength(geometry) + " " + result);
    }

    private static void preallocate(final Path file, final long length) throws IOException
    {
        String result;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE))
        {
            try
            {
                SharedFile.preallocate(channel, length, file.getParent(), "test file " + file);
                result = "ok";
            }
            catch (final FabricException ex)
            {
                result = error(ex);
            }
        }
        System.out.println("result step=preallocate " + result);
    }

    private static String error(final FabricException ex)
    {
        return "error=" + ex.errno() + " message=" + ex.getMessage().replace(' ', '_');
    }
}
