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
 * Address vector types of fi_av(3) ({@code enum fi_av_type}).
 */
public enum AvType
{
    /** FI_AV_UNSPEC. */
    UNSPEC(0),
    /** FI_AV_MAP. */
    MAP(1),
    /** FI_AV_TABLE. */
    TABLE(2);

    private static final AvType[] VALUES = values();

    private final int value;

    AvType(final int value)
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
     * @return libfabric's symbolic name, such as {@code "FI_AV_UNSPEC"}.
     */
    public String cName()
    {
        return "FI_AV_" + name();
    }

    /**
     * @param value libfabric's numeric value.
     * @return the constant, or null when libfabric defines none with that value.
     */
    public static AvType of(final int value)
    {
        for (final AvType v : VALUES)
        {
            if (v.value == value)
            {
                return v;
            }
        }
        return null;
    }
}
