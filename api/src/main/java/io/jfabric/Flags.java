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
 * libfabric capability and operation flag bits (rdma/fabric.h), as {@code long} masks with libfabric's values.
 * <p>
 * One bit space serves {@code caps}, {@code op_flags} and the flags of individual calls, as in C; some
 * bits mean different things in different scopes (bit 58 is FI_NAMED_RX_CTX as a capability and FI_DISCARD
 * as a receive flag; bit 59 FI_DIRECTED_RECV, FI_CLAIM and FI_SELECTIVE_COMPLETION).
 */
public final class Flags
{
    /** FI_MSG: bit 1. */
    public static final long FI_MSG = 1L << 1;
    /** FI_RMA: bit 2. */
    public static final long FI_RMA = 1L << 2;
    /** FI_TAGGED: bit 3. */
    public static final long FI_TAGGED = 1L << 3;
    /** FI_ATOMIC: bit 4. */
    public static final long FI_ATOMIC = 1L << 4;
    /** FI_MULTICAST: bit 5. */
    public static final long FI_MULTICAST = 1L << 5;
    /** FI_COLLECTIVE: bit 6. */
    public static final long FI_COLLECTIVE = 1L << 6;
    /** FI_READ: bit 8. */
    public static final long FI_READ = 1L << 8;
    /** FI_WRITE: bit 9. */
    public static final long FI_WRITE = 1L << 9;
    /** FI_RECV: bit 10. */
    public static final long FI_RECV = 1L << 10;
    /** FI_SEND: bit 11. */
    public static final long FI_SEND = 1L << 11;
    /** FI_REMOTE_READ: bit 12. */
    public static final long FI_REMOTE_READ = 1L << 12;
    /** FI_REMOTE_WRITE: bit 13. */
    public static final long FI_REMOTE_WRITE = 1L << 13;
    /** FI_MULTI_RECV: bit 16. */
    public static final long FI_MULTI_RECV = 1L << 16;
    /** FI_REMOTE_CQ_DATA: bit 17. */
    public static final long FI_REMOTE_CQ_DATA = 1L << 17;
    /** FI_MORE: bit 18. */
    public static final long FI_MORE = 1L << 18;
    /** FI_PEEK: bit 19. */
    public static final long FI_PEEK = 1L << 19;
    /** FI_TRIGGER: bit 20. */
    public static final long FI_TRIGGER = 1L << 20;
    /** FI_FENCE: bit 21. */
    public static final long FI_FENCE = 1L << 21;
    /** FI_PRIORITY: bit 22. */
    public static final long FI_PRIORITY = 1L << 22;
    /** FI_COMPLETION: bit 24. */
    public static final long FI_COMPLETION = 1L << 24;
    /** FI_INJECT: bit 25. */
    public static final long FI_INJECT = 1L << 25;
    /** FI_INJECT_COMPLETE: bit 26. */
    public static final long FI_INJECT_COMPLETE = 1L << 26;
    /** FI_TRANSMIT_COMPLETE: bit 27. */
    public static final long FI_TRANSMIT_COMPLETE = 1L << 27;
    /** FI_DELIVERY_COMPLETE: bit 28. */
    public static final long FI_DELIVERY_COMPLETE = 1L << 28;
    /** FI_AFFINITY: bit 29. */
    public static final long FI_AFFINITY = 1L << 29;
    /** FI_COMMIT_COMPLETE: bit 30. */
    public static final long FI_COMMIT_COMPLETE = 1L << 30;
    /** FI_MATCH_COMPLETE: bit 31. */
    public static final long FI_MATCH_COMPLETE = 1L << 31;
    /** FI_PEER_TRANSFER: bit 36. */
    public static final long FI_PEER_TRANSFER = 1L << 36;
    /** FI_AV_USER_ID: bit 41. */
    public static final long FI_AV_USER_ID = 1L << 41;
    /** FI_PEER: bit 43. */
    public static final long FI_PEER = 1L << 43;
    /** FI_XPU_TRIGGER: bit 44. */
    public static final long FI_XPU_TRIGGER = 1L << 44;
    /** FI_HMEM_HOST_ALLOC: bit 45. */
    public static final long FI_HMEM_HOST_ALLOC = 1L << 45;
    /** FI_HMEM_DEVICE_ONLY: bit 46. */
    public static final long FI_HMEM_DEVICE_ONLY = 1L << 46;
    /** FI_HMEM: bit 47. */
    public static final long FI_HMEM = 1L << 47;
    /** FI_VARIABLE_MSG: bit 48. */
    public static final long FI_VARIABLE_MSG = 1L << 48;
    /** FI_RMA_PMEM: bit 49. */
    public static final long FI_RMA_PMEM = 1L << 49;
    /** FI_SOURCE_ERR: bit 50. */
    public static final long FI_SOURCE_ERR = 1L << 50;
    /** FI_LOCAL_COMM: bit 51. */
    public static final long FI_LOCAL_COMM = 1L << 51;
    /** FI_REMOTE_COMM: bit 52. */
    public static final long FI_REMOTE_COMM = 1L << 52;
    /** FI_SHARED_AV: bit 53. */
    public static final long FI_SHARED_AV = 1L << 53;
    /** FI_PROV_ATTR_ONLY: bit 54. */
    public static final long FI_PROV_ATTR_ONLY = 1L << 54;
    /** FI_NUMERICHOST: bit 55. */
    public static final long FI_NUMERICHOST = 1L << 55;
    /** FI_RMA_EVENT: bit 56. */
    public static final long FI_RMA_EVENT = 1L << 56;
    /** FI_SOURCE: bit 57. */
    public static final long FI_SOURCE = 1L << 57;
    /** FI_FETCH_ATOMIC: bit 58, as a fi_query_atomic flag (the same bit as FI_NAMED_RX_CTX). */
    public static final long FI_FETCH_ATOMIC = 1L << 58;
    /** FI_COMPARE_ATOMIC: bit 59, as a fi_query_atomic flag. */
    public static final long FI_COMPARE_ATOMIC = 1L << 59;
    /** FI_NAMED_RX_CTX: bit 58. */
    public static final long FI_NAMED_RX_CTX = 1L << 58;
    /** FI_DIRECTED_RECV: bit 59. */
    public static final long FI_DIRECTED_RECV = 1L << 59;
    /** FI_CLAIM: bit 59. */
    public static final long FI_CLAIM = 1L << 59;
    /** FI_DISCARD: bit 58. */
    public static final long FI_DISCARD = 1L << 58;
    /** Alias of {@link #FI_ATOMIC}. */
    public static final long FI_ATOMICS = FI_ATOMIC;
    /** Alias of {@link #FI_SEND}, used when binding transmit completions. */
    public static final long FI_TRANSMIT = FI_SEND;
    /** Alias of {@link #FI_COMPLETION}, as an AV open flag (asynchronous inserts). */
    public static final long FI_EVENT = FI_COMPLETION;
    /** fi_bind flag: only operations posted with FI_COMPLETION generate completions. Bit 59, shared with FI_DIRECTED_RECV. */
    public static final long FI_SELECTIVE_COMPLETION = 1L << 59;
    /** fi_av_insert flag (rdma/fi_domain.h, bit 58): report each address's status in the caller's array. */
    public static final long FI_SYNC_ERR = 1L << 58;
    /** fi_av_open flag (rdma/fi_domain.h, bit 59): every process inserts the same addresses in the same order. */
    public static final long FI_SYMMETRIC = 1L << 59;
    /** fi_av_open flag (rdma/fi_domain.h, bit 57). */
    public static final long FI_UNIVERSE = 1L << 57;
    /** fi_domain_bind flag (rdma/fi_domain.h, bit 59): memory registrations complete asynchronously on the bound EQ. */
    public static final long FI_REG_MR = 1L << 59;
    /**
     * fi_av_insert/remove/set_user_id flag (rdma/fabric.h of libfabric 1.20 and later, bit 57): the fi_addr_t is an
     * authorization key handle. Shares its bit with {@link #FI_UNIVERSE}, which only fi_av_open takes.
     */
    public static final long FI_AUTH_KEY = 1L << 57;
    /** Bit reserved for provider-specific flags. */
    public static final long FI_PROV_SPECIFIC = 1L << 31;

    private Flags()
    {
    }
}
