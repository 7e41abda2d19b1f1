/**
 * The domain region file and the rules every shared file follows: created complete in a temporary file and linked
 * under its name, validated before use ({@link io.jfabric.shm.region.RegionDescriptor} draws the layout), owned by
 * process identities (pid and start time) recorded in its user table, trusted only in a root directory this user
 * owns, and watched while open for truncation or removal ({@link io.jfabric.shm.region.RegionWatch}).
 */
package io.jfabric.shm.region;
