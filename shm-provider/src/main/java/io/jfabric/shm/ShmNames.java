package io.jfabric.shm;

/**
 * The names the shm provider answers to: its provider and fabric name and its default domain. The rule for
 * named domains, whose names become file names, is {@link io.jfabric.shm.region.RegionFile#validateDomainName}.
 */
public final class ShmNames
{
    /** The provider's name ({@code prov_name}). */
    public static final String PROVIDER = "shm";

    /** The one fabric the provider offers ({@code fabric_attr.name}). */
    public static final String FABRIC = "shm";

    /** The domain getinfo returns when the hints name none. */
    public static final String DEFAULT_DOMAIN = "shm";

    private ShmNames()
    {
    }
}
