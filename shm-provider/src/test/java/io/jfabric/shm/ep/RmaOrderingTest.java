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
import io.jfabric.CqEntries;
import io.jfabric.CqErrEntry;
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.MsgOrder;
import io.jfabric.Versions;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.ShmTestRoot;
import io.jfabric.testsupport.ChildJvm;
import io.jfabric.testsupport.OpenedObjects;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 27: getinfo's msg_order promises RAW, WAR and WAW (and their RMA_ forms) and max_order_raw_size,
 * max_order_war_size and max_order_waw_size say up to which size the data of those operations is ordered. They were
 * 0, which promises no data order; now they are the size one lane record carries of an emulated operation
 * ({@link io.jfabric.shm.rma.RmaOrdering}). This JVM issues, against a target in a second JVM, a write followed at once by a read of
 * the same bytes (RAW), two writes then a read (WAW), and a read followed at once by a write (WAR), without waiting
 * for a completion in between, at sizes from 1 byte to the reported size, on heap memory (the emulated path, served
 * by the target's progress agent) and on shareable memory (the one-sided path): every read sees what the order says.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RmaOrderingTest
{
    private static final String DOMAIN = "order";
    private static final long HEAP_KEY = 7;
    private static final long SHARED_KEY = 11;

    private final OpenedObjects opened = new OpenedObjects();
    private ShmTestRoot root;
    private ChildJvm target;
    private Endpoint ep;
    private CompletionQueue cq;
    private long peer;
    private long heapBase;
    private long sharedBase;
    private int orderSize;
    private ByteBuffer out;
    private ByteBuffer out2;
    private ByteBuffer in;

    @BeforeAll
    void open() throws Exception
    {
        root = new ShmTestRoot();
        final ShmProvider provider = root.provider();
        final Info hints = new Info();
        hints.domainAttr().name(DOMAIN);
        hints.caps(Flags.FI_MSG | Flags.FI_RMA);
        final Info info = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        orderSize = (int)info.epAttr().maxOrderRawSize();
        assertTrue(orderSize > 0, "a data order size: " + orderSize);
        assertEquals(orderSize, info.epAttr().maxOrderWarSize());
        assertEquals(orderSize, info.epAttr().maxOrderWawSize());
        final long promised = MsgOrder.FI_ORDER_RAW | MsgOrder.FI_ORDER_WAR | MsgOrder.FI_ORDER_WAW |
            MsgOrder.FI_ORDER_RMA_RAW | MsgOrder.FI_ORDER_RMA_WAR | MsgOrder.FI_ORDER_RMA_WAW;
        assertEquals(promised, info.txAttr().msgOrder() & promised);
        final Fabric fabric = opened.keep(provider.fabric(info.fabricAttr(), 0));
        final Domain domain = opened.keep(fabric.domain(info, 0));
        final AddressVector av = opened.keep(domain.avOpen(new AvAttr(), 0));
        cq = opened.keep(domain.cqOpen(new CqAttr(), 0));
        ep = opened.keep(domain.endpoint(info, 0));
        ep.bind(av, 0);
        ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
        ep.enable();
        assertEquals(((ShmEndpoint)ep).emulatedLimit(), orderSize, "what one emulated operation may carry");
        target = opened.keep(ChildJvm.start(OrderingPeerMain.class, List.of("jfabric.shm.dir=" + root.dir()),
            DOMAIN, Integer.toString(orderSize)));
        final Map<String, String> hello = target.awaitResult(60);
        heapBase = Long.parseLong(hello.get("base"));
        sharedBase = Long.parseLong(hello.get("sbase"));
        final long[] addr = new long[1];
        assertEquals(1, av.insert(new String[] {hello.get("addr")}, 1, addr, 0, 0));
        peer = addr[0];
        out = ByteBuffer.allocateDirect(orderSize);
        out2 = ByteBuffer.allocateDirect(orderSize);
        in = ByteBuffer.allocateDirect(orderSize);
    }

    @AfterAll
    void close() throws Exception
    {
        try
        {
            target.tell("exit");
            target.awaitSuccess(60);
            opened.close();
        }
        finally
        {
            root.close();
        }
    }

    @ParameterizedTest(name = "{0} bytes, heap memory (emulated)")
    @ValueSource(ints = {1, 8, 1000, 4096, -1})
    void shouldReadWhatWasWrittenJustBeforeOnTheEmulatedPath(final int size)
    {
        assertOrdered(size < 0 ? orderSize : size, HEAP_KEY, heapBase);
    }

    @ParameterizedTest(name = "{0} bytes, shareable memory (one-sided)")
    @ValueSource(ints = {1, 8, 1000, 4096, -1})
    void shouldReadWhatWasWrittenJustBeforeOnTheOneSidedPath(final int size)
    {
        assertOrdered(size < 0 ? orderSize : size, SHARED_KEY, sharedBase);
    }

    private void assertOrdered(final int n, final long key, final long base)
    {
        for (int round = 1; round <= 3; round++)
        {
            final byte a = (byte)(round * 16 + n);
            final byte b = (byte)(a + 1);
            final byte c = (byte)(a + 2);
            fill(out, n, a);
            // RAW: a write, then at once a read of the same bytes
            post(() -> ep.write(out, 0, n, 0, peer, base, key, 1));
            post(() -> ep.read(in, 0, n, 0, peer, base, key, 2));
            awaitCompletions(2);
            assertFilled(n, a, "RAW, round " + round);
            // WAW: two writes, then a read
            fill(out, n, b);
            fill(out2, n, c);
            post(() -> ep.write(out, 0, n, 0, peer, base, key, 3));
            post(() -> ep.write(out2, 0, n, 0, peer, base, key, 4));
            post(() -> ep.read(in, 0, n, 0, peer, base, key, 5));
            awaitCompletions(3);
            assertFilled(n, c, "WAW, round " + round);
            // WAR: a read, then at once a write of the same bytes: the read sees the bytes before the write
            fill(out, n, a);
            post(() -> ep.read(in, 0, n, 0, peer, base, key, 6));
            post(() -> ep.write(out, 0, n, 0, peer, base, key, 7));
            awaitCompletions(2);
            assertFilled(n, c, "WAR, round " + round);
        }
    }

    /** Post an operation; on -FI_EAGAIN (the fence, a full lane or CQ) retry without reading a completion. */
    private static void post(final LongSupplier op)
    {
        long rc;
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while ((rc = op.getAsLong()) == -Errno.FI_EAGAIN && System.nanoTime() < deadline)
        {
            Thread.onSpinWait();
        }
        assertEquals(0, rc, "the call");
    }

    private void awaitCompletions(final int count)
    {
        final CqEntries entries = new CqEntries(count);
        int done = 0;
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (done < count && System.nanoTime() < deadline)
        {
            final int n = cq.read(entries, count - done);
            if (n == -Errno.FI_EAVAIL)
            {
                final CqErrEntry err = new CqErrEntry();
                cq.readErr(err, 0);
                throw new AssertionError("operation " + err.opContext + " failed: " + Errno.name(err.err));
            }
            done += Math.max(0, n);
        }
        assertEquals(count, done, "completions");
    }

    private static void fill(final ByteBuffer buf, final int n, final byte value)
    {
        for (int i = 0; i < n; i++)
        {
            buf.put(i, (byte)(value + i % 3));
        }
    }

    private void assertFilled(final int n, final byte value, final String what)
    {
        for (int i = 0; i < n; i++)
        {
            if (in.get(i) != (byte)(value + i % 3))
            {
                throw new AssertionError(what + ": byte " + i + " of " + n + " is " + in.get(i) + ", not " +
                    (byte)(value + i % 3));
            }
        }
    }
}
