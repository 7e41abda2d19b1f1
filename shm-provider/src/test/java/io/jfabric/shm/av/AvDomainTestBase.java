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
package io.jfabric.shm.av;

import io.jfabric.Domain;
import io.jfabric.Fabric;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.ShmTestRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * A test root, provider, fabric and open domain "orders" per test (and, on demand, a second open of it with
 * FI_AV_AUTH_KEY), for the AV tests; closed after each. Test thread only.
 */
abstract class AvDomainTestBase
{
    static final String DOMAIN = "orders";

    ShmTestRoot root;
    ShmProvider provider;
    Fabric fabric;
    Domain domain;
    private Domain keyed;

    /** @return the ep.count setting: the region's slots. */
    abstract String epCount();

    @BeforeEach
    void openDomain()
    {
        root = new ShmTestRoot();
        provider = root.provider(key -> "ep.count".equals(key) ? epCount() : null);
        fabric = provider.fabric(AvTestSupport.info(provider, DOMAIN).fabricAttr(), 0);
        domain = fabric.domain(AvTestSupport.info(provider, DOMAIN), 0);
    }

    /** @return a second open of the test domain, with auth_key_size FI_AV_AUTH_KEY; closed after the test. */
    Domain keyedDomain()
    {
        if (keyed == null)
        {
            keyed = fabric.domain(AvTestSupport.keyedInfo(provider, DOMAIN), 0);
        }
        return keyed;
    }

    @AfterEach
    void closeDomain()
    {
        try
        {
            if (keyed != null)
            {
                keyed.close();
            }
            domain.close();
            fabric.close();
        }
        finally
        {
            root.close(); // Even when a test left an AV open: its region files must not stay in /dev/shm.
        }
    }
}
