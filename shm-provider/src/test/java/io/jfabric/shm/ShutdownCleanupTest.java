package io.jfabric.shm;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * JVM shutdown removes the files a process owns: a real child JVM makes them, then exits without closing anything,
 * or is stopped with SIGTERM half-way.
 */
class ShutdownCleanupTest
{
    /** A region this large takes long enough to allocate (about 1 GiB of tmpfs pages) to be signalled half-way. */
    static final String HUGE_SLOTS = "32";
    static final String HUGE_RX_RING_BYTES = Integer.toString(1 << 20);

    private final ShmTestRoot root = new ShmTestRoot();

    @AfterEach
    void after()
    {
        root.close();
    }

    @Test
    void shouldDeleteAnUnfreedSegmentFileWhenTheJvmExits() throws Exception
    {
        final ChildJvm child = ChildJvm.start(FileOwnerMain.class, properties(root), "segment", "orders", "exit");
        final Map<String, String> made = child.awaitResult(60);
        child.awaitSuccess(60);

        assertFalse(Files.exists(root.dir().resolve(made.get("segment"))), child.output());
        assertEquals(List.of("orders.domain"), names(root.dir()));
    }

    @Test
    void shouldDeleteAnUnfreedSegmentFileWhenTheJvmIsTerminated() throws Exception
    {
        final ChildJvm child = ChildJvm.start(FileOwnerMain.class, properties(root), "segment", "orders", "hold");
        final Map<String, String> made = child.awaitResult(60);
        assertTrue(Files.exists(root.dir().resolve(made.get("segment"))));

        child.terminate();

        assertFalse(Files.exists(root.dir().resolve(made.get("segment"))), child.output());
    }

    @Test
    void shouldDeleteTheTemporaryFileWhenTheJvmIsTerminatedWhileCreatingARegion() throws Exception
    {
        final ChildJvm child = ChildJvm.start(FileOwnerMain.class, properties(root), "region", "huge", HUGE_SLOTS,
            HUGE_RX_RING_BYTES);
        child.awaitResult(60);
        awaitTemporaryFile(root.dir(), "huge");

        child.terminate();

        assertEquals(List.of(), names(root.dir()), child.output());
    }

    /**
     * @param root the test's root.
     * @return system properties for a child: the root, and small regions.
     */
    static List<String> properties(final ShmTestRoot root)
    {
        return List.of("jfabric.shm.dir=" + root.dir(), "jfabric.shm.ep.count=2", "jfabric.shm.rx.ring.bytes=4096",
            "jfabric.shm.tx.ring.bytes=4096", "jfabric.shm.cq.ring.bytes=4096");
    }

    /**
     * Wait until a temporary file of a domain exists (whatever the jfabric version names it, it starts with
     * {@code .<domain>.}): its creator is allocating it.
     *
     * @param dir    the root.
     * @param domain the domain.
     * @throws Exception when none appears within 30 s.
     */
    static void awaitTemporaryFile(final Path dir, final String domain) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() - deadline < 0)
        {
            if (Files.isDirectory(dir) &&
                names(dir).stream().anyMatch(n -> n.startsWith("." + domain + ".") && n.endsWith(".tmp")))
            {
                return;
            }
            Thread.sleep(1);
        }
        throw new AssertionError("no temporary file of domain " + domain + " appeared in " + dir);
    }

    /**
     * @param dir a directory.
     * @return the names in it, sorted.
     * @throws IOException on failure.
     */
    static List<String> names(final Path dir) throws IOException
    {
        try (Stream<Path> files = Files.list(dir))
        {
            return files.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
        }
    }
}
