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
 * Completion queue entry formats of fi_cq(3) ({@code enum fi_cq_format}).
 */
public enum CqFormat
{
    /** FI_CQ_FORMAT_UNSPEC. */
    UNSPEC(0),
    /** FI_CQ_FORMAT_CONTEXT. */
    CONTEXT(1),
    /** FI_CQ_FORMAT_MSG. */
    MSG(2),
    /** FI_CQ_FORMAT_DATA. */
    DATA(3),
    /** FI_CQ_FORMAT_TAGGED. */
    TAGGED(4);

    private static final CqFormat[] VALUES = values();

    private final int value;

    CqFormat(final int value)
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
     * @return libfabric's symbolic name, such as {@code "FI_CQ_FORMAT_UNSPEC"}.
     */
    public String cName()
    {
        return "FI_CQ_FORMAT_" + name();
    }

    /**
     * @param value libfabric's numeric value.
     * @return the constant, or null when libfabric defines none with that value.
     */
    public static CqFormat of(final int value)
    {
        for (final CqFormat v : VALUES)
        {
            if (v.value == value)
            {
                return v;
            }
        }
        return null;
    }
}
