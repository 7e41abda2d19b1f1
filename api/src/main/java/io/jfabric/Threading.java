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
 * Threading models of fi_domain(3) ({@code enum fi_threading}), from least to most restrictive for the provider.
 */
public enum Threading
{
    /** FI_THREAD_UNSPEC. */
    UNSPEC(0),
    /** FI_THREAD_SAFE: any thread may call anything. */
    SAFE(1),
    /** FI_THREAD_FID: each object used by one thread at a time. */
    FID(2),
    /** FI_THREAD_DOMAIN: the whole domain serialised by the application. */
    DOMAIN(3),
    /** FI_THREAD_COMPLETION: objects bound to one completion queue serialised. */
    COMPLETION(4),
    /** FI_THREAD_ENDPOINT: each endpoint and its own resources serialised. */
    ENDPOINT(5);

    private static final Threading[] VALUES = values();

    private final int value;

    Threading(final int value)
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
     * @return libfabric's symbolic name, such as {@code "FI_THREAD_UNSPEC"}.
     */
    public String cName()
    {
        return "FI_THREAD_" + name();
    }

    /**
     * @param value libfabric's numeric value.
     * @return the constant, or null when libfabric defines none with that value.
     */
    public static Threading of(final int value)
    {
        for (final Threading v : VALUES)
        {
            if (v.value == value)
            {
                return v;
            }
        }
        return null;
    }
}
