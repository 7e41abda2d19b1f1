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

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A second process for the multi-process region tests: opens (or creates) regions and reports what it saw on
 * standard output as {@code result ...} lines of key=value pairs, closing each region before exiting.
 * <p>
 * Arguments: rootDir domainName slotCount rxRingBytes txRingBytes cqRingBytes mrTableEntries counterEntries
 * [rounds]. Without rounds it opens {@code domainName} once. With rounds it first warms the open path on a
 * region of its own, then for each round {@code r} prints {@code ready}, waits for a line on standard input and
 * opens {@code domainName-r}, so a parent can release several processes into the same race, round after round.
 */
public final class RegionChildMain
{
    private RegionChildMain()
    {
    }

    /**
     * @param args see the class description.
     * @throws Exception on a failure to read standard input.
     */
    public static void main(final String[] args) throws Exception
    {
        final Path rootDir = Path.of(args[0]);
        final String name = args[1];
        final RegionGeometry geometry = new RegionGeometry(
            Integer.parseInt(args[2]),
            Integer.parseInt(args[3]),
            Integer.parseInt(args[4]),
            Integer.parseInt(args[5]),
            Integer.parseInt(args[6]),
            Integer.parseInt(args[7]));

        if (args.length == 8)
        {
            openAndReport(rootDir, name, geometry);
        }
        else
        {
            final int rounds = Integer.parseInt(args[8]);
            final String warmup = "warmup-" + ProcessHandle.current().pid();
            RegionFile.openOrCreate(rootDir, warmup, geometry, false).close();
            RegionFile.openOrCreate(rootDir, warmup, geometry, false).close();

            final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (int round = 0; round < rounds; round++)
            {
                System.out.println("ready");
                System.out.flush();
                if (null == in.readLine())
                {
                    return;
                }
                openAndReport(rootDir, name + "-" + round, geometry);
            }
        }
    }

    private static void openAndReport(final Path rootDir, final String name, final RegionGeometry geometry)
    {
        try (RegionFile region = RegionFile.openOrCreate(rootDir, name, geometry, false))
        {
            System.out.println("result" +
                " pid=" + ProcessHandle.current().pid() +
                " created=" + region.created() +
                " creatorPid=" + region.creatorPid() +
                " creatorStartTime=" + region.creatorStartTime() +
                " creationTime=" + region.creationTime() +
                " geometryEqual=" + region.geometry().equals(geometry) +
                " attachCount=" + region.attachCount());
        }
        catch (final FabricException ex)
        {
            System.out.println("result error=" + ex.errno() + " message=" + ex.getMessage().replace(' ', '_'));
        }
        System.out.flush();
    }
}
