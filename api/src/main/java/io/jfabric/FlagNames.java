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
 * Names of the bits of one flag type, in the order libfabric prints them (not bit order), and one such table for
 * each flag type fi_tostr prints: capabilities, operation flags, modes, message orders, memory registration modes
 * and CQ event flags. Bits without a name are left out, as libfabric leaves them out.
 * <p>
 * Immutable; any thread.
 */
final class FlagNames
{
    static final FlagNames CAPS = new FlagNames(
        Flags.FI_MSG, "FI_MSG",
        Flags.FI_RMA, "FI_RMA",
        Flags.FI_TAGGED, "FI_TAGGED",
        Flags.FI_ATOMIC, "FI_ATOMIC",
        Flags.FI_MULTICAST, "FI_MULTICAST",
        Flags.FI_COLLECTIVE, "FI_COLLECTIVE",
        Flags.FI_READ, "FI_READ",
        Flags.FI_WRITE, "FI_WRITE",
        Flags.FI_RECV, "FI_RECV",
        Flags.FI_SEND, "FI_SEND",
        Flags.FI_REMOTE_READ, "FI_REMOTE_READ",
        Flags.FI_REMOTE_WRITE, "FI_REMOTE_WRITE",
        Flags.FI_MULTI_RECV, "FI_MULTI_RECV",
        Flags.FI_REMOTE_CQ_DATA, "FI_REMOTE_CQ_DATA",
        Flags.FI_TRIGGER, "FI_TRIGGER",
        Flags.FI_FENCE, "FI_FENCE",
        Flags.FI_VARIABLE_MSG, "FI_VARIABLE_MSG",
        Flags.FI_RMA_PMEM, "FI_RMA_PMEM",
        Flags.FI_SOURCE_ERR, "FI_SOURCE_ERR",
        Flags.FI_LOCAL_COMM, "FI_LOCAL_COMM",
        Flags.FI_REMOTE_COMM, "FI_REMOTE_COMM",
        Flags.FI_SHARED_AV, "FI_SHARED_AV",
        Flags.FI_RMA_EVENT, "FI_RMA_EVENT",
        Flags.FI_SOURCE, "FI_SOURCE",
        Flags.FI_NAMED_RX_CTX, "FI_NAMED_RX_CTX",
        Flags.FI_DIRECTED_RECV, "FI_DIRECTED_RECV",
        Flags.FI_HMEM, "FI_HMEM");

    static final FlagNames OP_FLAGS = new FlagNames(
        Flags.FI_MULTICAST, "FI_MULTICAST",
        Flags.FI_MULTI_RECV, "FI_MULTI_RECV",
        Flags.FI_REMOTE_CQ_DATA, "FI_REMOTE_CQ_DATA",
        Flags.FI_MORE, "FI_MORE",
        Flags.FI_PEEK, "FI_PEEK",
        Flags.FI_TRIGGER, "FI_TRIGGER",
        Flags.FI_FENCE, "FI_FENCE",
        Flags.FI_COMPLETION, "FI_COMPLETION",
        Flags.FI_INJECT, "FI_INJECT",
        Flags.FI_INJECT_COMPLETE, "FI_INJECT_COMPLETE",
        Flags.FI_TRANSMIT_COMPLETE, "FI_TRANSMIT_COMPLETE",
        Flags.FI_DELIVERY_COMPLETE, "FI_DELIVERY_COMPLETE",
        Flags.FI_MATCH_COMPLETE, "FI_MATCH_COMPLETE",
        Flags.FI_AFFINITY, "FI_AFFINITY",
        Flags.FI_CLAIM, "FI_CLAIM",
        Flags.FI_DISCARD, "FI_DISCARD");

    static final FlagNames MODES = new FlagNames(
        Mode.FI_CONTEXT, "FI_CONTEXT",
        Mode.FI_MSG_PREFIX, "FI_MSG_PREFIX",
        Mode.FI_ASYNC_IOV, "FI_ASYNC_IOV",
        Mode.FI_RX_CQ_DATA, "FI_RX_CQ_DATA",
        Mode.FI_LOCAL_MR, "FI_LOCAL_MR",
        Mode.FI_NOTIFY_FLAGS_ONLY, "FI_NOTIFY_FLAGS_ONLY",
        Mode.FI_RESTRICTED_COMP, "FI_RESTRICTED_COMP",
        Mode.FI_CONTEXT2, "FI_CONTEXT2",
        Mode.FI_BUFFERED_RECV, "FI_BUFFERED_RECV");

