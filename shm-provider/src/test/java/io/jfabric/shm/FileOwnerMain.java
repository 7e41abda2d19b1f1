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

import io.jfabric.AvAttr;
import io.jfabric.Domain;
import io.jfabric.Fabric;
import io.jfabric.Fabrics;
import io.jfabric.Info;
import io.jfabric.ShareableMemory;
import io.jfabric.Versions;
import io.jfabric.shm.mr.ShmShareableMemory;
import io.jfabric.shm.region.RegionFile;
import io.jfabric.shm.region.RegionGeometry;

import java.nio.file.Path;
import java.util.List;

/**
 * A process that makes files in the shm root (given by {@code -Djfabric.shm.dir}, with the test's other
 * {@code jfabric.shm.*} settings) and then leaves them behind the way a test asks: it exits without closing, or
 * holds on until the test signals or kills it. Prints {@code result k=v ...} lines.
 * <ul>
 *   <li>{@code segment <domain> exit|hold}: opens the domain through the public API, opens its named AV
 *   {@code peers} and allocates one page of shareable memory, prints {@code result pid=<pid> segment=<file name>},
 *   then calls {@code System.exit(0)} without closing anything ({@code exit}) or sleeps ({@code hold}).</li>
 *   <li>{@code region <domain> <slots> <rxRingBytes>}: prints {@code result pid=<pid>}, creates a domain region of
 *   that geometry (large enough to take a while to allocate, so a test can signal it half-way), prints
 *   {@code result created=<bool>} and sleeps.</li>
 * </ul>
 */
public final class FileOwnerMain
{
    private FileOwnerMain()
    {
    }

    /**
     * @param args see the class description.
     * @throws Exception on failure, which fails the child.
     */
    public static void main(final String[] args) throws Exception
    {
        if ("segment".equals(args[0]))
        {
            final Info hints = new Info();
            hints.domainAttr().name(args[1]);
            final List<Info> infos = Fabrics.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints);
            final Fabric fabric = Fabrics.fabric(infos.get(0).fabricAttr(), 0);
            final Domain domain = fabric.domain(infos.get(0), 0);
            domain.avOpen(new AvAttr().name("peers"), 0);
            final ShareableMemory memory = domain.allocShareable(4096);
            report("segment=" + ((ShmShareableMemory)memory).segment().path().getFileName());
            if ("exit".equals(args[2]))
            {
                System.exit(0);
            }
        }
        else
        {
            report("");
            final RegionGeometry geometry = new RegionGeometry(
                Integer.parseInt(args[2]), Integer.parseInt(args[3]), 4096, 4096, 16, 8);
            final RegionFile region = RegionFile.openOrCreate(
                Path.of(System.getProperty("jfabric.shm.dir")), args[1], geometry, false);
            report("created=" + region.created());
        }
        Thread.sleep(Long.MAX_VALUE);
    }

    private static void report(final String pairs)
    {
        System.out.println("result pid=" + ProcessHandle.current().pid() + (pairs.isEmpty() ? "" : " " + pairs));
        System.out.flush();
    }
}
