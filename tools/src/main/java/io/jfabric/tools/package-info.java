/**
 * The {@code jfabric} command line ({@link io.jfabric.tools.JfabricMain}): {@code info}, {@code strerror},
 * {@code pingpong}, {@code clean}, {@code stat} and {@code dump}; run by {@code bin/jfabric}.
 */
package io.jfabric.tools;
