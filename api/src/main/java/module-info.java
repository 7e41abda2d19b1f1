/**
 * jfabric's public API: the libfabric object model (info and attributes, fabric, domain, event queue and the
 * objects the later providers add), libfabric's flags and error numbers, tostr, and the provider SPI.
 */
module io.jfabric.api
{
    exports io.jfabric;
    exports io.jfabric.spi;

    uses io.jfabric.spi.FabricProvider;
}
