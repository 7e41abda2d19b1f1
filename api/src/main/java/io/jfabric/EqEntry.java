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
 * One event of an event queue: the event type ({@code uint32_t *event} of {@code fi_eq_read}) together with
 * {@code struct fi_eq_entry} (fid, context, data), fi_eq(3).
 * <p>
 * A reusable mutable holder, so that reading events allocates nothing: the application keeps one and passes it
 * to {@link EventQueue#read(EqEntry, long)} or {@link EventQueue#sread(EqEntry, int, long)}, which overwrite
 * every field, or fills it for {@link EventQueue#write(int, EqEntry, long)}, which takes the event type as its
 * own argument, as {@code fi_eq_write} does, and ignores {@link #event()}.
 * <p>
 * Connection-management entries ({@code struct fi_eq_cm_entry}: info and connection data) are not modelled:
 * the shm provider has no connection-oriented endpoints, so it never reports FI_CONNREQ, FI_CONNECTED or
 * FI_SHUTDOWN. Not thread safe: one holder per reading thread.
 */
public final class EqEntry
{
    private int event;
    private Fid fid;
    private long context;
    private long data;

    /**
     * An empty entry: event 0 (FI_NOTIFY), no fid, context and data 0.
     */
    public EqEntry()
    {
    }

    /**
     * @return the event type, such as {@link EqEvent#MR_COMPLETE}'s {@link EqEvent#value()}.
     */
    public int event()
    {
        return event;
    }

    /**
     * @param event the event type; set by reads.
     * @return this.
     */
    public EqEntry event(final int event)
    {
        this.event = event;
        return this;
    }

    /**
     * @return the object the event concerns ({@code fid}): the MR of FI_MR_COMPLETE, the AV of FI_AV_COMPLETE,
     * or whatever the application wrote.
     */
    public Fid fid()
    {
        return fid;
    }

    /**
     * @param fid the object the event concerns ({@code fid}).
     * @return this.
     */
    public EqEntry fid(final Fid fid)
    {
        this.fid = fid;
        return this;
    }

    /**
     * @return the context of the operation that generated the event ({@code context}); 0 when it had none.
     */
    public long context()
    {
        return context;
    }

    /**
     * @param context the context of the operation that generated the event ({@code context}).
     * @return this.
     */
    public EqEntry context(final long context)
    {
        this.context = context;
        return this;
    }

    /**
     * @return the event-specific data ({@code data}), as the generating object's page describes (fi_av(3) for
     * FI_AV_COMPLETE: the number of addresses inserted).
     */
    public long data()
    {
        return data;
    }

    /**
     * @param data the event-specific data ({@code data}).
     * @return this.
     */
    public EqEntry data(final long data)
    {
        this.data = data;
        return this;
    }

    /**
     * Set every field at once.
     *
     * @param event   the event type.
     * @param fid     the object the event concerns.
     * @param context the operation's context.
     * @param data    the event-specific data.
     * @return this.
     */
    public EqEntry set(final int event, final Fid fid, final long context, final long data)
    {
        this.event = event;
        this.fid = fid;
        this.context = context;
        this.data = data;
        return this;
    }

    /**
     * Reset every field to the state of a new entry.
     *
     * @return this.
     */
    public EqEntry clear()
    {
        return set(0, null, 0, 0);
    }

    /**
     * @return the entry for logs, with the event's libfabric name where it has one.
     */
    public String toString()
    {
        final EqEvent known = EqEvent.of(event);
        return "fi_eq_entry: { event: " + (known != null ? known.cName() : Integer.toUnsignedString(event)) +
            ", fid: " + fid + ", context: 0x" + Long.toHexString(context) + ", data: " + data + " }";
    }
}
