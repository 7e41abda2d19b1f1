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

import io.jfabric.shm.core.BrokenVariant;
import io.jfabric.shm.core.ProcessIdentity;

import org.agrona.concurrent.AtomicBuffer;

import java.lang.invoke.VarHandle;

import static io.jfabric.shm.av.AvDescriptor.*;

/**
 * The entries of an address vector table (layout and protocol in {@link AvDescriptor}) over a buffer that holds the
 * header and every entry: the mapped file of a named AV or process-private memory. Lock free: every change is a CAS
 * or a release store on an entry's state word, so processes and threads insert, remove and read concurrently, two
 * inserters never claim the same entry and a reader never returns a mix of two publications.
 * <p>
 * Any thread of any process. Nothing here allocates except {@link #snapshot}'s callers' buffers.
 */
public final class AvTable
{
    /** {@link #remove}: removed by this call. */
    public static final int REMOVED = 0;
    /** {@link #remove}: not removed, the entry is no longer the publication named (removed or replaced). */
    public static final int GONE = 1;
    /** {@link #remove}: not removed, a key entry that addresses still reference. */
    public static final int IN_USE = 2;
    /** {@link #remove} and {@link #userId}: not done, another writer held the updating bit past the bound. */
    public static final int STUCK = 3;
    /** {@link #userId}: the user id was written. */
    public static final int SET = REMOVED;

    /**
     * How long a remover or user id writer waits for another's updating bit before giving up (a live holder gives
     * STUCK after it): a descheduled thread of a loaded host holds it for tens of milliseconds, so the bound is 1 s.
     */
    private static final long UPDATING_WAIT_NS = 1_000_000_000L;

    /** A consistent copy of one entry, filled by {@link #snapshot}; control path, one per caller. */
    public static final class Entry
    {
        /** The VALID state the copy belongs to. */
        public long state;
        /** Its generation: names this publication of the entry. */
        public long generation;
        /** The entry's kind. */
        public int kind;
        /** Address or key length. */
        public int length;
        /** Endpoint slot. */
        public int slot;
        /** Incarnation. */
        public long incarnation;
        /** User id. */
        public long userId;
        /** Auth key entry index, -1 for none. */
        public long authKey;
        /** Generation of that auth key entry. */
        public long authKeyGeneration;
        /** References to a key entry (from its state word). */
        public long references;
        /** Address or key bytes, the first {@link #length} valid. */
        public final byte[] bytes = new byte[ADDRESS_CAPACITY];
    }

    private final AtomicBuffer buffer;
    private final AvHeader header;
    private final long self;
    private volatile int entryCount;

    /**
     * @param buffer     header and entries.
     * @param entryCount entries.
     */
    public AvTable(final AtomicBuffer buffer, final int entryCount)
    {
        this.buffer = buffer;
        this.header = new AvHeader(buffer);
        this.entryCount = entryCount;
        this.self = ProcessIdentity.self();
    }

    /**
     * A table in memory of this process only (tests, stress tests): write an empty header for {@code entryCount}
     * entries, mark it ready, and wrap it.
     *
     * @param buffer     at least {@link AvDescriptor#fileLength(int)} zeroed bytes.
     * @param entryCount entries.
     * @param domainName the domain recorded in the header.
     * @return the table.
     */
    public static AvTable inMemory(final AtomicBuffer buffer, final int entryCount, final String domainName)
    {
        final AvHeader header = new AvHeader(buffer);
        header.write(entryCount, 0, domainName, "");
        header.publishReady();
        return new AvTable(buffer, entryCount);
    }

    /** @return entries of the table; 0 once {@link #detach detached}. */
    public int entryCount()
    {
        return entryCount;
    }

    /**
     * Make every later lookup fail (-1) and every later claim find no entry. The buffer is not released here: a
     * reader of another thread that passed its bounds check before may still read it (stale, but mapped).
     */
    public void detach()
    {
        entryCount = 0;
    }

    private static final boolean BROKEN_CLAIM = BrokenVariant.active("av.claim-plain");
    private static final boolean BROKEN_ADD_REFERENCE = BrokenVariant.active("av.addref-plain");
    private static final boolean BROKEN_SNAPSHOT = BrokenVariant.active("av.snapshot-no-recheck");

    private boolean claimState(final int stateOffset)
    {
        if (BROKEN_CLAIM)
        {
            buffer.putLongVolatile(stateOffset, claimed(self));
            return true;
        }
        return buffer.compareAndSetLong(stateOffset, FREE, claimed(self));
    }

