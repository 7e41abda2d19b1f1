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
package io.jfabric.shm.core;

import io.jfabric.MrMode;

import static io.jfabric.Flags.*;

/**
 * What the shm provider offers, as libfabric capability bits, in one place.
 * <p>
 * The provider is local only: {@link io.jfabric.Flags#FI_LOCAL_COMM} is always offered and
 * {@link io.jfabric.Flags#FI_REMOTE_COMM} never. Named address vectors are shared across processes, hence
 * {@link io.jfabric.Flags#FI_SHARED_AV}.
 * <p>
 * FI_RMA with FI_READ, FI_WRITE, FI_REMOTE_READ and FI_REMOTE_WRITE: endpoints read and write peers' registered
 * memory one-sidedly (fi_rma(3)). FI_RMA_EVENT: a target endpoint's counters bound with FI_REMOTE_READ and
 * FI_REMOTE_WRITE, and a region's counter bound with FI_REMOTE_WRITE, count the operations peers complete on it; the
 * initiator raises them, as the copy is its own (fi_endpoint(3), fi_mr(3)).
 */
public final class ShmCapabilities
{
    /** Primary capabilities offered. FI_NAMED_RX_CTX: fi_rx_addr selects a scalable endpoint's receive context. */
    public static final long PRIMARY = FI_MSG | FI_TAGGED | FI_RMA | FI_ATOMIC | FI_DIRECTED_RECV | FI_NAMED_RX_CTX;

    /**
     * The most transmit or receive contexts of one scalable endpoint the region layout can name (its address slot
     * has 16 receive context entries); a domain reports fewer when its slots cannot hold them, see
     * {@link #maxEpContexts}.
     */
    public static final int MAX_EP_CONTEXTS = 16;

    /** Primary modifiers offered. */
    public static final long MODIFIERS = FI_SEND | FI_RECV | FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE;

    /**
     * Secondary capabilities offered. FI_SOURCE_ERR changes what a receive from an unknown sender completes with (an
     * error entry), so getinfo returns it only when the hints ask for it ({@link #DEFAULT_CAPS}).
     */
    public static final long SECONDARY = FI_MULTI_RECV | FI_SOURCE | FI_SOURCE_ERR | FI_LOCAL_COMM | FI_SHARED_AV |
        FI_AV_USER_ID | FI_RMA_EVENT;

    /** Every capability bit of {@code info.caps} the provider can satisfy. */
    public static final long INFO_CAPS = PRIMARY | MODIFIERS | SECONDARY;

    /** The capabilities getinfo returns when the hints give none: all but FI_SOURCE_ERR. */
    public static final long DEFAULT_CAPS = INFO_CAPS & ~FI_SOURCE_ERR;

    /** The capabilities that belong to a transmit context. */
    public static final long TX_CAPS = FI_MSG | FI_TAGGED | FI_SEND | FI_RMA | FI_ATOMIC | FI_READ | FI_WRITE |
        FI_NAMED_RX_CTX |
        FI_LOCAL_COMM | FI_SHARED_AV;

    /** The capabilities that belong to a receive context. */
    public static final long RX_CAPS = FI_MSG | FI_TAGGED | FI_DIRECTED_RECV | FI_NAMED_RX_CTX | FI_RECV |
        FI_RMA | FI_ATOMIC | FI_REMOTE_READ | FI_REMOTE_WRITE | FI_RMA_EVENT | FI_MULTI_RECV | FI_SOURCE |
        FI_SOURCE_ERR | FI_LOCAL_COMM | FI_SHARED_AV | FI_AV_USER_ID;

    /** Domain capabilities ({@code domain_attr.caps}). */
    public static final long DOMAIN_CAPS = FI_LOCAL_COMM | FI_SHARED_AV;

    /** Default operation flags a transmit context accepts in {@code tx_attr.op_flags}. */
    public static final long TX_OP_FLAGS = FI_COMPLETION | FI_INJECT | FI_INJECT_COMPLETE | FI_TRANSMIT_COMPLETE |
        FI_DELIVERY_COMPLETE | FI_MORE;

