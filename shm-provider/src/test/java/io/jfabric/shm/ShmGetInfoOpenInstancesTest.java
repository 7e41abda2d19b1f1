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
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.FabricException;
import io.jfabric.Info;
import io.jfabric.Progress;
import io.jfabric.Threading;
import io.jfabric.Versions;
import io.jfabric.shm.domain.ShmDomain;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 15, row 2: getinfo and open instances (fi_domain(3) {@code domain_attr.domain}, fi_fabric(3)
 * {@code fabric_attr.fabric}). On input a set field restricts the output to that open instance, its name and
 * attributes; on output the field references the first opened instance of the named domain or fabric; fi_domain
 * ignores the field, so the info of an open domain opens a new domain with the same attributes.
 */
class ShmGetInfoOpenInstancesTest
{
    private static final int VERSION = Versions.FI_CURRENT_VERSION;

    private ShmTestRoot root;
    private ShmProvider provider;
    private Fabric fabric;

    @BeforeEach
    void setUp()
    {
        root = new ShmTestRoot();
        provider = root.provider(key -> "ep.count".equals(key) ? "8" : null);
        fabric = provider.fabric(provider.getInfo(VERSION, null, null, 0, null).get(0).fabricAttr(), 0);
    }

    @AfterEach
    void tearDown()
    {
        fabric.close();
        root.close();
    }

    private List<Info> getInfo(final Info hints)
    {
        return provider.getInfo(VERSION, null, null, 0, hints);
    }

    private Info named(final String name)
    {
        final Info hints = new Info();
        hints.domainAttr().name(name);
        return hints;
    }

    private Info info(final String name)
    {
        return getInfo(named(name)).get(0);
    }

    private static void assertNoData(final Executable call, final String... fragments)
    {
        final FabricException ex = assertThrows(FabricException.class, call);
        assertEquals(Errno.FI_ENODATA, ex.errno(), ex::getMessage);
        for (final String fragment : fragments)
        {
            assertTrue(ex.getMessage().contains(fragment), () -> "message should name '" + fragment + "': " +
                ex.getMessage());
        }
    }

    @Test
    void shouldReferenceNoInstanceWhenNoneIsOpen()
    {
        fabric.close();
        for (final Info info : getInfo(named("orders")))
        {
            assertNull(info.domainAttr().domain());
            assertNull(info.fabricAttr().fabric());
        }
    }

    @Test
    void shouldReferenceTheFirstOpenedDomainOfTheNameAndTheOpenFabricOnOutput()
    {
        for (final Info info : getInfo(named("orders")))
        {
            assertNull(info.domainAttr().domain(), "no domain 'orders' is open yet");
            assertSame(fabric, info.fabricAttr().fabric());
        }
        try (Domain first = fabric.domain(info("orders"), 0))
        {
            try (Domain second = fabric.domain(info("orders"), 0))
            {
                final List<Info> infos = getInfo(named("orders"));
                assertEquals(2, infos.size());
                for (final Info info : infos)
                {
                    assertSame(first, info.domainAttr().domain());
                    assertSame(fabric, info.fabricAttr().fabric());
                }
                for (final Info info : getInfo(named("other")))
                {
                    assertNull(info.domainAttr().domain(), "'other' is not open");
                    assertSame(fabric, info.fabricAttr().fabric());
                }
                first.close();
                assertSame(second, info("orders").domainAttr().domain(), "the first one still open");
            }
            assertNull(info("orders").domainAttr().domain());
        }
    }

    @Test
    void shouldRestrictTheOutputToTheOpenDomainInTheHints()
    {
        final Info asked = info("orders");
        asked.domainAttr().threading(Threading.DOMAIN).dataProgress(Progress.AUTO).epCnt(2).cqCnt(3);
        try (Domain domain = fabric.domain(asked, 0))
        {
            final Info hints = new Info();
            hints.domainAttr().domain(domain);
            final List<Info> infos = getInfo(hints);
            assertEquals(1, infos.size(), "restricted to the domain: its data progress only");
            final Info info = infos.get(0);
            assertSame(domain, info.domainAttr().domain());
            assertSame(fabric, info.fabricAttr().fabric());
            assertEquals("orders", info.domainAttr().name(), "not the default 'shm'");
            assertEquals(Threading.DOMAIN, info.domainAttr().threading());
            assertEquals(Progress.AUTO, info.domainAttr().dataProgress());
            assertEquals(2, info.domainAttr().epCnt());
            assertEquals(3, info.domainAttr().cqCnt());
            assertEquals(domain.attr().mrMode(), info.domainAttr().mrMode());
            assertEquals(domain.attr().caps(), info.domainAttr().caps());

            hints.domainAttr().name("orders").threading(Threading.DOMAIN).epCnt(2);
            assertSame(domain, getInfo(hints).get(0).domainAttr().domain(), "agreeing hints match");
        }
    }