    /**
     * Claim the lowest FREE entry: CAS its state from FREE to CLAIMED by this process. A CLAIMED entry whose
     * claimer is gone ({@link ProcessIdentity#isGone}: exited, or its pid now names another process) is set back to
     * FREE on the way. Control path: the liveness check reads /proc for each CLAIMED entry met.
     *
     * @return the index claimed, or -1 when every entry is in use.
     */
    public int claim()
    {
        final int count = entryCount;
        for (int i = 0; i < count; i++)
        {
            final int offset = entryOffset(i);
            long state = buffer.getLongVolatile(offset + STATE_OFFSET);
            if (isClaimed(state) && ProcessIdentity.isGone(claimer(state)) &&
                buffer.compareAndSetLong(offset + STATE_OFFSET, state, FREE))
            {
                state = FREE;
            }
            if (state == FREE && claimState(offset + STATE_OFFSET))
            {
                VarHandle.storeStoreFence(); // The claim is seen before any field this claimer writes.
                return i;
            }
        }
        return -1;
    }

    /**
     * Publish a claimed entry as an endpoint address.
     *
     * @param index       the claimed entry.
     * @param address     the address bytes, at most {@link AvDescriptor#ADDRESS_CAPACITY}.
     * @param slot        its slot.
     * @param incarnation its incarnation.
     * @param userId      its user id.
     * @param authKey     the auth key entry index, -1 for none.
     * @param authKeyGeneration that key entry's generation, on which the caller holds a reference.
     */
    public void publishAddress(
        final int index, final byte[] address, final int slot, final long incarnation, final long userId,
        final long authKey, final long authKeyGeneration)
    {
        final int offset = entryOffset(index);
        writeFields(offset, KIND_ADDRESS, address, slot, incarnation, userId, authKey, authKeyGeneration);
        buffer.putLongRelease(offset + STATE_OFFSET, valid(header.nextGeneration()));
    }

    /**
     * Publish a claimed entry as an authorization key.
     *
     * @param index the claimed entry.
     * @param key   the key bytes.
     */
    public void publishKey(final int index, final byte[] key)
    {
        final int offset = entryOffset(index);
        writeFields(offset, KIND_AUTH_KEY, key, -1, 0, -1L, -1, 0);
        buffer.putLongRelease(offset + STATE_OFFSET, valid(header.nextGeneration()));
    }

    private void writeFields(
        final int offset, final int kind, final byte[] bytes, final int slot, final long incarnation,
        final long userId, final long authKey, final long authKeyGeneration)
    {
        buffer.putInt(offset + KIND_OFFSET, kind);
        buffer.putInt(offset + ADDRESS_LENGTH_OFFSET, bytes.length);
        buffer.putInt(offset + SLOT_OFFSET, slot);
        buffer.putLong(offset + INCARNATION_OFFSET, incarnation);
        buffer.putLong(offset + USER_ID_OFFSET, userId);
        buffer.putLong(offset + AUTH_KEY_OFFSET, authKey);
        buffer.putLong(offset + AUTH_KEY_GENERATION_OFFSET, authKeyGeneration);
        buffer.putBytes(offset + ADDRESS_OFFSET, bytes);
    }

    /**
     * Give back an entry this process claimed and will not publish.
     *
     * @param index the claimed entry.
     */
    public void abandon(final int index)
    {
        buffer.compareAndSetLong(entryOffset(index) + STATE_OFFSET, claimed(self), FREE);
    }

    /**
     * Remove a VALID entry: CAS its state from VALID with the generation a snapshot saw, no references and not
     * updating, to FREE. Waits (bounded) while a user id is being written; past the bound, an updating bit whose
     * updater ({@link AvDescriptor#UPDATER_OFFSET}) is gone is cleared and the removal goes on, while a live
     * updater gives {@link #STUCK}.
     *
     * @param index      the entry.
     * @param generation the generation it had.
     * @return {@link #REMOVED}, {@link #GONE}, {@link #IN_USE} (a key with references) or {@link #STUCK}.
     */
    public int remove(final int index, final long generation)
    {
        final int offset = entryOffset(index) + STATE_OFFSET;
        long deadline = 0;
        while (true)
        {
            final long state = buffer.getLongVolatile(offset);
            if (!isValid(state) || generation(state) != generation)
            {
                return GONE;
            }
            if (references(state) > 0)
            {
                return IN_USE;
            }
            if (isUpdating(state))
            {
                deadline = awaitUpdate(deadline);
                if (deadline < 0)
                {
                    final int entry = offset - STATE_OFFSET;
                    final long updater = buffer.getLongVolatile(entry + UPDATER_OFFSET);
                    if (!ProcessIdentity.isGone(updater))
                    {
                        return STUCK;
                    }
                    if (buffer.compareAndSetLong(entry + UPDATER_OFFSET, updater, self))
                    {
                        clearUpdatingBit(entry);
                        buffer.putLongRelease(entry + UPDATER_OFFSET, 0);
                    }
                    deadline = 0;
                }
            }
            else if (buffer.compareAndSetLong(offset, state, FREE))
            {
                return REMOVED;
            }
        }
    }

