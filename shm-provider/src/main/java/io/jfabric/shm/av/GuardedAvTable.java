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

import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.shm.context.DomainContext;
import io.jfabric.shm.core.FidLifecycle;
import io.jfabric.shm.core.MappedFileWatch;
import io.jfabric.shm.eq.ShmEventQueue;

import java.nio.file.Path;

/**
 * An address vector's {@link AvTable} guarded against its file being truncated under the mapping by another process
 * (the JVM turns the SIGBUS of an access into an {@link InternalError}): the operations the AV uses, each catching
 * that error so that none leaves a call. The file is watched ({@link MappedFileWatch}: each heartbeat tick, and
 * whenever an error is caught); once it is found shorter than the mapping, the table <em>faults</em>: it detaches,
 * changes throw {@link FabricException} with {@link Errno#FI_EIO} naming the file, reads answer as for an entry
 * that does not exist (-1, false), and nothing touches the mapping again. The domain's event queue, if bound, gets
 * one error event (FI_EIO, the AV as fid) naming the file.
 * <p>
 * The JVM raises the error of a compiled access at the thread's next safepoint poll, so a caught error may be an
 * earlier access's, to another file: the watch decides which file is short; only when none is found is this table
 * taken for the culprit. A table in process memory (an unnamed AV) has no file and never faults.
 * <p>
 * Any thread, as {@link AvTable}.
 */
final class GuardedAvTable
{
    private final AvTable table;
    /** Why the table faulted (its file was truncated under the mapping), or null. */
    private volatile String fault;
    private String file;
    private DomainContext domain;
    private FidLifecycle av;
    /** The heartbeat's watch of the file, kept here so that the watch (which holds it weakly) keeps it. */
    private MappedFileWatch.Watched watch;

    /**
     * @param table the table.
     */
    GuardedAvTable(final AvTable table)
    {
        this.table = table;
    }

    /** @return the table itself, for tests. */
    AvTable raw()
    {
        return table;
    }

    /**
     * Watch the file the table is mapped from, and say where a fault is reported. Control path, before the table is
     * shared with other threads.
     *
     * @param file   the file.
     * @param domain its domain, whose event queue gets the report.
     * @param av     the AV, the report's fid.
     * @param mapped the bytes mapped from the file's start.
     */
    void reportFaults(final Path file, final DomainContext domain, final FidLifecycle av, final long mapped)
    {
        this.file = file.toString();
        this.domain = domain;
        this.av = av;
        watch = new MappedFileWatch.Watched()
        {
            @Override
            public Path file()
            {
                return file;
            }

            @Override
            public long mappedLength()
            {
                return mapped;
            }

            @Override
            public void truncated(final long fileLength)
            {
                faulted("address vector file " + file + " was truncated from " + mapped + " to " + fileLength +
                    " bytes by another process: the AV is unusable in this process (lookups and changes fail with " +
                    "FI_EIO, sends to its addresses with FI_EINVAL); close it");
            }
        };
        MappedFileWatch.watch(watch);
    }

    /** @return why the table faulted, naming its file, or null. */
    String fault()
    {
        return fault;
    }

    /** @return entries of the table; 0 once detached or faulted. */
    int entryCount()
    {
        return table.entryCount();
    }

    /** Detach ({@link AvTable#detach}) and stop watching the file. */
    void detach()
    {
        table.detach();
        if (watch != null)
        {
            MappedFileWatch.unwatch(watch);
        }
    }

    /** {@link AvTable#claim}. @throws FabricException FI_EIO once the table faulted. */
    int claim()
    {
        usable("claiming an AV entry");
        try
        {
            return table.claim();
        }
        catch (final InternalError ex)
        {
            throw faultedException(ex, "claiming an AV entry");
        }
    }

    /** {@link AvTable#publishAddress}. @throws FabricException FI_EIO once the table faulted. */
    void publishAddress(
        final int index, final byte[] address, final int slot, final long incarnation, final long userId,
        final long authKey, final long authKeyGeneration)
    {
        usable("publishing an AV entry");
        try
        {
            table.publishAddress(index, address, slot, incarnation, userId, authKey, authKeyGeneration);
        }
        catch (final InternalError ex)
        {
            throw faultedException(ex, "publishing an AV entry");
        }
    }

