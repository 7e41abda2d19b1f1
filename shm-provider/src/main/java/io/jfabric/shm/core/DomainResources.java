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

import io.jfabric.DomainAttr;
import io.jfabric.Errno;
import io.jfabric.FabricException;

/**
 * The count limits of one open domain object in this process (fi_domain(3): ep_cnt, cq_cnt, cntr_cnt, mr_cnt),
 * enforced: every object the domain opens takes one unit of its kind and gives it back when closed. An open
 * beyond a limit fails with {@link Errno#FI_ENOSPC} naming the limit, and takes nothing.
 * <p>
 * Control path; thread safe.
 */
public final class DomainResources
{
    /** The kinds of object the domain counts. */
    public enum Kind
    {
        /** Endpoints. */
        ENDPOINT("ep_cnt"),
        /** Completion queues. */
        CQ("cq_cnt"),
        /** Counters. */
        COUNTER("cntr_cnt"),
        /** Memory regions. */
        MR("mr_cnt");

        private final String attrName;

        Kind(final String attrName)
        {
            this.attrName = attrName;
        }

        /**
         * @return the domain attribute that limits this kind.
         */
        public String attrName()
        {
            return attrName;
        }
    }

    private final long[] limits = new long[Kind.values().length];
    private final long[] inUse = new long[Kind.values().length];

    /**
     * @param attr the domain attributes in force: their counts are the limits. tx_ctx_cnt and rx_ctx_cnt are not
     *             limits: fi_domain(3) calls them the counts supported optimally, beyond which contexts share
     *             resources.
     */
    public DomainResources(final DomainAttr attr)
    {
        limits[Kind.ENDPOINT.ordinal()] = attr.epCnt();
        limits[Kind.CQ.ordinal()] = attr.cqCnt();
        limits[Kind.COUNTER.ordinal()] = attr.cntrCnt();
        limits[Kind.MR.ordinal()] = attr.mrCnt();
    }

    /**
     * Take one unit.
     *
     * @param kind      what is being opened.
     * @param operation the call, for the message.
     * @throws FabricException {@link Errno#FI_ENOSPC} when the limit is reached.
     */
    public synchronized void acquire(final Kind kind, final String operation)
    {
        final int i = kind.ordinal();
        if (inUse[i] >= limits[i])
        {
            throw new FabricException(Errno.FI_ENOSPC, operation + ": the domain already has " + inUse[i] + " of " +
                limits[i] + " allowed by " + kind.attrName() + "; close one or open the domain with a higher " +
                kind.attrName());
        }
        inUse[i]++;
    }

    /**
     * Give back one unit taken with {@link #acquire}.
     *
     * @param kind what was closed.
     */
    public synchronized void release(final Kind kind)
    {
        final int i = kind.ordinal();
        if (inUse[i] > 0)
        {
            inUse[i]--;
        }
    }

    /**
     * @param kind a kind.
     * @return units in use now.
     */
    public synchronized long inUse(final Kind kind)
    {
        return inUse[kind.ordinal()];
    }

    /**
     * @param kind a kind.
     * @return the limit.
     */
    public long limit(final Kind kind)
    {
        return limits[kind.ordinal()];
    }
}
