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
 * libfabric API versions: {@code FI_VERSION(major, minor)}, and the version this library implements.
 */
public final class Versions
{
    /** Major version of the libfabric API this library follows. */
    public static final int FI_MAJOR_VERSION = 1;
    /** Minor version of the libfabric API this library follows. */
    public static final int FI_MINOR_VERSION = 17;
    /** Revision of the libfabric API this library follows. */
    public static final int FI_REVISION_VERSION = 0;
    /** The API version this library implements, {@code FI_VERSION(1, 17)}. */
    public static final int FI_CURRENT_VERSION = version(FI_MAJOR_VERSION, FI_MINOR_VERSION);

    private Versions()
    {
    }

    /**
     * @param major major version.
     * @param minor minor version.
     * @return {@code FI_VERSION(major, minor)}: major in the upper 16 bits, minor in the lower.
     */
    public static int version(final int major, final int minor)
    {
        return (major << 16) | (minor & 0xFFFF);
    }

    /**
     * @param version a value of {@link #version(int, int)}.
     * @return its major part.
     */
    public static int major(final int version)
    {
        return version >>> 16;
    }

    /**
     * @param version a value of {@link #version(int, int)}.
     * @return its minor part.
     */
    public static int minor(final int version)
    {
        return version & 0xFFFF;
    }
}
