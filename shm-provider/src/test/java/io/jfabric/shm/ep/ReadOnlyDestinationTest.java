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
package io.jfabric.shm.ep;

import io.jfabric.AddressVector;
import io.jfabric.AvAttr;
import io.jfabric.CompletionQueue;
import io.jfabric.CqAttr;
import io.jfabric.CqFormat;
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Versions;
import io.jfabric.shm.ChildJvm;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.ShmTestRoot;
import io.jfabric.shm.mr.RemoteMemory;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Issue 26 item 2: every call that writes into a local buffer refuses a read-only one with -FI_EINVAL, as a receive
 * does, on the one-sided path (the target's shareable region) and the emulated one (its heap region), the target
 * being a second JVM ({@link EmulatedPeerMain}). A {@code READ_ONLY} file mapping is tried in a third JVM
 * ({@link ReadOnlyInitiatorMain}), since writing into one kills the JVM with SIGSEGV: it must end normally. Views made
 * with {@link ByteBuffer#asReadOnlyBuffer()} are tried here: the memory behind them must stay untouched.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReadOnlyDestinationTest
{
    private static final String DOMAIN = "rodest";
    private static final long HEAP_KEY = 7;
    private static final long SHARED_KEY = 11;

    private ShmTestRoot root;
    private Fabric fabric;
    private Domain domain;
    private AddressVector av;
    private CompletionQueue cq;
    private Endpoint ep;
    private ChildJvm target;
    private String targetAddress;
    private long peer;
    private long heapBase;
    private long sharedBase;

    @BeforeAll
    void start() throws Exception
    {
        root = new ShmTestRoot();
        final ShmProvider provider = root.provider();
        final Info hints = new Info();
        hints.domainAttr().name(DOMAIN);
        hints.caps(Flags.FI_MSG | Flags.FI_RMA | Flags.FI_ATOMIC);
        final Info info = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        fabric = provider.fabric(info.fabricAttr(), 0);
        domain = fabric.domain(info, 0);
        target = ChildJvm.start(EmulatedPeerMain.class, List.of("jfabric.shm.dir=" + root.dir()), DOMAIN, "65536",
            "running");
        final Map<String, String> hello = target.awaitResult(60);
        targetAddress = hello.get("addr");
        heapBase = Long.parseLong(hello.get("base"));
        sharedBase = Long.parseLong(hello.get("sbase"));
        av = domain.avOpen(new AvAttr(), 0);
        cq = domain.cqOpen(new CqAttr().format(CqFormat.DATA), 0);
        ep = domain.endpoint(info, 0);
        ep.bind(av, 0);
        ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
        ep.enable();
        final long[] out = new long[1];
        assertEquals(1, av.insert(new String[] {targetAddress}, 1, out, 0, 0));
        peer = out[0];
        target.tell("fill 5");
        assertEquals("5", target.awaitResult(30).get("filled"));
        final ByteBuffer pattern = ByteBuffer.allocateDirect(64);
        for (int i = 0; i < 64; i++)
        {
            pattern.put(i, (byte)(i + 1));
        }
        assertEquals(0, ep.write(pattern, 0, 64, 0, peer, sharedBase, SHARED_KEY, 9));
        assertEquals(Flags.FI_RMA | Flags.FI_WRITE, CqWait.next(cq), "the shareable region holds no zero byte");
    }

    @AfterAll
    void stop() throws Exception
    {
        try
        {
            target.tell("exit");
            target.awaitSuccess(30);
        }
        finally
        {
            for (final AutoCloseable c : new AutoCloseable[] {ep, cq, av})
            {
                if (c != null)
                {
                    c.close();
                }
            }
            TwoJvmEndpointTestBase.closeDomain(domain, fabric, root);
        }
    }

    @Test
    void shouldRefuseAReadOnlyHeapViewOnBothPathsAndLeaveItsMemoryUntouched()
    {
        final ByteBuffer memory = ByteBuffer.allocate(64);
        assertRefusedAndUntouched(memory.asReadOnlyBuffer(), memory);
    }

    @Test
    void shouldRefuseAReadOnlyDirectViewOnBothPathsAndLeaveItsMemoryUntouched()
    {
        final ByteBuffer memory = ByteBuffer.allocateDirect(64);
        assertRefusedAndUntouched(memory.asReadOnlyBuffer(), memory);
    }

    private void assertRefusedAndUntouched(final ByteBuffer readOnly, final ByteBuffer memory)
    {
        for (final Map.Entry<String, Long> call : calls(readOnly).entrySet())
        {
            assertEquals(-Errno.FI_EINVAL, call.getValue(), call.getKey());
        }
        assertEquals(0, ReadOnlyInitiatorMain.drain(cq, 300), "nothing was issued, so nothing completes");
        for (int i = 0; i < memory.capacity(); i++)
        {
            assertEquals(0, memory.get(i), "byte " + i + " behind the read-only view");
        }
    }

    private Map<String, Long> calls(final ByteBuffer readOnly)
    {
        final Map<String, Long> rc = ReadOnlyInitiatorMain.callAll(ep, readOnly, peer, sharedBase, SHARED_KEY,
            "shared");
        rc.putAll(ReadOnlyInitiatorMain.callAll(ep, readOnly, peer, heapBase, HEAP_KEY, "heap"));
        return rc;
    }

    @Test
    void shouldRefuseAReadOnlyFileMappingInEveryCallFormAndKeepTheJvmAlive() throws Exception
    {
        final ChildJvm initiator = ChildJvm.start(ReadOnlyInitiatorMain.class,
            List.of("jfabric.shm.dir=" + root.dir()), DOMAIN, targetAddress, "" + SHARED_KEY, "" + sharedBase,
            "" + HEAP_KEY, "" + heapBase, root.dir().resolve("read-only-mapping").toString());
        try (initiator)
        {
            final Map<String, String> rc = initiator.awaitResult(60);
            assertEquals(20, rc.size(), "every call form, both paths: " + rc);
            for (final Map.Entry<String, String> call : rc.entrySet())
            {
                assertEquals("" + -Errno.FI_EINVAL, call.getValue(), call.getKey());
            }
            assertEquals("0", initiator.awaitResult(30).get("completions"), "nothing was issued");
            final String transcript = initiator.awaitSuccess(30);
            assertFalse(transcript.contains("SIGSEGV"), transcript);
        }
    }

    @Test
    void shouldRefuseAReadOnlyDestinationInTheApplicationsRemoteMemoryView()
    {
        try (RemoteMemory view = ((io.jfabric.shm.ShmDomain)domain).remoteMemory())
        {
            final ByteBuffer memory = ByteBuffer.allocateDirect(16);
            assertEquals(-Errno.FI_EINVAL,
                view.read(SHARED_KEY, sharedBase, new UnsafeBuffer(memory.asReadOnlyBuffer()), 0, 16));
            assertEquals(0, memory.getLong(0));
            assertEquals(0, view.read(SHARED_KEY, sharedBase, new UnsafeBuffer(memory), 0, 16), "a writable one");
        }
    }
}
