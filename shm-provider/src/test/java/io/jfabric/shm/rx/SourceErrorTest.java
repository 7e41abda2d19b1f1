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
package io.jfabric.shm.rx;

import io.jfabric.AddressVector;
import io.jfabric.Addresses;
import io.jfabric.AvAttr;
import io.jfabric.CompletionQueue;
import io.jfabric.CqAttr;
import io.jfabric.CqEntries;
import io.jfabric.CqErrEntry;
import io.jfabric.CqFormat;
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.FabricException;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Versions;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.ShmTestRoot;
import io.jfabric.shm.av.ShmAddress;
import io.jfabric.shm.core.LocalHost;
import io.jfabric.shm.ep.PlainSenderMain;
import io.jfabric.testsupport.ChildJvm;
import io.jfabric.testsupport.OpenedObjects;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 27, FI_SOURCE_ERR (fi_getinfo(3), fi_cq(3)): a receiver opened with FI_SOURCE | FI_SOURCE_ERR completes a
 * message from a sender its AV does not hold as an error entry with FI_EADDRNOTAVAIL whose err_data is the
 * sender's address, which fi_av_insert takes; once inserted, the sender's messages complete normally with its
 * fi_addr. The sender is a second JVM. Before, getinfo did not offer FI_SOURCE_ERR (FI_ENODATA).
 */
class SourceErrorTest
{
    private static final String DOMAIN = "srcerr";

    private final OpenedObjects opened = new OpenedObjects();
    private ShmTestRoot root;
    private ShmProvider provider;

    @BeforeEach
    void open()
    {
        root = new ShmTestRoot();
        // room for any host name's address in the error data: 128 bytes rather than the default 64
        provider = root.provider(key -> "max.err.data".equals(key) ? "128" : null);
    }

    @AfterEach
    void close() throws Exception
    {
        try
        {
            opened.close();
        }
        finally
        {
            root.close();
        }
    }

    @Test
    void shouldReportAnUnknownSendersAddressInAnErrorEntryThatFiAvInsertTakes() throws Exception
    {
        final Info info = info(DOMAIN, Flags.FI_MSG | Flags.FI_SOURCE | Flags.FI_SOURCE_ERR);
        assertEquals(Flags.FI_SOURCE_ERR, info.caps() & Flags.FI_SOURCE_ERR);
        final Domain domain = domain(info);
        final AddressVector av = opened.keep(domain.avOpen(new AvAttr(), 0));
        final CompletionQueue cq = opened.keep(domain.cqOpen(new CqAttr().format(CqFormat.DATA), 0));
        final Endpoint receiver = opened.keep(domain.endpoint(info, 0));
        receiver.bind(av, 0);
        receiver.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
        receiver.enable();
        final ChildJvm sender = opened.keep(ChildJvm.start(PlainSenderMain.class,
            List.of("jfabric.shm.dir=" + root.dir(), "jfabric.shm.max.err.data=128"), DOMAIN,
            new String(receiver.getname(), StandardCharsets.US_ASCII).trim()));
        final String senderAddress = sender.awaitResult(60).get("addr");

        final ByteBuffer buf = ByteBuffer.allocateDirect(64);
        assertEquals(0, receiver.recv(buf, 8, 32, 0, Addresses.FI_ADDR_UNSPEC, 7));
        sender.tell("send hello");
        assertEquals("0", sender.awaitResult(60).get("sent"));
        final CqEntries entries = new CqEntries(1);
        assertEquals(-Errno.FI_EAVAIL, await(cq, entries), "fi_cq_readfrom: the source is not in the AV");
        assertEquals(-Errno.FI_EAVAIL, cq.read(entries, 1), "fi_cq_read too: the entry at the head is an error");
        final CqErrEntry err = new CqErrEntry();
        assertEquals(1, cq.readErr(err, 0));
        assertEquals(Errno.FI_EADDRNOTAVAIL, err.err);
        assertEquals(7, err.opContext);
        assertEquals(Flags.FI_RECV | Flags.FI_MSG | Flags.FI_REMOTE_CQ_DATA, err.flags);
        assertEquals(5, err.len, "the data was received");
        assertEquals(42, err.data);
        assertEquals(0, err.olen);
        assertEquals("hello", text(buf, (int)err.bufOffset, 5), "bufOffset: where the message starts");
        final String reported = new String(err.errData, 0, err.errDataSize, StandardCharsets.US_ASCII);
        assertEquals(senderAddress, reported, "err_data is the sender's address");

        final long[] fiAddr = new long[1];
        assertEquals(1, av.insert(new String[] {reported}, 1, fiAddr, 0, 0));
        assertEquals(0, receiver.recv(buf, 8, 32, 0, Addresses.FI_ADDR_UNSPEC, 8));
        sender.tell("send again");
        assertEquals("0", sender.awaitResult(60).get("sent"));
        assertEquals(1, await(cq, entries), "once inserted, a successful completion");
        assertEquals(fiAddr[0], entries.srcAddr[0]);
        assertEquals(8, entries.opContext[0]);
        sender.tell("exit");
        sender.awaitSuccess(60);
    }

