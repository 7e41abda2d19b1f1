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
import io.jfabric.Domain;
import io.jfabric.DomainAttr;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.MrAttr;
import io.jfabric.MrIov;
import io.jfabric.ShareableMemory;
import io.jfabric.Versions;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.ShmTestRoot;
import io.jfabric.shm.domain.ShmDomain;
import io.jfabric.shm.mr.RemoteMemory;
import io.jfabric.testsupport.ChildJvm;
import io.jfabric.testsupport.OpenedObjects;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Issue 14 item 5: authorization keys are enforced between real processes. A receiver in a second JVM is opened
 * with a domain key, with AV keys (FI_AV_AUTH_KEY), or with none; this JVM sends with a wrong key, no key, the right
 * key (from its domain, its endpoint attributes or its AV). A sender without the receiver's key gets
 * {@code -FI_EACCES} from the call and the receiver sees nothing; one with it delivers. Issue 27: on a fabric opened
 * below API version 1.5 the keys are ignored, on either side.
 */
class AuthKeyTest
{
    private static final String DOMAIN = "keys";
    private static final int MESSAGES = 3;
    private static final int V1_4 = Versions.version(1, 4);

    private final OpenedObjects opened = new OpenedObjects();
    private ShmTestRoot root;
    private ShmProvider provider;

    @BeforeEach
    void open()
    {
        root = new ShmTestRoot();
        provider = root.provider();
    }

    @AfterEach
    void close() throws Exception
    {
        opened.close();
        root.close();
    }

    @Test
    void shouldDeliverOnlyFromSendersWithTheReceiversDomainKey() throws Exception
    {
        final ChildJvm receiver = child("key=alpha");
        final String address = receiver.awaitResult(60).get("addr");

        assertEquals(-Errno.FI_EACCES, sendAll(sender(key("beta"), null), address, null), "a wrong key");
        assertEquals(-Errno.FI_EACCES, sendAll(sender(null, null), address, null), "no key");
        assertEquals(0, received(receiver), "the receiver saw nothing");

        assertEquals(0, sendAll(sender(key("alpha"), null), address, null), "the domain's key");
        assertEquals(0, sendAll(sender(key("beta"), "alpha"), address, null), "ep_attr.auth_key over the domain's");
        assertEquals(2 * MESSAGES, received(receiver), "both delivered");
    }

    @Test
    void shouldRefuseAKeyedSenderToAReceiverWithoutAKey() throws Exception
    {
        final ChildJvm receiver = child("none");
        final String address = receiver.awaitResult(60).get("addr");

        assertEquals(-Errno.FI_EACCES, sendAll(sender(key("alpha"), null), address, null));
        assertEquals(0, sendAll(sender(null, null), address, null));
        assertEquals(MESSAGES, received(receiver));
    }

    @Test
    void shouldUseThePerAddressKeyOfAnAvAuthKeyDomain() throws Exception
    {
        final ChildJvm receiver = child("avkeys=alpha,gamma");
        final String address = receiver.awaitResult(60).get("addr");
        final Info avKeys = new Info();
        avKeys.domainAttr().name(DOMAIN).authKeySize(DomainAttr.FI_AV_AUTH_KEY);

        assertEquals(-Errno.FI_EACCES, sendAll(sender(avKeys, null), address, AvKey.of("beta")), "a wrong AV key");
        assertEquals(-Errno.FI_EACCES, sendAll(sender(avKeys, null), address, null), "an address without a key");
        assertEquals(0, received(receiver));

        assertEquals(0, sendAll(sender(avKeys, null), address, AvKey.of("gamma")), "one of the receiver's keys");
        assertEquals(0, sendAll(sender(key("alpha"), null), address, null), "a domain key the receiver's AV holds");
        assertEquals(2 * MESSAGES, received(receiver));
    }

