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
package io.jfabric.ofi.lib;

/**
 * libfabric cannot be used in this process: the library is not installed, or lacks a symbol version jfabric is
 * written to. The message says which and what to install. The ofi provider turns it into FI_ENODATA from getinfo
 * (the provider offers nothing), as libfabric itself skips a provider that fails to initialise.
 */
public final class LibfabricUnavailableException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what is missing.
     * @param cause   the underlying failure, or null.
     */
    public LibfabricUnavailableException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
