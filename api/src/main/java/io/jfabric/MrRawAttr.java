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
 * In/out holder of {@link MemoryRegion#rawAttr(MrRawAttr, long)} ({@code fi_mr_raw_attr}'s {@code base_addr},
 * {@code raw_key} and {@code key_size}).
 * <p>
 * On input {@link #rawKey()} is the buffer for the key and {@link #keySize()} how much of it may be used; on
 * output {@link #keySize()} is the size the key needs (also when the call fails with {@link Errno#FI_ETOOSMALL}),
 * {@link #baseAddr()} the region's base address. Not thread safe.
 */
public final class MrRawAttr
{
    private long baseAddr;
    private byte[] rawKey;
    private int keySize;

    /**
     * @param rawKey  buffer for the raw key.
     * @param keySize bytes of it that may be used.
     */
    public MrRawAttr(final byte[] rawKey, final int keySize)
    {
        this.rawKey = rawKey;
        this.keySize = keySize;
    }

    /** @return the region's base address, as a peer addresses it. */
    public long baseAddr()
    {
        return baseAddr;
    }

    /**
     * @param baseAddr base address.
     * @return this.
     */
    public MrRawAttr baseAddr(final long baseAddr)
    {
        this.baseAddr = baseAddr;
        return this;
    }

    /** @return the raw key buffer. */
    public byte[] rawKey()
    {
        return rawKey;
    }

    /**
     * @param rawKey raw key buffer.
     * @return this.
     */
    public MrRawAttr rawKey(final byte[] rawKey)
    {
        this.rawKey = rawKey;
        return this;
    }

    /** @return key size: input capacity, output needed size. */
    public int keySize()
    {
        return keySize;
    }

    /**
     * @param keySize key size.
     * @return this.
     */
    public MrRawAttr keySize(final int keySize)
    {
        this.keySize = keySize;
        return this;
    }
}
