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
import io.jfabric.AtomicDatatype;
import io.jfabric.AtomicOp;
import io.jfabric.AvAttr;
import io.jfabric.CompletionQueue;
import io.jfabric.CqAttr;
import io.jfabric.CqFormat;
import io.jfabric.Domain;
import io.jfabric.DomainAttr;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.FabricException;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.MrAttr;
import io.jfabric.MrIov;
import io.jfabric.Versions;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.ShmTestRoot;
import io.jfabric.testsupport.ChildJvm;
import io.jfabric.testsupport.OpenedObjects;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Issue 27: one-sided RMA and atomics present the key the endpoint's messages use (fi_domain(3): only endpoints
 * programmed with the same key may access a region): its {@code ep_attr.auth_key}, else its domain's, and under
 * FI_AV_AUTH_KEY the key the destination fi_addr was inserted with; never simply the initiator's domain key. The
 * target is a second JVM ({@link KeyedRegionsPeerMain}) whose regions carry their own keys, on the one-sided path
 * (shareable memory) and the emulated one (heap memory; its endpoint takes alpha's messages).
 */
class OneSidedAuthKeyTest
{
    private static final String DOMAIN = "rmakeys";
    private static final long ALPHA = 21;
    private static final long BETA = 22;
    private static final long ALPHA_LOCAL = 23;
    private static final long NONE = 25;

    private final OpenedObjects opened = new OpenedObjects();
    private ShmTestRoot root;
    private ShmProvider provider;
    private ChildJvm target;
    private Map<String, String> regions;

    @BeforeEach
    void open()
    {
        root = new ShmTestRoot();
        provider = root.provider();
    }

    /** Start the target: its regions keyed by bytes ({@code bytes}) or from its AV ({@code av}, FI_AV_AUTH_KEY). */
    private void target(final String mode) throws Exception
    {
        target = opened.keep(ChildJvm.start(KeyedRegionsPeerMain.class, List.of("jfabric.shm.dir=" + root.dir()),
            DOMAIN, mode));
        regions = target.awaitResult(60);
    }

    @AfterEach
    void close() throws Exception
    {
        try
        {
            if (target != null)
            {
                target.tell("exit");
                target.awaitSuccess(30);
            }
        }
        finally
        {
            opened.close();
            root.close();
        }
    }

    @Test
    void shouldPresentTheEndpointsKeyInADomainWithoutOne() throws Exception
    {
        target("bytes");
        final Initiator alpha = initiator(hints(null), "alpha", null);
        assertEquals(0, alpha.write(ALPHA, 1), "its alpha region (one-sided)");
        assertEquals(1, valueAt(ALPHA));
        assertEquals(0, alpha.fetchAdd(ALPHA, 8), "an atomic on it");
        assertEquals(0, alpha.write(ALPHA_LOCAL, 2), "its alpha region (emulated)");
        assertEquals(2, valueAt(ALPHA_LOCAL));
        assertEquals(-Errno.FI_EACCES, alpha.write(BETA, 3), "a beta region");
        assertEquals(-Errno.FI_EACCES, alpha.write(NONE, 3), "a region without a key");
        assertEquals(0, valueAt(BETA));
    }

    @Test
    void shouldPresentTheEndpointsKeyOverItsDomainsKey() throws Exception
    {
        target("bytes");
        final Initiator alphaInBeta = initiator(hints("beta"), "alpha", null);
        assertEquals(-Errno.FI_EACCES, alphaInBeta.write(BETA, 4), "its domain's key is not the endpoint's");
        assertEquals(0, valueAt(BETA));
        assertEquals(-Errno.FI_EACCES, alphaInBeta.fetchAdd(BETA, 8), "nor for an atomic");
        assertEquals(0, alphaInBeta.write(ALPHA, 5), "the endpoint's own key");
        assertEquals(5, valueAt(ALPHA));

        final Initiator beta = initiator(hints("beta"), null, null);
        assertEquals(0, beta.write(BETA, 6), "without ep_attr.auth_key, the domain's key");
        assertEquals(6, valueAt(BETA));
    }

    @Test
    void shouldPresentTheKeyTheAddressWasInsertedWithUnderAvAuthKey() throws Exception
    {
        target("bytes");
        final Info avKeys = hints(null);
        avKeys.domainAttr().authKeySize(DomainAttr.FI_AV_AUTH_KEY);
        final Initiator keyed = initiator(avKeys, null, "alpha");
        assertEquals(0, keyed.write(ALPHA, 7), "the address's key");
        assertEquals(7, valueAt(ALPHA));
        assertEquals(0, keyed.write(ALPHA_LOCAL, 8), "emulated");
        assertEquals(8, valueAt(ALPHA_LOCAL));
        assertEquals(-Errno.FI_EACCES, keyed.write(BETA, 9), "another key's region");

        final Initiator keyless = initiator(avKeys, null, null);
        assertEquals(-Errno.FI_EACCES, keyless.write(ALPHA, 10), "an address inserted without a key");
        assertEquals(0, keyless.write(NONE, 11), "presents none, as its messages do");
        assertEquals(11, valueAt(NONE));
    }

    /**
     * fi_mr(3) with FI_AV_AUTH_KEY: the target's regions take keys from its AV (fi_mr_auth_key with FI_AUTH_KEY and
     * a key handle, or an address and its key), and only initiators presenting that key reach them; an initiator
     * without a key no longer writes them.
     */
    @Test
    void shouldKeyTheRegionsOfAnAvAuthKeyDomainFromItsAv() throws Exception
    {
        target("av");
        final Info avKeys = hints(null);
        avKeys.domainAttr().authKeySize(DomainAttr.FI_AV_AUTH_KEY);
        final Initiator alpha = initiator(avKeys, null, "alpha");
        assertEquals(0, alpha.write(ALPHA, 12), "the region keyed with the alpha handle (one-sided)");
        assertEquals(12, valueAt(ALPHA));
        assertEquals(0, alpha.write(ALPHA_LOCAL, 13), "emulated");
        assertEquals(13, valueAt(ALPHA_LOCAL));
        assertEquals(0, alpha.write(NONE, 14), "the region keyed with an address inserted with alpha");
        assertEquals(14, valueAt(NONE));
        assertEquals(-Errno.FI_EACCES, alpha.write(BETA, 15), "the beta region");
        assertEquals(-Errno.FI_EACCES, alpha.write(BETA + 2, 15), "the beta region (emulated)");

        final Initiator beta = initiator(avKeys, null, "beta");
        assertEquals(0, beta.write(BETA, 16));
        assertEquals(16, valueAt(BETA));
        assertEquals(-Errno.FI_EACCES, beta.write(NONE, 17));

        final Initiator keyless = initiator(hints(null), null, null);
        assertEquals(-Errno.FI_EACCES, keyless.write(ALPHA, 18), "a domain without keys");
        assertEquals(-Errno.FI_EACCES, keyless.write(NONE, 18));
        assertEquals(12, valueAt(ALPHA));
    }

    @Test
    void shouldRefuseARegistrationWithoutAKeyFromTheAvInAnAvAuthKeyDomain()
    {
        final Info avKeys = hints(null);
        avKeys.domainAttr().authKeySize(DomainAttr.FI_AV_AUTH_KEY);
        final Info info = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, avKeys).get(0);
        final Domain domain = opened.keep(opened.keep(provider.fabric(info.fabricAttr(), 0)).domain(info, 0));
        final AddressVector av = opened.keep(domain.avOpen(new AvAttr(), 0));
        final long alpha = av.insertAuthKey("alpha".getBytes(StandardCharsets.US_ASCII), 0);
        final ByteBuffer heap = ByteBuffer.allocate(64);

        assertEquals(Errno.FI_EINVAL, refused(() -> domain.mrReg(heap, Flags.FI_REMOTE_WRITE, 0, 1, 0, 0)),
            "remote access needs a key");
        opened.keep(domain.mrReg(heap, Flags.FI_SEND, 0, 2, 0, 0)); // local access needs none
        assertEquals(Errno.FI_EINVAL, refused(() -> domain.mrRegAttr(new MrAttr().iov(MrIov.of(heap))
            .access(Flags.FI_REMOTE_READ).requestedKey(3).authKey("alpha".getBytes(StandardCharsets.US_ASCII)), 0)),
            "key bytes");
        assertEquals(Errno.FI_EINVAL, refused(() -> domain.mrRegAttr(new MrAttr().iov(MrIov.of(heap))
            .access(Flags.FI_REMOTE_READ).requestedKey(4).authKey(av, alpha), 0)),
            "a key handle without FI_AUTH_KEY names no address");
        assertEquals(Errno.FI_EINVAL, refused(() -> domain.mrRegAttr(new MrAttr().iov(MrIov.of(heap))
            .access(Flags.FI_REMOTE_READ).requestedKey(5).authKey(av, alpha + 1), Flags.FI_AUTH_KEY)),
            "FI_AUTH_KEY with an fi_addr that is no key handle");
        opened.keep(domain.mrRegAttr(new MrAttr().iov(MrIov.of(heap)).access(Flags.FI_REMOTE_READ).requestedKey(6)
            .authKey(av, alpha), Flags.FI_AUTH_KEY));

        final Info plain = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints(null)).get(0);
        final Domain keyless = opened.keep(opened.keep(provider.fabric(plain.fabricAttr(), 0)).domain(plain, 0));
        assertEquals(Errno.FI_EBADFLAGS, refused(() -> keyless.mrRegAttr(new MrAttr().iov(MrIov.of(heap))
            .access(Flags.FI_REMOTE_READ).requestedKey(7), Flags.FI_AUTH_KEY)), "FI_AUTH_KEY needs FI_AV_AUTH_KEY");
        assertEquals(Errno.FI_EINVAL, refused(() -> keyless.mrRegAttr(new MrAttr().iov(MrIov.of(heap))
            .access(Flags.FI_REMOTE_READ).requestedKey(8).authKey(av, alpha), 0)), "so does fi_mr_auth_key");
    }

    private static int refused(final Runnable call)
    {
        return assertThrows(FabricException.class, call::run).errno();
    }

    private int valueAt(final long key) throws Exception
    {
        target.tell("byte " + key + " 0");
        return Integer.parseInt(target.awaitResult(30).get("value"));
    }

    private static Info hints(final String domainKey)
    {
        final Info hints = new Info();
        hints.domainAttr().name(DOMAIN);
        if (domainKey != null)
        {
            hints.domainAttr().authKey(domainKey.getBytes(StandardCharsets.US_ASCII));
        }
        hints.caps(Flags.FI_MSG | Flags.FI_RMA | Flags.FI_ATOMIC);
        return hints;
    }

    /**
     * An initiating endpoint.
     *
     * @param domainHints   its domain's hints.
     * @param endpointKey   its ep_attr.auth_key, or null.
     * @param addressKey    under FI_AV_AUTH_KEY, the key to insert the target with, or null for none.
     */
    private Initiator initiator(final Info domainHints, final String endpointKey, final String addressKey)
    {
        final Info info = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, domainHints).get(0);
        if (endpointKey != null)
        {
            info.epAttr().authKey(endpointKey.getBytes(StandardCharsets.US_ASCII));
        }
        final Fabric fabric = opened.keep(provider.fabric(info.fabricAttr(), 0));
        final Domain domain = opened.keep(fabric.domain(info, 0));
        final AddressVector av = opened.keep(domain.avOpen(new AvAttr(), 0));
        final CompletionQueue cq = opened.keep(domain.cqOpen(new CqAttr().format(CqFormat.DATA), 0));
        final long[] peer = new long[1];
        long flags = 0;
        if (addressKey != null)
        {
            peer[0] = av.insertAuthKey(addressKey.getBytes(StandardCharsets.US_ASCII), 0);
            flags = Flags.FI_AUTH_KEY;
        }
        final Endpoint ep = opened.keep(domain.endpoint(info, 0));
        ep.bind(av, 0);
        ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
        ep.enable();
        assertEquals(1, av.insert(new String[] {regions.get("addr")}, 1, peer, flags, 0));
        return new Initiator(ep, cq, peer[0]);
    }

    private final class Initiator
    {
        private final Endpoint ep;
        private final CompletionQueue cq;
        private final long peer;
        private final ByteBuffer buf = ByteBuffer.allocateDirect(8).order(ByteOrder.nativeOrder());

        Initiator(final Endpoint ep, final CompletionQueue cq, final long peer)
        {
            this.ep = ep;
            this.cq = cq;
            this.peer = peer;
        }

        /** Write one byte at the region's start: @return 0, or the error entry's negated errno. */
        long write(final long key, final int value)
        {
            buf.put(0, (byte)value);
            return completion(ep.write(buf, 0, 1, 0, peer, Long.parseLong(regions.get("" + key)), key, key));
        }

        /** Fetch-add 0 to the 8 bytes at {@code offset}: @return 0, or the error entry's negated errno. */
        long fetchAdd(final long key, final int offset)
        {
            final ByteBuffer operand = ByteBuffer.allocateDirect(8).order(ByteOrder.nativeOrder());
            return completion(ep.fetchAtomic(operand, 0, 1, 0, buf, 0, 0, peer,
                Long.parseLong(regions.get("" + key)) + offset, key, AtomicDatatype.UINT64, AtomicOp.SUM, key));
        }

        private long completion(final long rc)
        {
            assertEquals(0, rc, "the call");
            final long flags = CqWait.next(cq);
            return flags < 0 ? flags : 0;
        }
    }
}
