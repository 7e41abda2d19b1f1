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

import io.jfabric.CqErrEntry;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.ControlledMessageHandler;

import java.util.Arrays;

import static io.jfabric.shm.cq.CqRecordDescriptor.*;

/**
 * Takes the error entry at the head of a completion ring into the application's {@link CqErrEntry} (readErr): a
 * record that cannot be an entry (another type, an error entry with no errno or error data past its end, a success
 * entry of another length) is handed as an error entry of its own ({@link CompletionRingFaults#damagedRecord}), never
 * as one with err 0. A success entry at the head stays.
 * <p>
 * Threads: the queue's reader (read guard held).
 */
final class ErrorEntryReader implements ControlledMessageHandler
{
private final CompletionRingFaults faults;
CqErrEntry entry;
boolean found;

ErrorEntryReader(final CompletionRingFaults faults)
{
    this.faults = faults;
}

    @Override
    public Action onMessage(final int msgTypeId, final MutableDirectBuffer b, final int index, final int length)
    {
        if (msgTypeId == ENTRY && length == ENTRY_LENGTH)
        {
            return Action.ABORT;
        }
        found = true;
        if (msgTypeId != ERROR || length < ERR_DATA_OFFSET || b.getInt(index + ERR_OFFSET) <= 0 ||
            b.getInt(index + ERR_DATA_LENGTH_OFFSET) < 0 ||
            b.getInt(index + ERR_DATA_LENGTH_OFFSET) > length - ERR_DATA_OFFSET)
        {
            faults.damagedRecord(entry, msgTypeId, length);
            return Action.COMMIT;
        }
        final CqErrEntry e = entry;
        e.opContext = b.getLong(index + CONTEXT_OFFSET);
        e.flags = b.getLong(index + FLAGS_OFFSET);
        e.len = b.getLong(index + LEN_OFFSET);
        e.bufOffset = b.getLong(index + BUF_OFFSET_OFFSET);
        e.data = b.getLong(index + DATA_OFFSET);
        e.tag = b.getLong(index + TAG_OFFSET);
        e.srcAddr = b.getLong(index + SRC_ADDR_OFFSET);
        e.olen = b.getLong(index + OLEN_OFFSET);
        e.err = b.getInt(index + ERR_OFFSET);
        e.provErrno = b.getInt(index + PROV_ERRNO_OFFSET);
        final int n = Math.min(b.getInt(index + ERR_DATA_LENGTH_OFFSET), e.errData.length);
        b.getBytes(index + ERR_DATA_OFFSET, e.errData, 0, n);
        Arrays.fill(e.errData, n, e.errData.length, (byte)0);
        e.errDataSize = n;
        return Action.COMMIT;
    }
}