    /**
     * Add a reference to a key entry, only while it is still the publication named.
     *
     * @param index      the key entry.
     * @param generation the generation validated.
     * @return true when the reference was added; false when the key was removed or replaced meanwhile.
     */
    public boolean addReference(final int index, final long generation)
    {
        final int offset = entryOffset(index) + STATE_OFFSET;
        while (true)
        {
            final long state = buffer.getLongVolatile(offset);
            if (!isValid(state) || generation(state) != generation || references(state) == MAX_REFERENCES)
            {
                return false;
            }
            if (BROKEN_ADD_REFERENCE)
            {
                buffer.putLongVolatile(offset, state + REFERENCE);
                return true;
            }
            if (buffer.compareAndSetLong(offset, state, state + REFERENCE))
            {
                return true;
            }
        }
    }

    /**
     * Give back a reference taken with {@link #addReference}; a stale one (the key is another publication now)
     * changes nothing.
     *
     * @param index      the key entry.
     * @param generation the generation the reference was taken on.
     * @return true when a reference was given back.
     */
    public boolean dropReference(final int index, final long generation)
    {
        final int offset = entryOffset(index) + STATE_OFFSET;
        while (true)
        {
            final long state = buffer.getLongVolatile(offset);
            if (!isValid(state) || generation(state) != generation || references(state) == 0)
            {
                return false;
            }
            if (buffer.compareAndSetLong(offset, state, state - REFERENCE))
            {
                return true;
            }
        }
    }

    /**
     * Set the user id of an entry, only while it is still the publication named: take the entry's updater word
     * ({@link AvDescriptor#UPDATER_OFFSET}) with a CAS from 0 to this process's identity, take the updating bit with
     * a CAS from that generation, write, clear the bit, give the updater word back. An updater word held past the
     * bound by a process that is gone (killed while updating) is taken over, and any updating bit it left cleared.
     *
     * @param index      the entry.
     * @param generation the generation validated.
     * @param userId     the id.
     * @return {@link #SET}, {@link #GONE} or {@link #STUCK} (a live updater held the entry past the bound).
     */
    public int userId(final int index, final long generation, final long userId)
    {
        final int offset = entryOffset(index);
        if (!acquireUpdater(offset, generation))
        {
            return isPublication(offset, generation) ? STUCK : GONE;
        }
        try
        {
            clearUpdatingBit(offset);
            while (true)
            {
                final long state = buffer.getLongVolatile(offset + STATE_OFFSET);
                if (!isValid(state) || generation(state) != generation)
                {
                    return GONE;
                }
                if (buffer.compareAndSetLong(offset + STATE_OFFSET, state, state | UPDATING))
                {
                    buffer.putLongVolatile(offset + USER_ID_OFFSET, userId);
                    clearUpdatingBit(offset);
                    return SET;
                }
            }
        }
        finally
        {
            buffer.putLongRelease(offset + UPDATER_OFFSET, 0);
        }
    }

    /**
     * Take an entry's updater word while the entry is the publication named: CAS 0 to this process, or, past the
     * bound, from a holder that is gone.
     *
     * @return true when this process holds it; false when the entry is another publication or a live holder kept
     * it past the bound.
     */
    private boolean acquireUpdater(final int offset, final long generation)
    {
        long deadline = 0;
        while (isPublication(offset, generation))
        {
            final long updater = buffer.getLongVolatile(offset + UPDATER_OFFSET);
            if (updater == 0)
            {
                if (buffer.compareAndSetLong(offset + UPDATER_OFFSET, 0, self))
                {
                    return true;
                }
            }
            else
            {
                deadline = awaitUpdate(deadline);
                if (deadline < 0)
                {
                    if (!ProcessIdentity.isGone(updater))
                    {
                        return false;
                    }
                    if (buffer.compareAndSetLong(offset + UPDATER_OFFSET, updater, self))
                    {
                        return true;
                    }
                    deadline = 0;
                }
            }
        }
        return false;
    }

    private boolean isPublication(final int offset, final long generation)
    {
        final long state = buffer.getLongVolatile(offset + STATE_OFFSET);
        return isValid(state) && generation(state) == generation;
    }

