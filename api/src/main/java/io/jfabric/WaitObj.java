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
 * Wait objects of fi_eq(3)/fi_cq(3) ({@code enum fi_wait_obj}).
 */
public enum WaitObj
{
    /** FI_WAIT_NONE. */
    NONE(0),
    /** FI_WAIT_UNSPEC. */
    UNSPEC(1),
    /** FI_WAIT_SET. */
    SET(2),
    /** FI_WAIT_FD. */
    FD(3),
    /** FI_WAIT_MUTEX_COND. */
    MUTEX_COND(4),
    /** FI_WAIT_YIELD. */
    YIELD(5),
    /** FI_WAIT_POLLFD. */
    POLLFD(6);

    private static final WaitObj[] VALUES = values();

    private final int value;

    WaitObj(final int value)
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
     * @return libfabric's symbolic name, such as {@code "FI_WAIT_NONE"}.
     */
    public String cName()
    {
        return "FI_WAIT_" + name();
    }

    /**
     * @param value libfabric's numeric value.
     * @return the constant, or null when libfabric defines none with that value.
     */
    public static WaitObj of(final int value)
    {
        for (final WaitObj v : VALUES)
        {
            if (v.value == value)
            {
                return v;
            }
        }
        return null;
    }
}