    @Test
    void shouldRefuseHintsThatContradictTheOpenDomainWithEnodata()
    {
        final Info asked = info("orders");
        asked.domainAttr().threading(Threading.DOMAIN).epCnt(2);
        try (Domain domain = fabric.domain(asked, 0))
        {
            final Info name = new Info();
            name.domainAttr().domain(domain).name("other");
            assertNoData(() -> getInfo(name), "domain_attr.name 'other'", "'orders'");

            final Info threading = new Info();
            threading.domainAttr().domain(domain).threading(Threading.SAFE);
            assertNoData(() -> getInfo(threading), "threading FI_THREAD_SAFE", "FI_THREAD_DOMAIN");

            final Info progress = new Info();
            progress.domainAttr().domain(domain).dataProgress(Progress.AUTO);
            assertNoData(() -> getInfo(progress), "data_progress FI_PROGRESS_AUTO", "FI_PROGRESS_MANUAL");

            final Info count = new Info();
            count.domainAttr().domain(domain).epCnt(3);
            assertNoData(() -> getInfo(count), "domain_attr.ep_cnt 3 is above the limit 2", "'orders'");
        }
    }

    @Test
    void shouldRefuseAClosedDomainOrFabricOrOneOfAnotherProviderWithEnodata()
    {
        final Domain closed = fabric.domain(info("orders"), 0);
        closed.close();
        final Info hints = new Info();
        hints.domainAttr().domain(closed);
        assertNoData(() -> getInfo(hints), "domain_attr.domain is closed");

        final ShmProvider other = root.provider(key -> "ep.count".equals(key) ? "8" : null);
        try (Fabric otherFabric = other.fabric(info("orders").fabricAttr(), 0);
            Domain foreign = otherFabric.domain(info("orders"), 0))
        {
            final Info foreignDomain = new Info();
            foreignDomain.domainAttr().domain(foreign);
            assertNoData(() -> getInfo(foreignDomain), "domain_attr.domain is not a domain of this shm provider");
            final Info foreignFabric = new Info();
            foreignFabric.fabricAttr().fabric(otherFabric);
            assertNoData(() -> getInfo(foreignFabric), "fabric_attr.fabric is not a fabric of this shm provider");
        }

        final Fabric closedFabric = provider.fabric(info("orders").fabricAttr(), 0);
        closedFabric.close();
        final Info fabricHints = new Info();
        fabricHints.fabricAttr().fabric(closedFabric);
        assertNoData(() -> getInfo(fabricHints), "fabric_attr.fabric is closed");
    }

    @Test
    void shouldRestrictTheOutputToTheOpenFabricInTheHints()
    {
        try (Domain onFirst = fabric.domain(info("orders"), 0);
            Fabric second = provider.fabric(info("orders").fabricAttr(), 0))
        {
            final Info hints = named("orders");
            hints.fabricAttr().fabric(second);
            for (final Info info : getInfo(hints))
            {
                assertSame(second, info.fabricAttr().fabric());
                assertNull(info.domainAttr().domain(), "'orders' is open only from the first fabric");
            }
            try (Domain onSecond = second.domain(info("orders"), 0))
            {
                for (final Info info : getInfo(hints))
                {
                    assertSame(second, info.fabricAttr().fabric());
                    assertSame(onSecond, info.domainAttr().domain());
                }
                final Info mixed = new Info();
                mixed.fabricAttr().fabric(second);
                mixed.domainAttr().domain(onFirst);
                assertNoData(() -> getInfo(mixed), "opened from another fabric than fabric_attr.fabric");
            }
            for (final Info info : getInfo(named("orders")))
            {
                assertSame(onFirst, info.domainAttr().domain(), "without a fabric hint: the first opened");
                assertSame(fabric, info.fabricAttr().fabric());
            }
        }
    }

    @Test
    void shouldOpenANewDomainWithTheSameAttributesFromAnOpenDomainsInfo()
    {
        final Info asked = info("orders");
        asked.domainAttr().threading(Threading.COMPLETION).epCnt(3);
        try (Domain domain = fabric.domain(asked, 0);
            Domain again = fabric.domain(domain.info(), 0))
        {
            assertNotSame(domain, again);
            assertSame(again, again.attr().domain());
            assertSame(again, again.info().domainAttr().domain());
            assertEquals("orders", again.attr().name());
            assertEquals(Threading.COMPLETION, again.attr().threading());
            assertEquals(domain.attr().dataProgress(), again.attr().dataProgress());
            assertEquals(domain.attr().mrMode(), again.attr().mrMode());
            assertEquals(3, again.attr().epCnt());
            assertEquals(2, ((ShmDomain)again).region().attachCount(), "the same region, opened twice");
        }
    }

    @Test
    void shouldOpenADomainFromAGetinfoOutputThatReferencesAnOpenDomain()
    {
        try (Domain domain = fabric.domain(info("orders"), 0))
        {
            final Info referencing = info("orders");
            assertSame(domain, referencing.domainAttr().domain());
            try (Domain again = fabric.domain(referencing, 0))
            {
                assertNotSame(domain, again);
                assertEquals("orders", again.attr().name());
            }
        }
    }
}
