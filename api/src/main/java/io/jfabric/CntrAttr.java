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
 * Counter attributes ({@code struct fi_cntr_attr}, fi_cntr(3)) for {@link Domain#cntrOpen(CntrAttr, long)}.
 * <p>
 * {@code events}: FI_CNTR_EVENTS_COMP (0), the only kind defined. {@code wait_obj}: {@link WaitObj#NONE} by default
 * (as the page says, which forbids {@link Counter#await}); UNSPEC, YIELD, MUTEX_COND and FD are accepted and all
 * wait by polling (spin, yield, then park). {@code wait_set}: omitted, jfabric has no wait sets; SET is refused.
 * {@code flags}: reserved, must be 0. A plain mutable holder; not thread safe.
 */
public final class CntrAttr
{
    /** FI_CNTR_EVENTS_COMP: count successful completions. */
    public static final int FI_CNTR_EVENTS_COMP = 0;

    private int events = FI_CNTR_EVENTS_COMP;
    private WaitObj waitObj = WaitObj.NONE;
    private long flags;

    /**
     * Attributes with every field at its default, as a zeroed {@code struct fi_cntr_attr}.
     */
    public CntrAttr()
    {
    }

    /** @return the events counted. */
    public int events()
    {
        return events;
    }

    /**
     * @param events {@link #FI_CNTR_EVENTS_COMP}.
     * @return this.
     */
    public CntrAttr events(final int events)
    {
        this.events = events;
        return this;
    }

    /** @return the wait object. */
    public WaitObj waitObj()
    {
        return waitObj;
    }

    /**
     * @param waitObj how {@link Counter#await} waits.
     * @return this.
     */
    public CntrAttr waitObj(final WaitObj waitObj)
    {
        this.waitObj = waitObj;
        return this;
    }

    /** @return the flags. */
    public long flags()
    {
        return flags;
    }

    /**
     * @param flags reserved, 0.
     * @return this.
     */
    public CntrAttr flags(final long flags)
    {
        this.flags = flags;
        return this;
    }

    /** @return a copy. */
    public CntrAttr copy()
    {
        return new CntrAttr().events(events).waitObj(waitObj).flags(flags);
    }
}
