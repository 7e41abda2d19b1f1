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

import io.jfabric.AddressVector;
import io.jfabric.AvAttr;
import io.jfabric.CompletionQueue;
import io.jfabric.CqAttr;
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.EqAttr;
import io.jfabric.EqErrEntry;
import io.jfabric.Errno;
import io.jfabric.EventQueue;
import io.jfabric.Fabric;
import io.jfabric.FabricException;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Versions;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.ShmTestRoot;
import io.jfabric.testsupport.ChildJvm;
import io.jfabric.testsupport.OpenedObjects;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Issue 14 item 8: another process truncates, removes or replaces a live domain region file.
 * <ul>
 *   <li>Truncated (by {@code truncate(1)}, a real third process) under two JVMs (Java 25) that ping-pong as fast as
 *   they can: both see {@code -FI_EIO} from a send or CQ read, their domain event queue an FI_EIO error that says
 *   the file was truncated, they close everything without an exception, and neither dies of the JVM's
 *   {@link InternalError} (the SIGBUS of a mapped access). This JVM, which has the domain open but idle, learns it
 *   through its event queue, and a new open of the name is refused with FI_EIO.</li>
 *   <li>Removed under a live domain: its event queue gets one FI_ENOENT error saying so, while the processes that
 *   mapped it carry on; a process that opens the name now creates another region.</li>
 * </ul>
 */
class RegionTruncationTest
{
    private static final String DOMAIN = "truncation";
    private static final Path JAVA_25 = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64/bin/java");

    private final OpenedObjects opened = new OpenedObjects();
    private ShmTestRoot root;
    private EventQueue eq;
    private Domain domain;
    private AddressVector av;
    private CompletionQueue cq;
    private Endpoint ep;

    @BeforeEach
    void open()
    {
        root = new ShmTestRoot();
        final ShmProvider provider = root.provider(key -> "max.err.data".equals(key) ? "512" : null);
        final Info hints = new Info();
        hints.domainAttr().name(DOMAIN);
        final Info info = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        final Fabric fabric = opened.keep(provider.fabric(info.fabricAttr(), 0));
        eq = opened.keep(fabric.eqOpen(new EqAttr().size(16), 0));
        domain = opened.keep(fabric.domain(info, 0));
        domain.bind(eq, 0);
        av = opened.keep(domain.avOpen(new AvAttr(), 0));
        cq = opened.keep(domain.cqOpen(new CqAttr(), 0));
        ep = opened.keep(domain.endpoint(info, 0));
        ep.bind(av, 0);
        ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
        ep.enable();
    }

    @AfterEach
    void close() throws Exception
    {
        opened.close(); // must not throw, even over a region that was truncated
        root.close();
    }

