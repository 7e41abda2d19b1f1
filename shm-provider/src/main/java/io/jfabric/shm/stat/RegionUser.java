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
package io.jfabric.shm.stat;

import io.jfabric.shm.core.ProcessIdentity;

/**
 * One entry of a domain region's user table as sampled: a process that opened the region (one entry per open
 * domain object) and whether it was alive when sampled. Immutable; any thread.
 */
public final class RegionUser
{
    private final int entry;
    private final long identity;
    private final boolean alive;

    /**
     * @param entry    the user table entry.
     * @param identity the {@link ProcessIdentity} it holds.
     * @param alive    whether that process was alive when sampled.
     */
    public RegionUser(final int entry, final long identity, final boolean alive)
    {
        this.entry = entry;
        this.identity = identity;
        this.alive = alive;
    }

    /** @return the user table entry. */
    public int entry()
    {
        return entry;
    }

    /** @return the process's {@link ProcessIdentity}: pid and start time. */
    public long identity()
    {
        return identity;
    }

    /** @return its pid. */
    public long pid()
    {
        return ProcessIdentity.pid(identity);
    }

    /** @return whether it was alive when sampled (by pid and start time: a reused pid is not it). */
    public boolean alive()
    {
        return alive;
    }

    @Override
    public String toString()
    {
        return ProcessIdentity.describe(identity) + (alive ? " live" : " gone");
    }
}
