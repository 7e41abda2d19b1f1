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
package io.jfabric.shm.context;

import io.jfabric.Fabric;

/**
 * What a fabric gives the domains opened from it: itself as the libfabric object, its provider's context, and its
 * reference count (a domain retains its fabric while open). The shm fabric implements it.
 * <p>
 * Threads: any.
 */
public interface FabricContext extends Fabric
{
    /**
     * @return the provider the fabric was opened from.
     */
    ProviderContext provider();

    /**
     * @return the API version the fabric was opened with.
     */
    int apiVersion();

    /**
     * Count one more object open on the fabric.
     *
     * @param operation the call being made, for the error message.
     */
    void retain(String operation);

    /**
     * Count one object fewer.
     */
    void release();
}
