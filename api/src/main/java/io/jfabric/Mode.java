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
 * libfabric mode bits (rdma/fabric.h): requirements a provider places on the application, returned in
 * {@code Info#mode()} and the tx/rx attributes.
 */
public final class Mode
{
    /** FI_CONTEXT: bit 59. */
    public static final long FI_CONTEXT = 1L << 59;
    /** FI_MSG_PREFIX: bit 58. */
    public static final long FI_MSG_PREFIX = 1L << 58;
    /** FI_ASYNC_IOV: bit 57. */
    public static final long FI_ASYNC_IOV = 1L << 57;
    /** FI_RX_CQ_DATA: bit 56. */
    public static final long FI_RX_CQ_DATA = 1L << 56;
    /** FI_LOCAL_MR: bit 55. */
    public static final long FI_LOCAL_MR = 1L << 55;
    /** FI_NOTIFY_FLAGS_ONLY: bit 54. */
    public static final long FI_NOTIFY_FLAGS_ONLY = 1L << 54;
    /** FI_RESTRICTED_COMP: bit 53. */
    public static final long FI_RESTRICTED_COMP = 1L << 53;
    /** FI_CONTEXT2: bit 52. */
    public static final long FI_CONTEXT2 = 1L << 52;
    /** FI_BUFFERED_RECV: bit 51. */
    public static final long FI_BUFFERED_RECV = 1L << 51;

    private Mode()
    {
    }
}
