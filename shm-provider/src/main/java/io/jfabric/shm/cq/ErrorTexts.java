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
package io.jfabric.shm.cq;

import io.jfabric.Errno;

import java.nio.charset.StandardCharsets;

/** The error data of each errno, made once so writing an error entry allocates nothing. Any thread. */
final class ErrorTexts
{
    private static final byte[][] TEXTS = new byte[512][];
    private static final byte[] UNKNOWN = "unknown errno".getBytes(StandardCharsets.UTF_8);

    static
    {
        for (int i = 0; i < TEXTS.length; i++)
        {
            TEXTS[i] = (Errno.name(i) + ": " + Errno.strerror(i)).getBytes(StandardCharsets.UTF_8);
        }
    }

    static byte[] of(final int err)
    {
        return err < 0 || err >= TEXTS.length ? UNKNOWN : TEXTS[err];
    }
}