    /** Default operation flags a receive context accepts in {@code rx_attr.op_flags}. */
    public static final long RX_OP_FLAGS = FI_COMPLETION | FI_MULTI_RECV;

    /**
     * Message ordering offered. Send-after-send between a pair of endpoints (one lane per pair). An RMA or atomic on
     * shareable memory is done in the target's memory by the time its call returns (a one-sided copy or a hardware
     * atomic), before any later operation of the initiator starts. One on memory no peer can map (the emulated path)
     * is a request record in the same lane as the pair's sends, which the target applies when it drains the lane, so
     * it is ordered after everything the initiator sent that endpoint before and before everything after; and while
     * one is unanswered a one-sided operation to the same target returns FI_EAGAIN instead of overtaking it (the
     * fence, {@code TxContext.fenced}). So reads, writes and atomics are ordered after earlier reads, writes and
     * atomics, and sends after them, on both paths (RAR, RAW, WAR, WAW, SAR, SAW and the RMA_ and ATOMIC_ forms).
     * Not RAS or WAS: a one-sided RMA issued after a send may reach the target's memory before the target takes the
     * send. The data order sizes (ep_attr.max_order_raw_size, war, waw) are {@code ep.RmaOrdering}'s: what one lane
     * record carries, 8016 bytes with the default rings.
     */
    public static final long MSG_ORDER = io.jfabric.MsgOrder.FI_ORDER_SAS | io.jfabric.MsgOrder.FI_ORDER_RAR |
        io.jfabric.MsgOrder.FI_ORDER_RAW | io.jfabric.MsgOrder.FI_ORDER_WAR | io.jfabric.MsgOrder.FI_ORDER_WAW |
        io.jfabric.MsgOrder.FI_ORDER_SAR | io.jfabric.MsgOrder.FI_ORDER_SAW | io.jfabric.MsgOrder.FI_ORDER_RMA_RAR |
        io.jfabric.MsgOrder.FI_ORDER_RMA_RAW | io.jfabric.MsgOrder.FI_ORDER_RMA_WAR |
        io.jfabric.MsgOrder.FI_ORDER_RMA_WAW | io.jfabric.MsgOrder.FI_ORDER_ATOMIC_RAR |
        io.jfabric.MsgOrder.FI_ORDER_ATOMIC_RAW | io.jfabric.MsgOrder.FI_ORDER_ATOMIC_WAR |
        io.jfabric.MsgOrder.FI_ORDER_ATOMIC_WAW;

    /** The tag format of tagged messages: libfabric's FI_TAG_GENERIC. */
    public static final long MEM_TAG_FORMAT = 0xAAAAAAAAAAAAAAAAL;

    /**
     * mr_mode bits a domain honours when the application passes them to fi_domain (see the README's "Memory
     * registration and counters"): everything but FI_MR_HMEM and FI_MR_COLLECTIVE.
     */
    public static final int MR_MODE_SUPPORTED = MrMode.FI_MR_LOCAL | MrMode.FI_MR_RAW |
        MrMode.FI_MR_VIRT_ADDR | MrMode.FI_MR_ALLOCATED | MrMode.FI_MR_PROV_KEY |
        MrMode.FI_MR_MMU_NOTIFY | MrMode.FI_MR_RMA_EVENT | MrMode.FI_MR_ENDPOINT;

    /**
     * mr_mode bits getinfo keeps on output when the application offers them: the bits shm needs. Every other bit
     * is cleared, as fi_domain(3) asks of bits a provider does not need. FI_MR_PROV_KEY: provider keys come from a
     * domain-wide sequence that skips keys in use, so the application never has to pick a free key (requested keys
     * may be any 64-bit value but FI_KEY_NOTAVAIL, as mr_key_size 8 allows); FI_MR_VIRT_ADDR: a
     * peer addresses shareable memory by the owner's native address, which lets the RMA path pass C-style
     * addresses unchanged. shm needs no other bit: all memory a Java program registers is already allocated
     * (FI_MR_ALLOCATED is always true), local buffers need no descriptor (FI_MR_LOCAL), keys fit 8 bytes
     * (FI_MR_RAW), and regions are usable at once (FI_MR_RMA_EVENT, FI_MR_ENDPOINT, FI_MR_MMU_NOTIFY).
     */
    public static final int MR_MODE_KEPT = MrMode.FI_MR_PROV_KEY | MrMode.FI_MR_VIRT_ADDR;

