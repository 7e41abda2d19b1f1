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

import io.jfabric.CqFormat;
import io.jfabric.Domain;
import io.jfabric.Fabric;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Versions;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.ShmTestRoot;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInstance;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the two-JVM endpoint test classes share: one named domain under a {@link ShmTestRoot} and one
 * {@link EpPeerMain} child JVM per class (starting a JVM costs more than all of a class's tests), and per test a
 * fresh pair of endpoints, {@code local} here and endpoint 1 in the child, each in the other's AV, so that nothing a
 * failed test leaves in a ring reaches the next test.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class TwoJvmEndpointTestBase
{
    /** CQ bind flags of an endpoint that reports everything. */
    static final long BOTH = Flags.FI_TRANSMIT | Flags.FI_RECV;

    ShmTestRoot root;
    Fabric fabric;
    Domain domain;
    Info info;
    EpPeer peer;

    /** This process's endpoint of the current test. */
    EpSide local;
    /** The child's endpoint 1 as an fi_addr of {@link #local}'s AV. */
    long child;
    /** {@link #local} as an fi_addr of the child endpoint 1's AV. */
    long localAtChild;
    /** The child's endpoint 1 address. */
    String childAddr;

    private final List<EpSide> extraLocal = new ArrayList<>();
    private final List<Integer> extraChild = new ArrayList<>();

    /** @return the domain's name. */
    abstract String domainName();

    /** @return the CQ format of both endpoints of a test. */
    abstract CqFormat format();

    @BeforeAll
    void startPeer() throws Exception
    {
        root = new ShmTestRoot();
        final ShmProvider provider = root.provider();
        final Info hints = new Info();
        hints.domainAttr().name(domainName());
        info = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        fabric = provider.fabric(info.fabricAttr(), 0);
        domain = fabric.domain(info, 0);
        peer = EpPeer.start(root.dir(), domainName());
    }

    @AfterAll
    void stopPeer() throws Exception
    {
        try
        {
            if (peer != null)
            {
                peer.close();
            }
        }
        finally
        {
            closeDomain(domain, fabric, root);
        }
    }

    /**
     * Close a test's domain and fabric (either may be null) and remove its root directory whatever happens.
     *
     * @param domain the domain.
     * @param fabric the fabric.
     * @param root   the root.
     */
    static void closeDomain(final Domain domain, final Fabric fabric, final ShmTestRoot root)
    {
        try
        {
            if (domain != null)
            {
                domain.close();
            }
            if (fabric != null)
            {
                fabric.close();
            }
        }
        finally
        {
            root.close();
        }
    }

    @BeforeEach
    void openPair()
    {
        local = EpSide.open(domain, info, format(), BOTH);
        childAddr = peer.call("open id=1 format=" + format() + " bind=" + BOTH).get("addr");
        child = local.insert(childAddr);
        localAtChild = Long.parseLong(peer.call("insert id=1 addr=" + local.name).get("fi"));
    }

    @AfterEach
    void closePair()
    {
        try
        {
            peer.call("close id=1");
            for (final int id : extraChild)
            {
                peer.call("close id=" + id);
            }
        }
        finally
        {
            extraChild.clear();
            try
            {
                for (final EpSide side : extraLocal)
                {
                    side.close();
                }
            }
            finally
            {
                extraLocal.clear();
                local.close();
            }
        }
    }

    /**
     * Another endpoint in this process, closed after the test.
     *
     * @param format    its CQ format.
     * @param bindFlags its CQ bind flags.
     * @return the side.
     */
    EpSide openLocal(final CqFormat format, final long bindFlags)
    {
        return openLocal(info, format, bindFlags);
    }

    /**
     * Another endpoint in this process, opened from {@code epInfo}, closed after the test.
     *
     * @param epInfo    its info.
     * @param format    its CQ format.
     * @param bindFlags its CQ bind flags.
     * @return the side.
     */
    EpSide openLocal(final Info epInfo, final CqFormat format, final long bindFlags)
    {
        final EpSide side = EpSide.open(domain, epInfo, format, bindFlags);
        extraLocal.add(side);
        return side;
    }

    /**
     * Another endpoint in the child (ids above 1), closed after the test unless the test closes it.
     *
     * @param id its id.
     * @return its address.
     */
    String openChild(final int id)
    {
        final String addr = peer.call("open id=" + id + " format=" + format() + " bind=" + BOTH).get("addr");
        extraChild.add(id);
        return addr;
    }

    /**
     * Close a child endpoint {@link #openChild} opened.
     *
     * @param id its id.
     */
    void closeChild(final int id)
    {
        peer.call("close id=" + id);
        extraChild.remove(Integer.valueOf(id));
    }

    /**
     * Run a child command while progressing {@link #local}.
     *
     * @param command the command.
     * @return its answer.
     */
    Map<String, String> child(final String command)
    {
        return peer.call(command, local);
    }
}
