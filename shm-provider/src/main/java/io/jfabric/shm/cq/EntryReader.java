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
package io.jfabric.shm.cq;

import io.jfabric.CqEntries;
import io.jfabric.CqFormat;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.ControlledMessageHandler;

import static io.jfabric.shm.cq.CqRecordDescriptor.*;

/**
 * Takes the success entries at the head of a completion ring into the application's {@link CqEntries} (read), in the
 * queue's format; stops at an error entry, or a record that cannot be a success entry (another length), which
 * readErr then takes ({@link ErrorEntryReader}).
 * <p>
 * Threads: the queue's reader (read guard held).
 */
final class EntryReader implements ControlledMessageHandler
{
    private final CqFormat format;
    CqEntries entries;
    boolean from;
    int count;
    boolean errorAtHead;

    EntryReader(final CqFormat format)
    {
        this.format = format;
    }

    void start(final CqEntries entries, final boolean from)
    {
        this.entries = entries;
        this.from = from;
        count = 0;
        errorAtHead = false;
    }

    @Override
    public Action onMessage(final int msgTypeId, final MutableDirectBuffer b, final int index, final int length)
    {
        if (msgTypeId != ENTRY || length != ENTRY_LENGTH)
        {
            errorAtHead = count == 0; // an error entry, or a record that cannot be an entry: readErr takes it
            return Action.ABORT;
        }
        fill(format, entries, count++, from, b.getLong(index + CONTEXT_OFFSET), b.getLong(index + FLAGS_OFFSET),
            b.getLong(index + LEN_OFFSET), b.getLong(index + BUF_OFFSET_OFFSET), b.getLong(index + DATA_OFFSET),
            b.getLong(index + TAG_OFFSET), b.getLong(index + SRC_ADDR_OFFSET));
        return Action.CONTINUE;
    }

    /** Fill entry {@code i} of {@code e} with what the format has a field for. */
    static void fill(
        final CqFormat f, final CqEntries e, final int i, final boolean from, final long context, final long flags,
        final long len, final long bufOffset, final long data, final long tag, final long srcAddr)
    {
        e.opContext[i] = context;
        if (f != CqFormat.CONTEXT)
        {
            e.flags[i] = flags;
            e.len[i] = len;
            if (f != CqFormat.MSG)
            {
                e.bufOffset[i] = bufOffset;
                e.data[i] = data;
                if (f == CqFormat.TAGGED)
                {
                    e.tag[i] = tag;
                }
            }
        }
        if (from)
        {
            e.srcAddr[i] = srcAddr;
        }
    }
}
