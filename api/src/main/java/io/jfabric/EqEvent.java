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
 * Event types of fi_eq(3).
 */
public enum EqEvent
{
    /** FI_NOTIFY. */
    NOTIFY(0),
    /** FI_CONNREQ. */
    CONNREQ(1),
    /** FI_CONNECTED. */
    CONNECTED(2),
    /** FI_SHUTDOWN. */
    SHUTDOWN(3),
    /** FI_MR_COMPLETE: an asynchronous memory registration completed. */
    MR_COMPLETE(4),
    /** FI_AV_COMPLETE: an asynchronous address vector insert completed. */
    AV_COMPLETE(5),
    /** FI_JOIN_COMPLETE. */
    JOIN_COMPLETE(6);

    private static final EqEvent[] VALUES = values();

    private final int value;

    EqEvent(final int value)
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
     * @return libfabric's symbolic name, such as {@code "FI_NOTIFY"}.
     */
    public String cName()
    {
        return "FI_" + name();
    }

    /**
     * @param value libfabric's numeric value.
     * @return the constant, or null when libfabric defines none with that value.
     */
    public static EqEvent of(final int value)
    {
        for (final EqEvent v : VALUES)
        {
            if (v.value == value)
            {
                return v;
            }
        }
        return null;
    }
}