    @Test
    void shouldOfferFiSourceErrOnlyWhenAskedAndPairedWithFiSource()
    {
        assertEquals(0, info(DOMAIN, 0).caps() & Flags.FI_SOURCE_ERR, "it changes completions: not by default");
        assertEquals(Errno.FI_ENODATA, assertThrows(FabricException.class,
            () -> info(DOMAIN, Flags.FI_MSG | Flags.FI_SOURCE_ERR)).errno());
        final Info info = info(DOMAIN, Flags.FI_MSG | Flags.FI_SOURCE | Flags.FI_SOURCE_ERR);
        assertEquals(Flags.FI_SOURCE_ERR, info.rxAttr().caps() & Flags.FI_SOURCE_ERR);
    }

    @Test
    void shouldRefuseToEnableWhenAnAddressCouldNotFitTheErrorData()
    {
        final String longName = "d".repeat(100);
        final Info info = info(longName, Flags.FI_MSG | Flags.FI_SOURCE | Flags.FI_SOURCE_ERR);
        final Domain domain = domain(info);
        final AddressVector av = opened.keep(domain.avOpen(new AvAttr(), 0));
        final CompletionQueue cq = opened.keep(domain.cqOpen(new CqAttr(), 0));
        final Endpoint ep = opened.keep(domain.endpoint(info, 0));
        ep.bind(av, 0);
        ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
        final FabricException ex = assertThrows(FabricException.class, ep::enable);
        assertEquals(Errno.FI_EINVAL, ex.errno());
        assertTrue(ex.getMessage().contains("jfabric.shm.max.err.data"), ex.getMessage());
    }

    @Test
    void shouldFormatAddressesAsShmAddressDoes()
    {
        final Info info = info(DOMAIN, Flags.FI_MSG | Flags.FI_SOURCE | Flags.FI_SOURCE_ERR);
        final SourceErrors errors = SourceErrors.of(info, DOMAIN, 128);
        for (final int slot : new int[] {0, 7, 10, 65535})
        {
            for (final long inc : new long[] {0, 1, 9, 10, 12345, 0xFFFF_FFFFL})
            {
                final int n = errors.format(slot, inc);
                assertEquals(ShmAddress.format(LocalHost.name(), slot, DOMAIN, inc),
                    new String(errors.address(), 0, n, StandardCharsets.US_ASCII));
                assertTrue(n <= errors.maxLength());
            }
        }
    }

    private Info info(final String domainName, final long caps)
    {
        final Info hints = new Info();
        hints.domainAttr().name(domainName);
        hints.caps(caps);
        return provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
    }

    private Domain domain(final Info info)
    {
        final Fabric fabric = opened.keep(provider.fabric(info.fabricAttr(), 0));
        return opened.keep(fabric.domain(info, 0));
    }

    private static int await(final CompletionQueue cq, final CqEntries entries)
    {
        final long deadline = System.nanoTime() + 10_000_000_000L;
        int n;
        while ((n = cq.readFrom(entries, 1)) == -Errno.FI_EAGAIN && System.nanoTime() < deadline)
        {
            Thread.onSpinWait();
        }
        return n;
    }

    private static String text(final ByteBuffer buf, final int offset, final int length)
    {
        final byte[] b = new byte[length];
        buf.get(offset, b);
        return new String(b, StandardCharsets.US_ASCII);
    }
}
