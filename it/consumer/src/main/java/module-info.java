/**
 * The consumer as a named module: it needs only the API. The shm provider is bound by the module system's service
 * binding (io.jfabric.api {@code uses} FabricProvider; the provider's jar provides it) when run on the module path.
 */
module io.jfabric.it.consumer
{
    requires io.jfabric.api;
}
