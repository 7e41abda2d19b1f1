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
package io.jfabric.shm.av;

import io.jfabric.shm.core.ProcessIdentity;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.locks.LockSupport;

/**
 * A child process frozen in the middle of fi_av_set_user_id: maps a named AV file, takes one entry's updater word
 * and updating bit exactly as {@link AvTable#userId} does, then never writes nor clears them, until it is killed.
 * <p>
 * Arguments: AV file, entry index.
 */
public final class AvUpdaterHolderMain
{
    private AvUpdaterHolderMain()
    {
    }

    /**
     * @param args see the class description.
     * @throws Exception on any failure (the parent sees the exit code and output).
     */
    public static void main(final String[] args) throws Exception
    {
        final Path file = Path.of(args[0]);
        final int index = Integer.parseInt(args[1]);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            final MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, channel.size());
            final UnsafeBuffer buffer = new UnsafeBuffer(mapped);
            final int entry = AvDescriptor.entryOffset(index);
            if (!buffer.compareAndSetLong(entry + AvDescriptor.UPDATER_OFFSET, 0, ProcessIdentity.self()))
            {
                throw new IllegalStateException("updater word of entry " + index + " is held");
            }
            while (true)
            {
                final long state = buffer.getLongVolatile(entry + AvDescriptor.STATE_OFFSET);
                if (!AvDescriptor.isValid(state) || AvDescriptor.isUpdating(state))
                {
                    throw new IllegalStateException("entry " + index + " is not a VALID idle entry: " + state);
                }
                if (buffer.compareAndSetLong(entry + AvDescriptor.STATE_OFFSET, state, state | AvDescriptor.UPDATING))
                {
                    break;
                }
            }
            while (true)
            {
                LockSupport.parkNanos(1_000_000_000L);
            }
        }
    }
}