    static final FlagNames MSG_ORDERS = new FlagNames(
        MsgOrder.FI_ORDER_RAR, "FI_ORDER_RAR",
        MsgOrder.FI_ORDER_RAW, "FI_ORDER_RAW",
        MsgOrder.FI_ORDER_RAS, "FI_ORDER_RAS",
        MsgOrder.FI_ORDER_WAR, "FI_ORDER_WAR",
        MsgOrder.FI_ORDER_WAW, "FI_ORDER_WAW",
        MsgOrder.FI_ORDER_WAS, "FI_ORDER_WAS",
        MsgOrder.FI_ORDER_SAR, "FI_ORDER_SAR",
        MsgOrder.FI_ORDER_SAW, "FI_ORDER_SAW",
        MsgOrder.FI_ORDER_SAS, "FI_ORDER_SAS",
        MsgOrder.FI_ORDER_RMA_RAR, "FI_ORDER_RMA_RAR",
        MsgOrder.FI_ORDER_RMA_RAW, "FI_ORDER_RMA_RAW",
        MsgOrder.FI_ORDER_RMA_WAR, "FI_ORDER_RMA_WAR",
        MsgOrder.FI_ORDER_RMA_WAW, "FI_ORDER_RMA_WAW",
        MsgOrder.FI_ORDER_ATOMIC_RAR, "FI_ORDER_ATOMIC_RAR",
        MsgOrder.FI_ORDER_ATOMIC_RAW, "FI_ORDER_ATOMIC_RAW",
        MsgOrder.FI_ORDER_ATOMIC_WAR, "FI_ORDER_ATOMIC_WAR",
        MsgOrder.FI_ORDER_ATOMIC_WAW, "FI_ORDER_ATOMIC_WAW");

    static final FlagNames MR_MODES = new FlagNames(
        MrMode.FI_MR_BASIC, "FI_MR_BASIC",
        MrMode.FI_MR_SCALABLE, "FI_MR_SCALABLE",
        MrMode.FI_MR_LOCAL, "FI_MR_LOCAL",
        MrMode.FI_MR_RAW, "FI_MR_RAW",
        MrMode.FI_MR_VIRT_ADDR, "FI_MR_VIRT_ADDR",
        MrMode.FI_MR_ALLOCATED, "FI_MR_ALLOCATED",
        MrMode.FI_MR_PROV_KEY, "FI_MR_PROV_KEY",
        MrMode.FI_MR_MMU_NOTIFY, "FI_MR_MMU_NOTIFY",
        MrMode.FI_MR_RMA_EVENT, "FI_MR_RMA_EVENT",
        MrMode.FI_MR_ENDPOINT, "FI_MR_ENDPOINT",
        MrMode.FI_MR_HMEM, "FI_MR_HMEM",
        MrMode.FI_MR_COLLECTIVE, "FI_MR_COLLECTIVE");

    static final FlagNames CQ_EVENT_FLAGS = new FlagNames(
        Flags.FI_SEND, "FI_SEND",
        Flags.FI_RECV, "FI_RECV",
        Flags.FI_RMA, "FI_RMA",
        Flags.FI_ATOMIC, "FI_ATOMIC",
        Flags.FI_MSG, "FI_MSG",
        Flags.FI_TAGGED, "FI_TAGGED",
        Flags.FI_READ, "FI_READ",
        Flags.FI_WRITE, "FI_WRITE",
        Flags.FI_REMOTE_READ, "FI_REMOTE_READ",
        Flags.FI_REMOTE_WRITE, "FI_REMOTE_WRITE",
        Flags.FI_REMOTE_CQ_DATA, "FI_REMOTE_CQ_DATA",
        Flags.FI_MULTI_RECV, "FI_MULTI_RECV",
        Flags.FI_MORE, "FI_MORE",
        Flags.FI_CLAIM, "FI_CLAIM");

    private final long[] bits;
    private final String[] names;

    FlagNames(final Object... bitsAndNames)
    {
        final int n = bitsAndNames.length / 2;
        bits = new long[n];
        names = new String[n];
        for (int i = 0; i < n; i++)
        {
            bits[i] = ((Number)bitsAndNames[2 * i]).longValue();
            names[i] = (String)bitsAndNames[2 * i + 1];
        }
    }

    StringBuilder append(final StringBuilder sb, final long value)
    {
        boolean first = true;
        for (int i = 0; i < bits.length; i++)
        {
            if ((value & bits[i]) != 0)
            {
                if (!first)
                {
                    sb.append(", ");
                }
                sb.append(names[i]);
                first = false;
            }
        }
        return sb;
    }
}
