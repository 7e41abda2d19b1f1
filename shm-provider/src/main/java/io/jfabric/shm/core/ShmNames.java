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
package io.jfabric.shm.core;

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
