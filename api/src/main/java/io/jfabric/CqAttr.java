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
 * Attributes of a completion queue ({@code struct fi_cq_attr}, fi_cq(3)): a plain mutable holder, copied by the
 * provider at open.
 */
public final class CqAttr
{
    /** {@code FI_CQ_COND_NONE}. */
    public static final int FI_CQ_COND_NONE = 0;
    /** {@code FI_CQ_COND_THRESHOLD}. */
    public static final int FI_CQ_COND_THRESHOLD = 1;

    private long size;
    private long flags;
    private CqFormat format = CqFormat.CONTEXT;
    private WaitObj waitObj = WaitObj.NONE;
    private int signalingVector;
    private int waitCond = FI_CQ_COND_NONE;
    private long condThreshold;

    /**
     * Attributes with every field at its default, as a zeroed {@code struct fi_cq_attr}.
     */
    public CqAttr()
    {
    }

    /** @return entries the queue holds; 0 lets the provider choose. */
    public long size()
    {
        return size;
    }

    /**
     * @param size entries; 0 lets the provider choose.
     * @return this.
     */
    public CqAttr size(final long size)
    {
        this.size = size;
        return this;
    }

    /** @return FI_AFFINITY and the like; the shm provider accepts 0 and FI_AFFINITY. */
    public long flags()
    {
        return flags;
    }

    /**
     * @param flags open flags.
     * @return this.
     */
    public CqAttr flags(final long flags)
    {
        this.flags = flags;
        return this;
    }

    /** @return entry format; UNSPEC lets the provider choose (CONTEXT). */
    public CqFormat format()
    {
        return format;
    }

    /**
     * @param format entry format.
     * @return this.
     */
    public CqAttr format(final CqFormat format)
    {
        this.format = format;
        return this;
    }

    /** @return wait object: NONE (no sread), UNSPEC or YIELD (sread spins, yields, then parks). */
    public WaitObj waitObj()
    {
        return waitObj;
    }

    /**
     * @param waitObj wait object.
     * @return this.
     */
    public CqAttr waitObj(final WaitObj waitObj)
    {
        this.waitObj = waitObj;
        return this;
    }

    /** @return signaling vector (a hint; FI_AFFINITY makes it a CPU). */
    public int signalingVector()
    {
        return signalingVector;
    }

    /**
     * @param signalingVector signaling vector.
     * @return this.
     */
    public CqAttr signalingVector(final int signalingVector)
    {
        this.signalingVector = signalingVector;
        return this;
    }

    /** @return wait condition: {@link #FI_CQ_COND_NONE} or {@link #FI_CQ_COND_THRESHOLD}. */
    public int waitCond()
    {
        return waitCond;
    }

    /**
     * @param waitCond wait condition.
     * @return this.
     */
    public CqAttr waitCond(final int waitCond)
    {
        this.waitCond = waitCond;
        return this;
    }

    /** @return threshold of FI_CQ_COND_THRESHOLD: sread returns once this many entries are ready. */
    public long condThreshold()
    {
        return condThreshold;
    }

    /**
     * @param condThreshold threshold.
     * @return this.
     */
    public CqAttr condThreshold(final long condThreshold)
    {
        this.condThreshold = condThreshold;
        return this;
    }

    /** @return a copy. */
    public CqAttr copy()
    {
        return new CqAttr().size(size).flags(flags).format(format).waitObj(waitObj).signalingVector(signalingVector)
            .waitCond(waitCond).condThreshold(condThreshold);
    }

    @Override
    public String toString()
    {
        return "CqAttr{size=" + size + ", flags=" + flags + ", format=" + format + ", waitObj=" + waitObj +
            ", signalingVector=" + signalingVector + ", waitCond=" + waitCond + ", condThreshold=" + condThreshold + '}';
    }
}
