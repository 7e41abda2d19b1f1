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

import io.jfabric.Counter;
import io.jfabric.Errno;
import io.jfabric.MemoryRegion;
import io.jfabric.MrIov;
import io.jfabric.MrMode;
import io.jfabric.MrRawAttr;
import io.jfabric.ShareableMemory;
import io.jfabric.shm.domain.ShmDomain;
import io.jfabric.testsupport.ChildJvm;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.jfabric.Flags.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two processes of one domain: A (this JVM) allocates shareable memory and registers it; B ({@link MrPeerMain}, a
 * child JVM) resolves the key and reads and writes A's bytes directly, and is refused beyond the region, without the
 * right, with a wrong key and after A closed the region; nothing outside the region changes. Also the raw key round
 * trip, and a remote write from B counted on A's counter.
 */
class MrTwoJvmTest
{
    private static final byte GUARD = 0x5A;
    private static final int SEGMENT = 64 * 1024;
    private static final int OFFSET = 4096;
    private static final int LENGTH = 1024;

    private final MrTestDomains domains = new MrTestDomains();

    @AfterEach
    void tearDown()
    {
        domains.close();
    }

    private List<String> properties()
    {
        return List.of("jfabric.shm.dir=" + domains.root.dir());
    }

    private static Map<String, String> result(final String out, final String prefix)
    {
        for (final String line : out.split("\n"))
        {
            if (line.startsWith("result " + prefix))
            {
                return ChildJvm.parseResult(line.trim());
            }
        }
        throw new AssertionError("no '" + prefix + "' result in:\n" + out);
    }

    @Test
    void shouldLetAnotherProcessReadAndWriteTheRegionAndRefuseEverythingElse() throws Exception
    {
        final int mode = MrMode.FI_MR_VIRT_ADDR;
        final ShmDomain domain = domains.open("twojvm", mode);
        try (ShareableMemory memory = domain.allocShareable(SEGMENT);
            Counter counter = domain.cntrOpen(null, 0))
        {
            final UnsafeBuffer all = new UnsafeBuffer(memory.buffer());
            all.setMemory(0, SEGMENT, GUARD);
            for (int i = 0; i < LENGTH; i++)
            {
                all.putByte(OFFSET + i, (byte)i);
            }
            final MemoryRegion rw = domain.mrRegv(new MrIov[]{MrIov.of(memory, OFFSET, LENGTH)},
                FI_REMOTE_READ | FI_REMOTE_WRITE, 0, 4242, 0, 0);
            rw.bind(counter, FI_REMOTE_WRITE);
            final MemoryRegion ro = domain.mrRegv(new MrIov[]{MrIov.of(memory, 3 * OFFSET, 512)}, FI_REMOTE_READ, 0,
                4343, 0, 0);
            final Path waitFile = domains.root.dir().resolve("a-closed");
            final Path doneFile = domains.root.dir().resolve("b-done");

            final ChildJvm b = ChildJvm.start(MrPeerMain.class, properties(), "access", "twojvm",
                Integer.toString(mode), "4242", Long.toString(rw.baseAddress()), Integer.toString(LENGTH),
                "4343", waitFile.toString(), doneFile.toString());
            final long deadline = System.currentTimeMillis() + 60_000;
            while (!Files.exists(doneFile) && System.currentTimeMillis() < deadline)
            {
                Thread.sleep(5);
            }
            assertTrue(Files.exists(doneFile), "B finished its first phase");
            for (int i = 0; i < SEGMENT; i++)
            {
                final byte expected = i >= OFFSET && i < OFFSET + LENGTH ? (byte)0xC3 : GUARD;
                assertEquals(expected, all.getByte(i), "byte " + i + " after B's writes");
            }
            assertEquals(1, counter.read(), "B's one successful write raised A's counter");
            rw.close();
            Files.createFile(waitFile);

            final String out = b.awaitSuccess(60);
            final Map<String, String> one = result(out, "phase=1");
            assertEquals("0", one.get("read"), out);
            assertEquals("true", one.get("pattern"), out);
            assertEquals("0", one.get("write"), out);
            assertEquals(Integer.toString(-Errno.FI_EINVAL), one.get("beyond"), out);
            assertEquals(Integer.toString(-Errno.FI_EINVAL), one.get("before"), out);
            assertEquals(Integer.toString(-Errno.FI_EINVAL), one.get("readBeyond"), out);
            assertEquals(Integer.toString(-Errno.FI_EACCES), one.get("noRight"), out);
            assertEquals(Integer.toString(-Errno.FI_EKEYREJECTED), one.get("wrongKey"), out);
            final Map<String, String> two = result(out, "phase=2");
            assertEquals(Integer.toString(-Errno.FI_EKEYREJECTED), two.get("afterWrite"), out);
            assertEquals(Integer.toString(-Errno.FI_EKEYREJECTED), two.get("afterRead"), out);
            for (int i = 0; i < SEGMENT; i++)
            {
                final byte expected = i >= OFFSET && i < OFFSET + LENGTH ? (byte)0xC3 : GUARD;
                assertEquals(expected, all.getByte(i), "byte " + i + " after B's refused accesses");
            }
            assertEquals(1, counter.read(), "refused writes count nothing");
            ro.close();
        }
    }

