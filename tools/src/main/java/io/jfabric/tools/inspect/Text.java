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
package io.jfabric.tools.inspect;

import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.shm.core.ProcessIdentity;

import java.time.Instant;
import java.util.Locale;

/**
 * How the inspection commands print figures: sizes, ages, instants, process identities, and the exit status of a
 * failure. Stateless; any thread.
 */
final class Text
{
    private Text()
    {
    }

    /**
     * @param failure what went wrong.
     * @return the exit status for it: its errno, except a bad checksum (FI_ECRC, 264, which no exit status holds),
     * which is reported as what it is, an invalid file (FI_EINVAL, 22).
     */
    static int exitStatus(final FabricException failure)
    {
        return failure.errno() == Errno.FI_ECRC ? Errno.FI_EINVAL : failure.errno();
    }

    /**
     * @param ms a duration in milliseconds.
     * @return e.g. {@code 850 ms}, {@code 3.2 s}, {@code 4 min 05 s}, {@code 2 h 03 min}, {@code 3 d 04 h}.
     */
    static String duration(final long ms)
    {
        if (ms < 0)
        {
            return "-" + duration(-ms);
        }
        if (ms < 1_000)
        {
            return ms + " ms";
        }
        if (ms < 60_000)
        {
            return String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
        }
        final long s = ms / 1000;
        if (s < 3600)
        {
            return String.format(Locale.ROOT, "%d min %02d s", s / 60, s % 60);
        }
        if (s < 86_400)
        {
            return String.format(Locale.ROOT, "%d h %02d min", s / 3600, s / 60 % 60);
        }
        return String.format(Locale.ROOT, "%d d %02d h", s / 86_400, s / 3600 % 24);
    }

    /**
     * @param epochMs an instant, epoch ms.
     * @return it in ISO-8601 UTC, or "unknown" for 0.
     */
    static String instant(final long epochMs)
    {
        return epochMs == 0 ? "unknown" : Instant.ofEpochMilli(epochMs).toString();
    }

    /**
     * @param bytes a size.
     * @return e.g. {@code 4096 B}, {@code 1.1 MiB}.
     */
    static String size(final long bytes)
    {
        if (bytes < 1024 * 1024)
        {
            return bytes + " B";
        }
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024.0));
    }

    /**
     * @param identity a process identity, 0 for none.
     * @param alive    whether it was alive.
     * @return e.g. {@code process 4242 live}, or {@code nobody}.
     */
    static String process(final long identity, final boolean alive)
    {
        return identity == 0 ? "nobody" : "process " + ProcessIdentity.pid(identity) + (alive ? " live" : " gone");
    }

    /**
     * @param identity a process identity, 0 for none.
     * @param alive    whether it was alive.
     * @return e.g. {@code process 4242 (started 1234 ticks after boot) live}, or {@code nobody}: the start time
     * tells a process from a later one with the same pid.
     */
    static String processInFull(final long identity, final boolean alive)
    {
        return identity == 0 ? "nobody" : ProcessIdentity.describe(identity) + (alive ? " live" : " gone");
    }

    /**
     * @param value a value.
     * @return it as 0x and 16 hex digits.
     */
    static String hex(final long value)
    {
        return String.format(Locale.ROOT, "0x%016x", value);
    }
}
