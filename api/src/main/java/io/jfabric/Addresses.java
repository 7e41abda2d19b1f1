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
 * libfabric's reserved address and key values (rdma/fabric.h).
 */
public final class Addresses
{
    /** No particular source or destination: {@code FI_ADDR_UNSPEC}, all ones. */
    public static final long FI_ADDR_UNSPEC = -1L;
    /** An address that could not be resolved: {@code FI_ADDR_NOTAVAIL}, all ones. */
    public static final long FI_ADDR_NOTAVAIL = -1L;
    /** A memory registration key that is not available yet: {@code FI_KEY_NOTAVAIL}, all ones. */
    public static final long FI_KEY_NOTAVAIL = -1L;
    /** Shared context marker for tx/rx_ctx_cnt: {@code FI_SHARED_CONTEXT} (SIZE_MAX). */
    public static final long FI_SHARED_CONTEXT = -1L;
    /** Longest name libfabric prints: {@code FI_NAME_MAX}. */
    public static final int FI_NAME_MAX = 64;

    private Addresses()
    {
    }
}