    @Test
    void shouldRoundTripARawKeyToAnotherProcess() throws Exception
    {
        final int mode = MrMode.FI_MR_RAW | MrMode.FI_MR_VIRT_ADDR;
        final ShmDomain domain = domains.open("raw2", mode);
        try (ShareableMemory memory = domain.allocShareable(8192);
            MemoryRegion mr = domain.mrRegv(new MrIov[]{MrIov.of(memory, 100, 300)}, FI_REMOTE_READ, 0, 0xBEEF, 0, 0))
        {
            for (int i = 0; i < 300; i++)
            {
                memory.buffer().put(100 + i, (byte)(i * 3));
            }
            assertEquals(MemoryRegion.FI_KEY_NOTAVAIL, mr.key());
            final MrRawAttr raw = new MrRawAttr(new byte[8], 8);
            mr.rawAttr(raw, 0);
            final StringBuilder hex = new StringBuilder();
            for (final byte b : raw.rawKey())
            {
                hex.append(String.format("%02x", b));
            }
            final String out = ChildJvm.start(MrPeerMain.class, properties(), "raw", "raw2", Integer.toString(mode),
                hex.toString(), Long.toString(raw.baseAddr()), "300").awaitSuccess(60);
            final Map<String, String> result = result(out, "key=");
            assertEquals(Long.toString(0xBEEF), result.get("key"), out);
            assertEquals("0", result.get("read"), out);
            assertEquals("true", result.get("pattern"), out);
        }
    }

    @Test
    void shouldReclaimAKeyWhoseOwnerProcessDiedWithoutClosing() throws Exception
    {
        final ShmDomain domain = domains.open("dead", 0);
        final String out = ChildJvm.start(MrPeerMain.class, properties(), "hold", "dead", "0", "31337")
            .awaitSuccess(60);
        assertEquals("31337", result(out, "held=").get("held"), out);
        try (MemoryRegion mr = domain.mrReg(java.nio.ByteBuffer.allocateDirect(8), FI_SEND, 0, 31337, 0, 0))
        {
            assertEquals(31337, mr.key(), "the dead process's entry was withdrawn and reused");
        }
    }

    @Test
    void shouldReclaimEntriesOfADeadProcessWhenTheKeyTableIsFull() throws Exception
    {
        try (MrTestDomains small = new MrTestDomains(key -> "mr.count".equals(key) ? "4" : null))
        {
            final ShmDomain domain = small.open("full", 0);
            final String out = ChildJvm.start(MrPeerMain.class,
                List.of("jfabric.shm.dir=" + small.root.dir(), "jfabric.shm.mr.count=4"), "hold", "full", "0", "100", "4")
                .awaitSuccess(60);
            assertEquals("103", result(out, "held=").get("held"), out);
            try (MemoryRegion a = domain.mrReg(java.nio.ByteBuffer.allocateDirect(8), FI_SEND, 0, 500, 0, 0);
                MemoryRegion b = domain.mrReg(java.nio.ByteBuffer.allocateDirect(8), FI_SEND, 0, 501, 0, 0))
            {
                assertEquals(500, a.key());
                assertEquals(501, b.key());
            }
        }
    }
}