    /**
     * A memory region's key: its own (fi_mr_regattr auth_key) or its domain's. One-sided access from a domain with
     * another key gets -FI_EACCES. The accessors are other domain objects of the region: other mappings of it, as
     * another process has.
     */
    @Test
    void shouldRefuseOneSidedAccessWithAnotherKeyThanTheRegions()
    {
        final Domain owner = domain(key("alpha"));
        final ShareableMemory memory = opened.keep(owner.allocShareable(4096));
        memory.buffer().put(7, (byte)42);
        opened.keep(owner.mrRegv(new MrIov[] {MrIov.of(memory, 0, 4096)}, Flags.FI_REMOTE_READ, 0, 11, 0, 0));
        opened.keep(owner.mrRegAttr(new MrAttr().iov(new MrIov[] {MrIov.of(memory, 0, 4096)}).access(Flags.FI_REMOTE_READ)
            .requestedKey(12).authKey("beta".getBytes(StandardCharsets.US_ASCII)), 0));

        final UnsafeBuffer dst = new UnsafeBuffer(new byte[1]);
        final RemoteMemory alpha = opened.keep(((ShmDomain)domain(key("alpha"))).remoteMemory());
        final RemoteMemory beta = opened.keep(((ShmDomain)domain(key("beta"))).remoteMemory());
        final RemoteMemory none = opened.keep(((ShmDomain)domain(null)).remoteMemory());

        assertEquals(0, alpha.read(11, 7, dst, 0, 1), "the domain's key");
        assertEquals(42, dst.getByte(0));
        assertEquals(-Errno.FI_EACCES, beta.read(11, 7, dst, 0, 1), "another key");
        assertEquals(-Errno.FI_EACCES, none.read(11, 7, dst, 0, 1), "no key");
        assertEquals(0, beta.read(12, 7, dst, 0, 1), "the region's own key");
        assertEquals(-Errno.FI_EACCES, alpha.read(12, 7, dst, 0, 1), "its domain's key is not the region's");
    }

    /**
     * Issue 27, fi_domain(3) and fi_endpoint(3): the domain's and the endpoint's keys are "ignored unless the fabric
     * is opened with API version 1.5 or greater". Before, they were enforced at 1.4 too (-FI_EACCES).
     */
    @Test
    void shouldIgnoreASendersDomainAndEndpointKeysBelowApiVersion15() throws Exception
    {
        final ChildJvm receiver = child("none");
        final String address = receiver.awaitResult(60).get("addr");

        assertEquals(-Errno.FI_EACCES, sendAll(sender(key("alpha"), null), address, null), "keys count at 1.17");
        assertEquals(0, sendAll(sender(V1_4, key("alpha"), "beta"), address, null),
            "at 1.4 the domain's and the endpoint's are ignored");
        assertEquals(MESSAGES, received(receiver));
    }

    @Test
    void shouldIgnoreAReceiversDomainKeyBelowApiVersion15() throws Exception
    {
        final ChildJvm keyed = child("key=alpha");
        final ChildJvm oldKeyed = child("oldapi-key=alpha");
        final String keyedAddress = keyed.awaitResult(60).get("addr");
        final String oldAddress = oldKeyed.awaitResult(60).get("addr");

        assertEquals(-Errno.FI_EACCES, sendAll(sender(null, null), keyedAddress, null));
        assertEquals(0, sendAll(sender(null, null), oldAddress, null), "a receiver whose fabric is at 1.4 has no key");
        assertEquals(MESSAGES, received(oldKeyed));
        assertEquals(0, received(keyed));
    }

    @Test
    void shouldReturnNoKeysFromGetinfoBelowApiVersion15()
    {
        final Info hints = key("alpha");
        hints.epAttr().authKey("beta".getBytes(StandardCharsets.US_ASCII));
        final Info old = provider.getInfo(V1_4, null, null, 0, hints).get(0);
        assertNull(old.domainAttr().authKey());
        assertNull(old.epAttr().authKey());
        assertEquals(V1_4, old.fabricAttr().apiVersion());
        final Info current = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        assertEquals("alpha", new String(current.domainAttr().authKey(), StandardCharsets.US_ASCII));
        final Fabric fabric = opened.keep(provider.fabric(old.fabricAttr(), 0));
        assertEquals(V1_4, fabric.attr().apiVersion());
        assertNull(opened.keep(fabric.domain(current, 0)).attr().authKey(), "a domain of a 1.4 fabric has no key");
    }

