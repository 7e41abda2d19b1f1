package io.jfabric.shm.av;

import io.jfabric.Domain;
import io.jfabric.Fabric;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.ShmTestRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * A test root, provider, fabric and open domain "orders" per test, for the AV tests; closed after each. Test thread
 * only.
 */
abstract class AvDomainTestBase
{
    static final String DOMAIN = "orders";

    ShmTestRoot root;
    ShmProvider provider;
    Fabric fabric;
    Domain domain;

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

    @AfterEach
    void closeDomain()
    {
        try
        {
            domain.close();
            fabric.close();
        }
        finally
        {
            root.close(); // Even when a test left an AV open: its region files must not stay in /dev/shm.
        }
    }
}