    /**
     * Clear the updating bit of an entry whose updater word this process holds: the bit is then this process's own
     * (after its write) or was left by a holder that is gone, since only the updater word's holder sets it.
     */
    private void clearUpdatingBit(final int offset)
    {
        while (true)
        {
            final long state = buffer.getLongVolatile(offset + STATE_OFFSET);
            if (!isValid(state) || !isUpdating(state) ||
                buffer.compareAndSetLong(offset + STATE_OFFSET, state, state & ~UPDATING))
            {
                return;
            }
        }
    }

    private static long awaitUpdate(final long deadline)
    {
        final long now = System.nanoTime();
        if (deadline == 0)
        {
            return now + UPDATING_WAIT_NS;
        }
        Thread.onSpinWait();
        return now - deadline > 0 ? -1 : deadline;
    }

    /**
     * Copy one entry consistently: the fields of one publication, never a mix.
     *
     * @param index the entry, in range.
     * @param out   receives the copy.
     * @return true when the entry is VALID (out filled); false when it is FREE or CLAIMED.
     */
    public boolean snapshot(final int index, final Entry out)
    {
        final int offset = entryOffset(index);
        while (true)
        {
            final long state = buffer.getLongAcquire(offset + STATE_OFFSET);
            if (!isValid(state))
            {
                return false;
            }
            out.kind = buffer.getInt(offset + KIND_OFFSET);
            out.length = Math.max(0, Math.min(ADDRESS_CAPACITY, buffer.getInt(offset + ADDRESS_LENGTH_OFFSET)));
            out.slot = buffer.getInt(offset + SLOT_OFFSET);
            out.incarnation = buffer.getLong(offset + INCARNATION_OFFSET);
            out.userId = buffer.getLongVolatile(offset + USER_ID_OFFSET);
            out.authKey = buffer.getLong(offset + AUTH_KEY_OFFSET);
            out.authKeyGeneration = buffer.getLong(offset + AUTH_KEY_GENERATION_OFFSET);
            buffer.getBytes(offset + ADDRESS_OFFSET, out.bytes, 0, out.length);
            VarHandle.acquireFence();
            if (BROKEN_SNAPSHOT || buffer.getLongVolatile(offset + STATE_OFFSET) == state)
            {
                out.state = state;
                out.generation = generation(state);
                out.references = references(state);
                return true;
            }
        }
    }

    /**
     * Data path: an entry's state word (state and generation), one volatile read: it changes whenever the entry
     * does, so a reader that cached what it resolved from an entry can check the cache with it.
     *
     * @param index the entry index (any int; out of range gives -1).
     * @return the state word, or -1 when the index is out of range.
     */
    public long stateWord(final int index)
    {
        return index < 0 || index >= entryCount ? -1 : buffer.getLongVolatile(entryOffset(index) + STATE_OFFSET);
    }

    /**
     * Data path: the slot of an address entry, without allocating.
     *
     * @param index the entry index.
     * @return the slot, or -1 when not a VALID address.
     */
    public int slot(final int index)
    {
        return (int)addressField(index, SLOT_OFFSET);
    }

    /**
     * Data path: the incarnation of an address entry, without allocating.
     *
     * @param index the entry index.
     * @return the incarnation (0 for none), or -1 when not a VALID address.
     */
    public long incarnation(final int index)
    {
        return addressField(index, INCARNATION_OFFSET);
    }

    /**
     * One field of a VALID address entry, read between two equal loads of its state (see {@link AvDescriptor}).
     *
     * @param index       the entry index.
     * @param fieldOffset {@link AvDescriptor#SLOT_OFFSET} (an int) or {@link AvDescriptor#INCARNATION_OFFSET}.
     * @return the field, or -1.
     */
    private long addressField(final int index, final int fieldOffset)
    {
        if (index < 0 || index >= entryCount)
        {
            return -1;
        }
        final int offset = entryOffset(index);
        while (true)
        {
            final long state = buffer.getLongAcquire(offset + STATE_OFFSET);
            if (!isValid(state))
            {
                return -1;
            }
            final int kind = buffer.getInt(offset + KIND_OFFSET);
            final long value = fieldOffset == SLOT_OFFSET ?
                buffer.getInt(offset + SLOT_OFFSET) : buffer.getLong(offset + fieldOffset);
            VarHandle.acquireFence();
            if (buffer.getLongVolatile(offset + STATE_OFFSET) == state)
            {
                return kind == KIND_ADDRESS ? value : -1;
            }
        }
    }

    /**
     * @param index an entry.
     * @return its state now (acquire).
     */
    public long state(final int index)
    {
        return buffer.getLongAcquire(entryOffset(index) + STATE_OFFSET);
    }
}
