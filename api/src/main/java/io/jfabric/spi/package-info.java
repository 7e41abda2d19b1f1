/**
 * The provider SPI: a provider implements {@link io.jfabric.spi.FabricProvider} and is found by
 * {@link java.util.ServiceLoader} ({@code META-INF/services/io.jfabric.spi.FabricProvider}), so
 * {@link io.jfabric.Fabrics} lists and opens it without a compile-time dependency.
 */
package io.jfabric.spi;