    private Domain domain(final Info domainHints)
    {
        final Info hints = domainHints != null ? domainHints : new Info();
        if (domainHints == null)
        {
            hints.domainAttr().name(DOMAIN);
        }
        final Info info = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        final Fabric fabric = opened.keep(provider.fabric(info.fabricAttr(), 0));
        return opened.keep(fabric.domain(info, 0));
    }

    /** An AV key to insert the destination with. */
    private static final class AvKey
    {
        final byte[] key;

        private AvKey(final byte[] key)
        {
            this.key = key;
        }

        static AvKey of(final String key)
        {
            return new AvKey(key.getBytes(StandardCharsets.US_ASCII));
        }
    }

    private static Info key(final String domainKey)
    {
        final Info hints = new Info();
        hints.domainAttr().name(DOMAIN).authKey(domainKey.getBytes(StandardCharsets.US_ASCII));
        return hints;
    }

    /** A sending endpoint of a domain opened from hints (null: no key), with an endpoint key or none. */
    private Sender sender(final Info domainHints, final String endpointKey)
    {
        return sender(Versions.FI_CURRENT_VERSION, domainHints, endpointKey);
    }

    /** {@link #sender(Info, String)} with getinfo and the fabric at {@code version}. */
    private Sender sender(final int version, final Info domainHints, final String endpointKey)
    {
        final Info hints = domainHints != null ? domainHints : new Info();
        if (domainHints == null)
        {
            hints.domainAttr().name(DOMAIN);
        }
        final Info info = provider.getInfo(version, null, null, 0, hints).get(0);
        if (endpointKey != null)
        {
            info.epAttr().authKey(endpointKey.getBytes(StandardCharsets.US_ASCII));
        }
        final Fabric fabric = opened.keep(provider.fabric(info.fabricAttr(), 0));
        final Domain domain = opened.keep(fabric.domain(info, 0));
        final AddressVector av = opened.keep(domain.avOpen(new AvAttr(), 0));
        final CompletionQueue cq = opened.keep(domain.cqOpen(new CqAttr(), 0));
        final Endpoint ep = opened.keep(domain.endpoint(info, 0));
        ep.bind(av, 0);
        ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
        ep.enable();
        return new Sender(av, ep);
    }

    private static final class Sender
    {
        final AddressVector av;
        final Endpoint ep;

        Sender(final AddressVector av, final Endpoint ep)
        {
            this.av = av;
            this.ep = ep;
        }
    }

    /** Insert the receiver (with an AV key when given) and inject MESSAGES; the first failure, else 0. */
    private static long sendAll(final Sender sender, final String address, final AvKey avKey)
    {
        final long[] out = new long[1];
        if (avKey != null)
        {
            final long handle = sender.av.insertAuthKey(avKey.key, 0);
            out[0] = handle;
            sender.av.insert(new String[] {address}, 1, out, Flags.FI_AUTH_KEY, 0);
        }
        else
        {
            sender.av.insert(new String[] {address}, 1, out, 0, 0);
        }
        final ByteBuffer buf = ByteBuffer.allocateDirect(32);
        for (int i = 0; i < MESSAGES; i++)
        {
            long rc;
            while ((rc = sender.ep.inject(buf, 0, 32, out[0])) == -Errno.FI_EAGAIN)
            {
                Thread.onSpinWait();
            }
            if (rc != 0)
            {
                return rc;
            }
        }
        return 0;
    }

    private static int received(final ChildJvm receiver) throws Exception
    {
        receiver.tell("count 300");
        return Integer.parseInt(receiver.awaitResult(60).get("received"));
    }

    private ChildJvm child(final String mode) throws Exception
    {
        final ChildJvm child = ChildJvm.start(AuthPeerMain.class, List.of("jfabric.shm.dir=" + root.dir()), DOMAIN,
            mode);
        opened.keep(child);
        return child;
    }

}
