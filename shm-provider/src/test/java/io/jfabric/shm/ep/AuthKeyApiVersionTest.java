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
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Versions;
import io.jfabric.shm.ChildJvm;
import io.jfabric.shm.OpenedObjects;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.ShmTestRoot;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Issue 27, fi_domain(3) and fi_endpoint(3): the domain's and the endpoint's authorization keys are "ignored unless
 * the fabric is opened with API version 1.5 or greater". A fabric opened at 1.4 with a domain key (and an endpoint
 * key) talks to a keyless endpoint of a second JVM, in both directions; at the current version the same keys keep
 * them apart. Before the fix the keys were enforced at 1.4 too (-FI_EACCES).
 */
class AuthKeyApiVersionTest
{
    private static final String DOMAIN = "oldapi";
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
    void shouldIgnoreASendersDomainAndEndpointKeysBelowApiVersion15() throws Exception
    {
        final ChildJvm receiver = child("none");
        final String address = receiver.awaitResult(60).get("addr");

        assertEquals(-Errno.FI_EACCES, send(Versions.FI_CURRENT_VERSION, "alpha", null, address),
            "at the current version the keys count");
        assertEquals(0, send(V1_4, "alpha", "beta", address), "at 1.4 the domain's and the endpoint's are ignored");
        assertEquals(3, received(receiver));
    }

    @Test
    void shouldIgnoreAReceiversDomainKeyBelowApiVersion15() throws Exception
    {
        final ChildJvm keyed = child("key=alpha");
        final ChildJvm oldKeyed = child("oldapi-key=alpha");
        final String keyedAddress = keyed.awaitResult(60).get("addr");
        final String oldAddress = oldKeyed.awaitResult(60).get("addr");

        assertEquals(-Errno.FI_EACCES, send(Versions.FI_CURRENT_VERSION, null, null, keyedAddress));
        assertEquals(0, send(Versions.FI_CURRENT_VERSION, null, null, oldAddress),
            "a receiver whose fabric is at 1.4 has no key");
        assertEquals(3, received(oldKeyed));
        assertEquals(0, received(keyed));
    }

    @Test
    void shouldReturnNoKeysFromGetinfoBelowApiVersion15()
    {
        final Info hints = new Info();
        hints.domainAttr().name(DOMAIN).authKey(key("alpha"));
        hints.epAttr().authKey(key("beta"));
        final Info old = provider.getInfo(V1_4, null, null, 0, hints).get(0);
        assertNull(old.domainAttr().authKey());
        assertNull(old.epAttr().authKey());
        assertEquals(V1_4, old.fabricAttr().apiVersion());
        final Info current = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        assertEquals("alpha", new String(current.domainAttr().authKey(), StandardCharsets.US_ASCII));
    }

    /** A sender in this JVM at {@code version} with the keys given (null: none) injects 3 messages; 0 or the error. */
    private long send(final int version, final String domainKey, final String endpointKey, final String address)
    {
        final Info hints = new Info();
        hints.domainAttr().name(DOMAIN).authKey(domainKey == null ? null : key(domainKey));
        final Info info = provider.getInfo(version, null, null, 0, hints).get(0);
        if (endpointKey != null)
        {
            info.epAttr().authKey(key(endpointKey));
        }
        final Fabric fabric = opened.keep(provider.fabric(info.fabricAttr(), 0));
        assertEquals(version, fabric.attr().apiVersion());
        final Domain domain = opened.keep(fabric.domain(info, 0));
        final AddressVector av = opened.keep(domain.avOpen(new AvAttr(), 0));
        final CompletionQueue cq = opened.keep(domain.cqOpen(new CqAttr(), 0));
        final Endpoint ep = opened.keep(domain.endpoint(info, 0));
        ep.bind(av, 0);
        ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
        ep.enable();
        final long[] out = new long[1];
        assertEquals(1, av.insert(new String[] {address}, 1, out, 0, 0));
        final ByteBuffer buf = ByteBuffer.allocateDirect(32);
        for (int i = 0; i < 3; i++)
        {
            long rc;
            while ((rc = ep.inject(buf, 0, 32, out[0])) == -Errno.FI_EAGAIN)
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
        return opened.keep(ChildJvm.start(AuthPeerMain.class, List.of("jfabric.shm.dir=" + root.dir()), DOMAIN,
            mode));
    }

    private static byte[] key(final String text)
    {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
