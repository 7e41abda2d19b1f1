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
package io.jfabric.it.monitor;

import io.jfabric.shm.stat.DomainStat;
import io.jfabric.shm.stat.RegionUser;
import io.jfabric.shm.stat.SlotStat;

import java.nio.file.Path;

/**
 * Reads a live domain's region file through the provider's monitoring library call, as a tool outside jfabric would.
 * <pre>
 *   Monitor REGION_FILE DOMAIN    prints the snapshot; exit 0 when it names DOMAIN and has a live user and an
 *                                 endpoint, 1 otherwise
 * </pre>
 */
public final class Monitor
{
    private Monitor()
    {
    }

    public static void main(final String[] args)
    {
        if (args.length != 2)
        {
            System.err.println("usage: Monitor REGION_FILE DOMAIN");
            System.exit(2);
        }
        final DomainStat stat = DomainStat.read(Path.of(args[0]));
        final long liveUsers = stat.users().stream().filter(RegionUser::alive).count();
        final long endpoints = stat.slots().stream().filter(SlotStat::hasEndpoint).count();
        System.out.println("monitor: " + Monitor.class.getModule().getName() + " read domain \"" +
            stat.domainName() + "\" through " + DomainStat.class.getModule().getName() + ": " + liveUsers +
            " live user(s), " + endpoints + " endpoint(s)");
        if (!stat.domainName().equals(args[1]) || liveUsers < 1 || endpoints < 1)
        {
            System.err.println("monitor: expected domain \"" + args[1] + "\" with a live user and an endpoint");
            System.exit(1);
        }
    }
}
