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
package io.jfabric;

/**
 * Memory registration mode bits of fi_domain(3)/fi_mr(3) ({@code domain_attr.mr_mode}), libfabric's values.
 * <p>
 * On input to getinfo they say what the application can support; on output, what the provider requires,
 * always a subset of the input.
 */
public final class MrMode
{
    /** Unspecified (the old enum value 0). */
    public static final int FI_MR_UNSPEC = 0;
    /** Deprecated basic mode (old enum value 1). */
    public static final int FI_MR_BASIC = 1;
    /** Deprecated scalable mode (old enum value 2). */
    public static final int FI_MR_SCALABLE = 2;
    /** Local buffers must be registered and their desc passed to data transfers. */
    public static final int FI_MR_LOCAL = 1 << 2;
    /** Keys are raw and must be exchanged with fi_mr_raw_attr/fi_mr_map_raw. */
    public static final int FI_MR_RAW = 1 << 3;
    /** Remote addresses are the registrant's virtual addresses rather than 0-based offsets. */
    public static final int FI_MR_VIRT_ADDR = 1 << 4;
    /** Registered memory must be allocated and backed by physical pages. */
    public static final int FI_MR_ALLOCATED = 1 << 5;
    /** The provider chooses the keys. */
    public static final int FI_MR_PROV_KEY = 1 << 6;
    /** The application must tell the provider when a registered region's mapping changes. */
    public static final int FI_MR_MMU_NOTIFY = 1 << 7;
    /** Regions that generate remote events must be bound to counters and enabled. */
    public static final int FI_MR_RMA_EVENT = 1 << 8;
    /** Regions are bound to an endpoint and enabled before use. */
    public static final int FI_MR_ENDPOINT = 1 << 9;
    /** Device (heterogeneous) memory must be registered. */
    public static final int FI_MR_HMEM = 1 << 10;
    /** Collective operations need registered memory. */
    public static final int FI_MR_COLLECTIVE = 1 << 11;

    private MrMode()
    {
    }
}