    /** Bytes of a memory registration key. */
    public static final int MR_KEY_SIZE = 8;

    /** Bytes of remote CQ data a transfer carries. */
    public static final int CQ_DATA_SIZE = 8;

    /** iov entries one transfer may have. */
    public static final int IOV_LIMIT = 4;

    /** Remote iov entries one RMA transfer may have ({@code tx_attr.rma_iov_limit}). */
    public static final int RMA_IOV_LIMIT = 4;

    /** Longest authorization key accepted, in bytes. */
    public static final int MAX_AUTH_KEY_SIZE = 64;

    /**
     * FI_VERSION(1, 5): a fabric opened with an API version below it ignores every authorization key, the domain's
     * and the endpoint's (fi_domain(3), fi_endpoint(3)); see {@link #keysIgnored}.
     */
    public static final int AUTH_KEY_MIN_API_VERSION = io.jfabric.Versions.version(1, 5);

    private ShmCapabilities()
    {
    }

    /**
     * domain_attr.max_ep_tx_ctx and max_ep_rx_ctx of a domain with {@code slots} endpoint slots. A scalable endpoint
     * holds one slot for its address and one per context (each context has its own lanes: a transmit context is
     * the single producer of its lanes into every receiver, a receive context drains lanes from every sender), so
     * the largest one, both counts at this value, fits a domain with no other endpoint: 1 + 2 x max &lt;= slots. At
     * least 1: a plain endpoint's one context of each kind (in a domain of fewer than 3 slots a scalable endpoint
     * does not fit at all).
     *
     * @param slots the region's endpoint slots (ep_cnt).
     * @return the most contexts of each kind, 1 to {@link #MAX_EP_CONTEXTS}.
     */
    public static int maxEpContexts(final int slots)
    {
        return Math.max(1, Math.min(MAX_EP_CONTEXTS, (slots - 1) / 2));
    }

    /**
     * domain_attr.max_ep_srx_ctx of a domain with {@code slots} endpoint slots: a shared receive context holds a slot
     * of its own (its receive side), so that many endpoints and the context fit a domain with no other endpoint. A
     * shared transmit context holds none (max_ep_stx_ctx is ep_cnt).
     *
     * @param slots the region's endpoint slots (ep_cnt).
     * @return the most endpoints one shared receive context serves.
     */
    public static int maxEpSrxContexts(final int slots)
    {
        return Math.max(0, slots - 1);
    }

    /**
     * @param apiVersion the API version a fabric was opened with, or a getinfo call asks for; 0 means the current
     *                   one, as fi_fabric takes it.
     * @return whether authorization keys are ignored at that version (below 1.5).
     */
    public static boolean keysIgnored(final int apiVersion)
    {
        return apiVersion != 0 && apiVersion < AUTH_KEY_MIN_API_VERSION;
    }

    /**
     * The mr_mode a domain works in, from the mr_mode the application passes to fi_domain: the legacy values as
     * given, otherwise the bits shm implements ({@link #MR_MODE_SUPPORTED}); so an application that declares
     * FI_MR_RAW, FI_MR_RMA_EVENT, FI_MR_ENDPOINT, FI_MR_LOCAL or FI_MR_MMU_NOTIFY gets that mode's rules.
     *
     * @param requested the mr_mode passed to fi_domain.
     * @return the mode in force.
     */
    public static int domainMrMode(final int requested)
    {
        if (requested == MrMode.FI_MR_BASIC || requested == MrMode.FI_MR_SCALABLE)
        {
            return requested == MrMode.FI_MR_BASIC ?
                MrMode.FI_MR_VIRT_ADDR | MrMode.FI_MR_ALLOCATED | MrMode.FI_MR_PROV_KEY : 0;
        }
        return requested & MR_MODE_SUPPORTED;
    }
}
