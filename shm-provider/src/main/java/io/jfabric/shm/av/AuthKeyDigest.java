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
package io.jfabric.shm.av;

/**
 * The 64-bit digest an authorization key travels as between shm processes (see {@code io.jfabric.shm.av.AuthKeys}):
 * FNV-1a over the key's bytes, then its length; never 0, which stands for "no key". Not a secret and not a MAC:
 * it tells cooperating endpoints' keys apart. Stateless; any thread.
 */
public final class AuthKeyDigest
{
    private AuthKeyDigest()
    {
    }

    /**
     * @param key    the key's bytes, or null.
     * @param length how many of them are the key.
     * @return the digest, 0 for null or an empty key.
     */
    public static long of(final byte[] key, final int length)
    {
        if (key == null || length <= 0)
        {
            return 0;
        }
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < length; i++)
        {
            h = (h ^ (key[i] & 0xff)) * 0x100000001b3L;
        }
        h = (h ^ length) * 0x100000001b3L;
        return h == 0 ? 1 : h;
    }

    /**
     * @param key the key, or null.
     * @return its digest, 0 for null or empty.
     */
    public static long of(final byte[] key)
    {
        return key == null ? 0 : of(key, key.length);
    }
}
