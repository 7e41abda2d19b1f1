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
 * What every fabric object is ({@code struct fid}): it has a class, carries the context the application gave
 * when opening it, and is closed exactly once.
 * <p>
 * {@link #close()} is idempotent: a second close does nothing. Closing an object that still has objects
 * opened from it or bound to it fails with a {@link FabricException} carrying {@link Errno#FI_EBUSY}, and
 * leaves the object open.
 */
public interface Fid extends AutoCloseable
{
    /**
     * @return the object's class.
     */
    FidClass fidClass();

    /**
     * @return the context given when the object was opened ({@code fid->context}).
     */
    long context();

    /**
     * {@code fi_close}: release the object.
     *
     * @throws FabricException {@link Errno#FI_EBUSY} while objects opened from or bound to it remain open.
     */
    @Override
    void close();
}
