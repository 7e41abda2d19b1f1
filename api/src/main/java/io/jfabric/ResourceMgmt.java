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
 * Resource management of fi_domain(3) ({@code enum fi_resource_mgmt}).
 */
public enum ResourceMgmt
{
    /** FI_RM_UNSPEC. */
    UNSPEC(0),
    /** FI_RM_DISABLED: the provider may skip queue-overrun protection. */
    DISABLED(1),
    /** FI_RM_ENABLED: the provider protects against overrunning local and remote queues. */
    ENABLED(2);

    private static final ResourceMgmt[] VALUES = values();

    private final int value;

    ResourceMgmt(final int value)
    {
        this.value = value;
    }

    /**
     * @return libfabric's numeric value.
     */
    public int value()
    {
        return value;
    }

    /**
     * @return libfabric's symbolic name, such as {@code "FI_RM_UNSPEC"}.
     */
    public String cName()
    {
        return "FI_RM_" + name();
    }

    /**
     * @param value libfabric's numeric value.
     * @return the constant, or null when libfabric defines none with that value.
     */
    public static ResourceMgmt of(final int value)
    {
        for (final ResourceMgmt v : VALUES)
        {
            if (v.value == value)
            {
                return v;
            }
        }
        return null;
    }
}
