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
package io.jfabric.ofi.core;

import io.jfabric.ofi.info.InfoCodec;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The open objects of the ofi provider by native pointer, so that an info's {@code domain_attr.domain},
 * {@code fabric_attr.fabric} and {@code handle} travel as the native objects they name and come back as the Java
 * ones ({@link InfoCodec.Handles}). Control path. Thread safe.
 */
public final class FidRegistry implements InfoCodec.Handles
{
    /** The provider's one registry. */
    public static final FidRegistry INSTANCE = new FidRegistry();

    private final ConcurrentHashMap<Long, OfiFid> open = new ConcurrentHashMap<>();

    private FidRegistry()
    {
    }

    void add(final OfiFid fid)
    {
        open.put(fid.pointer(), fid);
    }

    void remove(final OfiFid fid)
    {
        open.remove(fid.pointer(), fid);
    }

    @Override
    public long pointerOf(final Object object)
    {
        return object instanceof OfiFid fid && !fid.isClosed() ? fid.pointer() : 0;
    }

    @Override
    public Object objectOf(final long pointer)
    {
        return pointer == 0 ? null : open.get(pointer);
    }
}
