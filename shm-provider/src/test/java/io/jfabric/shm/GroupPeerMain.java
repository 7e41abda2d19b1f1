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

import io.jfabric.Domain;
import io.jfabric.Fabric;
import io.jfabric.Fabrics;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.MemoryRegion;
import io.jfabric.MrIov;
import io.jfabric.ShareableMemory;
import io.jfabric.Versions;
import io.jfabric.shm.domain.ShmDomain;
import io.jfabric.shm.mr.RemoteMemory;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * One of two processes, run as two different users of one group (see {@code GroupAccessTest}), that share a domain
 * in a root the group shares ({@code -Djfabric.shm.dir}, {@code -Djfabric.shm.group.access=true}). Each opens the
 * domain through the public API, registers a page of shareable memory for remote reads and writes under its key,
 * and writes one byte into the other's: so each maps the region, and a segment file, the other user made.
 * <ul>
 *   <li>{@code first <domain> <myKey> <peerKey>}: registers, prints {@code result ready=true}, waits for 0x5A in its
 *   memory, writes 0x11 into the peer's, prints {@code result done=true write=<rc>}.</li>
 *   <li>{@code second <domain> <myKey> <peerKey>}: registers, writes 0x5A into the peer's, waits for 0x11 in its
 *   memory, prints {@code result done=true write=<rc>}.</li>
 * </ul>
 * A failure prints {@code result error=<errno> message=<text>} and exits 0, for the test to read.
 */
public final class GroupPeerMain
{
    private static final long WAIT_MS = 30_000;

    private GroupPeerMain()
    {
    }

    /**
     * @param args see the class description.
     * @throws Exception on an unexpected failure, which fails the child.
     */
    public static void main(final String[] args) throws Exception
    {
        final boolean first = "first".equals(args[0]);
        final long myKey = Long.parseLong(args[2]);
        final long peerKey = Long.parseLong(args[3]);
        try
        {
            final Info hints = new Info();
            hints.domainAttr().name(args[1]);
            final Info info = Fabrics.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
            info.domainAttr().mrMode(0);
            final Fabric fabric = Fabrics.fabric(info.fabricAttr(), 0);
            final Domain domain = fabric.domain(info, 0);
            final ShareableMemory memory = domain.allocShareable(4096);
            final MemoryRegion mr = domain.mrRegv(new MrIov[]{MrIov.of(memory, 0, 4096)},
                Flags.FI_REMOTE_READ | Flags.FI_REMOTE_WRITE, 0, myKey, 0, 0);
            final ByteBuffer mine = memory.buffer();
            final RemoteMemory remote = ((ShmDomain)domain).remoteMemory();
            final UnsafeBuffer one = new UnsafeBuffer(new byte[1]);
            int write = 0;
            if (first)
            {
                report("ready=true");
                await(mine, (byte)0x5A);
                one.putByte(0, (byte)0x11);
                write = remote.write(peerKey, 0, one, 0, 1);
            }
            else
            {
                one.putByte(0, (byte)0x5A);
                write = remote.write(peerKey, 0, one, 0, 1);
                await(mine, (byte)0x11);
            }
            report("done=true write=" + write);
            remote.close();
            mr.close();
            memory.close();
            domain.close();
            fabric.close();
        }
        catch (final io.jfabric.FabricException ex)
        {
            report("error=" + ex.errno() + " message=" + ex.getMessage().replace(' ', '_'));
        }
    }

    private static void await(final ByteBuffer memory, final byte value) throws InterruptedException
    {
        final long deadline = System.currentTimeMillis() + WAIT_MS;
        while (memory.get(0) != value)
        {
            if (System.currentTimeMillis() > deadline)
            {
                throw new IllegalStateException("0x" + Integer.toHexString(value & 0xFF) + " never arrived");
            }
            Thread.sleep(1);
        }
    }

    private static void report(final String pairs)
    {
        System.out.println("result " + pairs);
        System.out.flush();
    }
}
