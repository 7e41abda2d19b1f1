/**
 * Files left in the shm root by processes that are gone: telling them from files in use by what each file records
 * (owners' process identities), removing them when a domain opens ({@link io.jfabric.shm.cleanup.LeftoverSweep}) and
 * for {@code jfabric clean}. Above {@code region}, {@code mr} and {@code av}, whose file formats it reads; below the
 * provider's root package.
 */
package io.jfabric.shm.cleanup;