    /**
     * Both pinging JVMs run Java 25: Java 17 cannot be made safe here. Its HotSpot raises the fault of a compiled
     * mapped access asynchronously, possibly outside any catch, and a fault inside {@code Unsafe.setMemory} (Agrona's
     * rings zero what they consumed with it) is not guarded at all: the JVM dies of SIGBUS with an hs_err file. Seen
     * on 17.0.15; see docs/RELIABILITY.md.
     */
    @Test
    void shouldFailBothSidesWithEioAndNeverCrashWhenTheRegionIsTruncated() throws Exception
    {
        assumeTrue(Files.isExecutable(JAVA_25), "Java 25 is not installed at " + JAVA_25);
        final ChildJvm initiator = child("initiator");
        final ChildJvm responder = child("responder");
        final String initiatorAddress = initiator.awaitResult(60).get("addr");
        final String responderAddress = responder.awaitResult(60).get("addr");
        initiator.tell(responderAddress);
        responder.tell(initiatorAddress);
        assertEquals("yes", initiator.awaitResult(60).get("pinging"));
        assertEquals("yes", responder.awaitResult(60).get("pinging"));
        Thread.sleep(1500); // long enough for HotSpot to have compiled the ping

        final Path file = RegionFile.regionPath(root.dir(), DOMAIN);
        final long length = Files.size(file);
        final Process truncate = new ProcessBuilder("truncate", "-s", "8192", file.toString()).inheritIO().start();
        assertEquals(0, truncate.waitFor());

        for (final ChildJvm child : List.of(initiator, responder))
        {
            final Map<String, String> outcome = awaitOrDump(child);
            // -FI_EIO once a watch or a caught fault marked the region; -FI_EHOSTUNREACH when a send first found
            // the peer's slot zeroed by the truncation (the peer looks gone); -FI_EAVAIL with an FI_EIO error entry
            // when the other JVM's watch gave the file its length back (zeros) before this JVM touched the cut part
            // or its watch saw it short, and its CQ read found its ring damaged: all clean, all seen under load.
            assertTrue(("" + -Errno.FI_EIO).equals(outcome.get("rc")) ||
                ("" + -Errno.FI_EHOSTUNREACH).equals(outcome.get("rc")) ||
                ("" + -Errno.FI_EAVAIL).equals(outcome.get("rc")) && ("" + Errno.FI_EIO).equals(outcome.get("cqerr")),
                "its ping ended in a clean error: " + outcome);
            assertTrue(Long.parseLong(outcome.get("rounds")) > 0, "it ran before the truncation: " + outcome);
            assertEquals("" + Errno.FI_EIO, outcome.get("eq"), "its event queue says why: " + outcome);
            assertEquals("yes", child.awaitResult(60).get("closed"), "it closed everything without an exception");
            final String transcript = child.awaitSuccess(60);
            assertFalse(transcript.contains("InternalError"), transcript);
        }
        assertEquals(length, Files.size(file), "a watch gave the file its length back");

        final EqErrEntry err = new EqErrEntry(512);
        assertEquals(Errno.FI_EIO, awaitEqError(eq, err), "this JVM's domain learns it too");
        final String text = new String(err.errData(), 0, err.errDataSize(), StandardCharsets.UTF_8);
        assertTrue(text.contains("truncated"), text);
        assertEquals(-Errno.FI_EIO, ep.inject(ByteBuffer.allocateDirect(8), 0, 8, 0), "and fails its calls");

        final FabricException refused = assertThrows(FabricException.class, () -> RegionFile.openOrCreate(
            root.dir(), DOMAIN, RegionGeometry.from(root.provider().config()), false));
        assertEquals(Errno.FI_EIO, refused.errno(), "a faulted region is not opened again: " + refused.getMessage());
    }

    /** The child's next result; when none comes in 30 s, fail with its thread dump (jstack of Java 25). */
    private static Map<String, String> awaitOrDump(final ChildJvm child) throws Exception
    {
        try
        {
            return child.awaitResult(30);
        }
        catch (final AssertionError ex)
        {
            final Process jstack = new ProcessBuilder(JAVA_25.resolveSibling("jstack").toString(), "" + child.pid())
                .redirectErrorStream(true).start();
            final String dump = new String(jstack.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            jstack.waitFor();
            throw new AssertionError(ex.getMessage() + "\nthread dump:\n" + dump, ex);
        }
    }

    private ChildJvm child(final String role) throws Exception
    {
        final List<String> command = ChildJvm.command(TruncationPeerMain.class,
            List.of("jfabric.shm.dir=" + root.dir(), "jfabric.shm.max.err.data=512"), DOMAIN, role);
        command.set(0, JAVA_25.toString());
        final ChildJvm child = ChildJvm.start(command);
        opened.keep(child);
        return child;
    }

    @Test
    void shouldReportARemovedRegionOnceAndCarryOn() throws Exception
    {
        final Path file = RegionFile.regionPath(root.dir(), DOMAIN);
        Files.delete(file);
        final EqErrEntry err = new EqErrEntry(512);
        assertEquals(Errno.FI_ENOENT, awaitEqError(eq, err));
        final String text = new String(err.errData(), 0, err.errDataSize(), StandardCharsets.UTF_8);
        assertTrue(text.contains("was removed while this process uses it"), text);

        final long[] self = new long[1];
        av.insert(new String[] { new String(ep.getname(), StandardCharsets.US_ASCII).trim() }, 1, self, 0, 0);
        assertEquals(0, ep.inject(ByteBuffer.allocateDirect(8), 0, 8, self[0]), "the mapping still works");

        try (RegionFile second = RegionFile.openOrCreate(root.dir(), DOMAIN,
            RegionGeometry.from(root.provider().config()), false))
        {
            assertTrue(second.created(), "a new open makes another region under the name");
        }
        Thread.sleep(200);
        assertEquals(-Errno.FI_EAGAIN, eq.readErr(err, 0), "reported once");
    }

    /**
     * Wait up to 5 s for an error on the event queue.
     *
     * @param eq  the queue.
     * @param err where to read it.
     * @return its err, or 0 when none came.
     * @throws InterruptedException when interrupted.
     */
    static int awaitEqError(final EventQueue eq, final EqErrEntry err) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() < deadline)
        {
            if (eq.readErr(err, 0) == 1)
            {
                return err.err();
            }
            Thread.sleep(5);
        }
        return 0;
    }

}
