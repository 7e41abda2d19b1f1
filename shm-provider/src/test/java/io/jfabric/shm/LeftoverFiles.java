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
import io.jfabric.Info;
import io.jfabric.Versions;
import io.jfabric.shm.config.ShmConfig;
import io.jfabric.shm.core.ProcessIdentity;
import io.jfabric.shm.mr.SegmentDescriptor;

import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What the tests of left-behind files share: small domain settings for this JVM and for {@link FileOwnerMain}
 * children alike, a region large enough to be signalled while it is allocated, and looks at the root. Test thread
 * only.
 */
public final class LeftoverFiles
{
    /** Slots of a region that takes long enough to allocate (about 1 GiB of tmpfs pages) to be signalled half-way. */
    public static final String HUGE_SLOTS = "32";

    /** Lane bytes of that region. */
    public static final String HUGE_RX_RING_BYTES = Integer.toString(1 << 20);

    private static final Map<String, String> SETTINGS =
        Map.of("ep.count", "2", "rx.ring.bytes", "4096", "tx.ring.bytes", "4096", "cq.ring.bytes", "4096");

    private LeftoverFiles()
    {
    }

    /**
     * @param root the test's root.
     * @return system properties for a child: the root, and small regions.
     */
    public static List<String> properties(final ShmTestRoot root)
    {
        return Stream.concat(Stream.of("jfabric.shm.dir=" + root.dir()),
            SETTINGS.entrySet().stream().map(e -> ShmConfig.PREFIX + e.getKey() + "=" + e.getValue()))
            .collect(Collectors.toList());
    }

    /**
     * Open a domain in this JVM with the children's settings.
     *
     * @param root   the test's root.
     * @param domain the domain's name.
     * @return the open domain; closing it does not close its fabric (left to the garbage collector).
     */
    public static Domain open(final ShmTestRoot root, final String domain)
    {
        final ShmProvider provider = root.provider(SETTINGS::get);
        final Info hints = new Info();
        hints.domainAttr().name(domain);
        final Info info = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        final Fabric fabric = provider.fabric(info.fabricAttr(), 0);
        return fabric.domain(info, 0);
    }

    /**
     * Wait until a temporary file of a domain exists (whatever the jfabric version names it, it starts with
     * {@code .<domain>.}) that is not one of {@code known}: its creator is allocating it.
     *
     * @param dir    the root.
     * @param domain the domain.
     * @param known  names of temporary files that were there before.
     * @return its name.
     * @throws Exception when none appears within 30 s.
     */
    public static String awaitTemporaryFile(final Path dir, final String domain, final String... known)
        throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() - deadline < 0)
        {
            if (Files.isDirectory(dir))
            {
                for (final String name : names(dir))
                {
                    if (name.startsWith("." + domain + ".") && name.endsWith(".tmp") && !List.of(known).contains(name))
                    {
                        return name;
                    }
                }
            }
            Thread.sleep(1);
        }
        throw new AssertionError("no new temporary file of domain " + domain + " appeared in " + dir);
    }

    /**
     * Plant a copy of a live process's segment as an earlier process with the same pid would have left it: the same
     * pid, a start time one tick earlier, under segment id 1 of the domain.
     *
     * @param dir         the root.
     * @param domain      the segment's domain.
     * @param liveSegment the live process's segment file name.
     * @return the planted file's name.
     * @throws IOException on failure.
     */
    public static String plantSegmentOfAnEarlierProcessWithThePidOf(
        final Path dir, final String domain, final String liveSegment) throws IOException
    {
        final byte[] bytes = Files.readAllBytes(dir.resolve(liveSegment));
        final UnsafeBuffer header = new UnsafeBuffer(bytes);
        final long live = header.getLong(SegmentDescriptor.OWNER_IDENTITY_OFFSET);
        final long pid = ProcessIdentity.pid(live);
        header.putLong(SegmentDescriptor.OWNER_IDENTITY_OFFSET, ProcessIdentity.of(pid, ProcessIdentity.start(live) - 1));
        final String planted = SegmentDescriptor.fileName(domain, pid, 1);
        Files.write(dir.resolve(planted), bytes);
        return planted;
    }

    /**
     * @param dir a directory.
     * @return the names in it, sorted.
     * @throws IOException on failure.
     */
    public static List<String> names(final Path dir) throws IOException
    {
        try (Stream<Path> files = Files.list(dir))
        {
            return files.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
        }
    }
}
