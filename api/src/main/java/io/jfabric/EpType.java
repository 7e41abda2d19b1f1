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
 * Endpoint types of fi_endpoint(3) ({@code enum fi_ep_type}).
 */
public enum EpType
{
    /** FI_EP_UNSPEC. */
    UNSPEC(0),
    /** FI_EP_MSG. */
    MSG(1),
    /** FI_EP_DGRAM. */
    DGRAM(2),
    /** FI_EP_RDM. */
    RDM(3),
    /** FI_EP_SOCK_STREAM. */
    SOCK_STREAM(4),
    /** FI_EP_SOCK_DGRAM. */
    SOCK_DGRAM(5);

    private static final EpType[] VALUES = values();

    private final int value;

    EpType(final int value)
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
     * @return libfabric's symbolic name, such as {@code "FI_EP_UNSPEC"}.
     */
    public String cName()
    {
        return "FI_EP_" + name();
    }

    /**
     * @param value libfabric's numeric value.
     * @return the constant, or null when libfabric defines none with that value.
     */
    public static EpType of(final int value)
    {
        for (final EpType v : VALUES)
        {
            if (v.value == value)
            {
                return v;
            }
        }
        return null;
    }
}
