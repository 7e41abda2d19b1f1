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
 * Progress models of fi_domain(3) ({@code enum fi_progress}).
 */
public enum Progress
{
    /** FI_PROGRESS_UNSPEC. */
    UNSPEC(0),
    /** FI_PROGRESS_AUTO: the provider makes progress by itself. */
    AUTO(1),
    /** FI_PROGRESS_MANUAL: progress happens inside the application's calls. */
    MANUAL(2);

    private static final Progress[] VALUES = values();

    private final int value;

    Progress(final int value)
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
     * @return libfabric's symbolic name, such as {@code "FI_PROGRESS_UNSPEC"}.
     */
    public String cName()
    {
        return "FI_PROGRESS_" + name();
    }

    /**
     * @param value libfabric's numeric value.
     * @return the constant, or null when libfabric defines none with that value.
     */
    public static Progress of(final int value)
    {
        for (final Progress v : VALUES)
        {
            if (v.value == value)
            {
                return v;
            }
        }
        return null;
    }
}
