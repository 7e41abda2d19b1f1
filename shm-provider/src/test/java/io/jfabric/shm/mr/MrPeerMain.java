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
package io.jfabric.shm.mr;

import io.jfabric.Domain;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.Fabrics;
import io.jfabric.Info;
import io.jfabric.Versions;
import io.jfabric.shm.domain.ShmDomain;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Process B of the two-JVM memory registration tests: opens the named domain through the public API (root from
 * {@code -Djfabric.shm.dir}) and works on process A's registered memory one-sidedly, printing one
 * {@code result k=v ...} line per phase.
 * <p>
 * Arguments: {@code access <domain> <mrMode> <rwKey> <addr> <length> <roKey> <wait file> <done file>}: reads and
 * checks A's pattern (byte i = i), writes 0xC3 over the whole region, tries the refused accesses, creates the done
 * file, waits for A to create the wait file (A has closed the region then) and tries again.
 * {@code raw <domain> <mrMode> <hex raw key> <base addr> <length>}: maps the raw key and reads the pattern.
 * {@code hold <domain> <mrMode> <key> [count]}: registers regions with keys key, key + 1, ... and halts without
 * closing anything.
 */
public final class MrPeerMain
{
    private MrPeerMain()
    {
    }

    /**
     * @param args see the class description.
     * @throws Exception on failure, which fails the child.
     */
    public static void main(final String[] args) throws Exception
    {
        final Info hints = new Info();
        hints.domainAttr().name(args[1]);
        final List<Info> infos = Fabrics.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints);
        final Info info = infos.get(0);
        info.domainAttr().mrMode(Integer.parseInt(args[2]));
        try (Fabric fabric = Fabrics.fabric(info.fabricAttr(), 0);
            Domain domain = fabric.domain(info, 0))
        {
            final ShmDomain shm = (ShmDomain)domain;
            if ("access".equals(args[0]))
            {
                access(shm, args);
            }
            else if ("hold".equals(args[0]))
            {
                final int count = args.length > 4 ? Integer.parseInt(args[4]) : 1;
                long key = 0;
                for (int i = 0; i < count; i++)
                {
                    key = shm.mrReg(java.nio.ByteBuffer.allocateDirect(64), io.jfabric.Flags.FI_SEND, 0,
                        Long.parseLong(args[3]) + i, 0, 0).key();
                }
                System.out.println("result held=" + key);
                System.out.flush();
                Runtime.getRuntime().halt(0); // Dies holding the key: nothing is closed.
            }
            else
            {
                raw(shm, args);
            }
        }
    }

    private static void access(final ShmDomain domain, final String[] args) throws Exception
    {
        final long key = Long.parseLong(args[3]);
        final long addr = Long.parseLong(args[4]);
        final int length = Integer.parseInt(args[5]);
        final long roKey = Long.parseLong(args[6]);
        final Path waitFile = Path.of(args[7]);
        final Path doneFile = Path.of(args[8]);
        try (RemoteMemory remote = domain.remoteMemory())
        {
            final UnsafeBuffer dst = new UnsafeBuffer(new byte[length + 64]);
            final int read = remote.read(key, addr, dst, 0, length);
            boolean pattern = true;
            for (int i = 0; i < length; i++)
            {
                pattern &= dst.getByte(i) == (byte)i;
            }
            final UnsafeBuffer src = new UnsafeBuffer(new byte[length + 64]);
            src.setMemory(0, src.capacity(), (byte)0xC3);
            final int write = remote.write(key, addr, src, 0, length);
            final int beyond = remote.write(key, addr + length - 8, src, 0, 16);
            final int before = remote.write(key, addr - 1, src, 0, 1);
            final int readBeyond = remote.read(key, addr + length, dst, 0, 1);
            final int noRight = remote.write(roKey, 0, src, 0, 8);
            final int wrongKey = remote.write(key + 1000, addr, src, 0, 8);
            final int roRead = remote.read(roKey, 0, dst, 0, 8);
            System.out.println("result phase=1 read=" + read + " pattern=" + pattern + " write=" + write +
                " beyond=" + beyond + " before=" + before + " readBeyond=" + readBeyond + " noRight=" + noRight +
                " wrongKey=" + wrongKey + " roRead=" + roRead);
            Files.createFile(doneFile);
            final long deadline = System.currentTimeMillis() + 30_000;
            while (!Files.exists(waitFile))
            {
                if (System.currentTimeMillis() > deadline)
                {
                    throw new IllegalStateException("A never closed its region");
                }
                Thread.sleep(5);
            }
            final int afterWrite = remote.write(key, addr, src, 0, 8);
            final int afterRead = remote.read(key, addr, dst, 0, 8);
            System.out.println("result phase=2 afterWrite=" + afterWrite + " afterRead=" + afterRead +
                " ekeyrejected=" + -Errno.FI_EKEYREJECTED);
        }
    }

    private static void raw(final ShmDomain domain, final String[] args)
    {
        final String hex = args[3];
        final byte[] rawKey = new byte[hex.length() / 2];
        for (int i = 0; i < rawKey.length; i++)
        {
            rawKey[i] = (byte)Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
        }
        final long base = Long.parseLong(args[4]);
        final int length = Integer.parseInt(args[5]);
        final long key = domain.mrMapRaw(base, rawKey, 0);
        try (RemoteMemory remote = domain.remoteMemory())
        {
            final UnsafeBuffer dst = new UnsafeBuffer(new byte[length]);
            final int read = remote.read(key, base, dst, 0, length);
            boolean pattern = true;
            for (int i = 0; i < length; i++)
            {
                pattern &= dst.getByte(i) == (byte)(i * 3);
            }
            System.out.println("result key=" + key + " read=" + read + " pattern=" + pattern);
        }
        domain.mrUnmapKey(key);
    }
}