    /** {@link AvTable#publishKey}. @throws FabricException FI_EIO once the table faulted. */
    void publishKey(final int index, final byte[] key)
    {
        usable("publishing an AV key");
        try
        {
            table.publishKey(index, key);
        }
        catch (final InternalError ex)
        {
            throw faultedException(ex, "publishing an AV key");
        }
    }

    /** {@link AvTable#remove}. @throws FabricException FI_EIO once the table faulted. */
    int remove(final int index, final long generation)
    {
        usable("removing an AV entry");
        try
        {
            return table.remove(index, generation);
        }
        catch (final InternalError ex)
        {
            throw faultedException(ex, "removing an AV entry");
        }
    }

    /** {@link AvTable#addReference}. @throws FabricException FI_EIO once the table faulted. */
    boolean addReference(final int index, final long generation)
    {
        usable("referencing an AV key");
        try
        {
            return table.addReference(index, generation);
        }
        catch (final InternalError ex)
        {
            throw faultedException(ex, "referencing an AV key");
        }
    }

    /** {@link AvTable#dropReference}; false, changing nothing, once the table faulted. */
    boolean dropReference(final int index, final long generation)
    {
        try
        {
            return fault == null && table.dropReference(index, generation);
        }
        catch (final InternalError ex)
        {
            faulted(ex);
            return false;
        }
    }

    /** {@link AvTable#userId}. @throws FabricException FI_EIO once the table faulted. */
    int userId(final int index, final long generation, final long userId)
    {
        usable("setting an AV user id");
        try
        {
            return table.userId(index, generation, userId);
        }
        catch (final InternalError ex)
        {
            throw faultedException(ex, "setting an AV user id");
        }
    }

    /** {@link AvTable#snapshot}, for any index; false once the table faulted. Either path: never throws. */
    boolean snapshot(final int index, final AvTable.Entry out)
    {
        try
        {
            return fault == null && index >= 0 && index < table.entryCount() && table.snapshot(index, out);
        }
        catch (final InternalError ex)
        {
            faulted(ex);
            return false;
        }
    }

    /** Data path: {@link AvTable#stateWord}; -1 once the table faulted. */
    long stateWord(final int index)
    {
        try
        {
            return table.stateWord(index);
        }
        catch (final InternalError ex)
        {
            faulted(ex);
            return -1;
        }
    }

    /** Data path: {@link AvTable#slot}; -1 once the table faulted. */
    int slot(final int index)
    {
        try
        {
            return table.slot(index);
        }
        catch (final InternalError ex)
        {
            faulted(ex);
            return -1;
        }
    }

    /** Data path: {@link AvTable#incarnation}; -1 once the table faulted. */
    long incarnation(final int index)
    {
        try
        {
            return table.incarnation(index);
        }
        catch (final InternalError ex)
        {
            faulted(ex);
            return -1;
        }
    }

    private void usable(final String what)
    {
        if (fault != null)
        {
            throw new FabricException(Errno.FI_EIO, what + ": " + fault);
        }
    }

    /** A change met the error: find the culprit, and refuse the change. */
    private FabricException faultedException(final InternalError ex, final String what)
    {
        faulted(ex);
        return new FabricException(Errno.FI_EIO, what + ": " + (fault != null ? fault :
            "a mapped file faulted (" + ex.getMessage() + ")"));
    }

    /**
     * The error was caught here: the files found short fail ({@link MappedFileWatch#check()}, this one included
     * when it is); only when none is found is a table mapped from a file taken for the culprit.
     */
    private void faulted(final InternalError ex)
    {
        if (MappedFileWatch.check() == 0 && file != null)
        {
            faulted("address vector file " + (file != null ? file : "(process memory)") + " faulted: was it " +
                "truncated by another process? (" + ex.getMessage() + "); the AV is unusable in this process " +
                "(lookups and changes fail with FI_EIO, sends to its addresses with FI_EINVAL); close it");
        }
    }

    /** Fault: detach, remember why, report it once. Error path (allocates). */
    private void faulted(final String detail)
    {
        synchronized (this)
        {
            if (fault != null)
            {
                return;
            }
            fault = detail;
            table.detach();
        }
        final ShmEventQueue eq = domain == null ? null : domain.eventQueue();
        if (eq != null)
        {
            eq.postError(av, av.context(), 0, Errno.FI_EIO, Errno.FI_EIO, detail);
        }
    }
}
