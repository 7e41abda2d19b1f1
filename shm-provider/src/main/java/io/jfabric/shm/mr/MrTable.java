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
package io.jfabric.shm.mr;

import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.shm.core.BrokenVariant;
import io.jfabric.shm.core.ProcessIdentity;
import io.jfabric.shm.region.RegionDescriptor;
import io.jfabric.shm.region.RegionGeometry;

import org.agrona.concurrent.AtomicBuffer;

import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static io.jfabric.shm.mr.MrTableDescriptor.*;

/**
 * The domain's memory region key table (entries laid out by {@link MrTableDescriptor}) in the mapped region: an
 * open-addressed hash table from key to registration, shared by every process of the domain.
 * <p>
 * Writers (claim, publish, withdraw) hold the table lock, the holder's {@link ProcessIdentity} (pid and start time)
 * in the region header ({@link RegionDescriptor#MR_TABLE_LOCK_OFFSET}) taken with a CAS; a lock whose holder is gone
 * (exited, or its pid now names another process, as when a restarted container's JVM is pid 1 again) is taken
 * over. Holding it, a claim sees every live key on the probe path, so two processes can never claim the same
 * key. Readers ({@link #find}, the getters) take no lock: see the sequence lock in {@link MrTableDescriptor}.
 * <p>
 * Reads are named by their memory order, as JCTools names its accessors, so that a sequence-locked read of an entry
 * shows its order at the call site: {@code la} an acquire load ({@link #laControl}, which opens the window),
 * {@code lp} a plain load (the fields read inside it), {@code lv} a volatile load ({@link #lvCounter}, and
 * {@link #lvControlUnchanged}, which closes the window: a load-load fence, then the control word again).
 * <p>
 * Entries of processes that are gone without closing (same test) are withdrawn when their key is requested again, or
 * all at once when the table is full.
 * <p>
 * Keys: mr_key_size is 8, so an application may request any 64-bit key but {@code FI_KEY_NOTAVAIL} (all ones,
 * {@link #isRequestable}). With FI_MR_PROV_KEY keys come from a domain-wide sequence ({@link #nextProviderKey()},
 * counting up from 2^63, never all ones); a provider key that is in use (an application of another domain object
 * requested it) fails its claim with FI_ENOKEY and the registration draws the next one. The table is what makes
 * keys unique domain-wide: a claim holds the lock and sees every live key on its probe path.
 * <p>
 * Threads: writers from any thread (they serialise on the lock); readers from any thread.
 */
public final class MrTable
{
    private static final boolean BROKEN_FREE = BrokenVariant.active("mr.free-keeps-generation");

    /** Where the provider key sequence starts: far from the small keys applications tend to request. */
    public static final long PROVIDER_KEY_BASE = Long.MIN_VALUE;

    /** {@code FI_KEY_NOTAVAIL}: all ones, never a key. */
    private static final long KEY_NOTAVAIL = -1L;

    private static final long LOCK_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);
    private static final long LOCK_CHECK_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private final AtomicBuffer region;
    private final int entries;
    private final int tableOffset;
    private final RegionGeometry geometry;
    private final long self = ProcessIdentity.self();

    /**
     * @param region   the mapped region.
     * @param geometry its geometry.
     */
    public MrTable(final AtomicBuffer region, final RegionGeometry geometry)
    {
        this.region = region;
        this.geometry = geometry;
        this.entries = geometry.mrTableEntries();
        this.tableOffset = RegionDescriptor.mrTableOffset(geometry);
    }

    /** @return entries in the table. */
    public int entries()
    {
        return entries;
    }

    /**
     * @param key a requested key.
     * @return true when applications may request it: every 64-bit value but FI_KEY_NOTAVAIL (all ones).
     */
    public static boolean isRequestable(final long key)
    {
        return key != KEY_NOTAVAIL;
    }

    /**
     * @return the next key of the domain-wide provider sequence, never FI_KEY_NOTAVAIL; the caller's claim tells
     *         whether an application requested it already (FI_ENOKEY: draw again).
     */
    public long nextProviderKey()
    {
        long key;
        do
        {
            final long sequence = region.getAndAddLong(RegionDescriptor.MR_KEY_SEQUENCE_OFFSET, 1);
            key = PROVIDER_KEY_BASE | (sequence & Long.MAX_VALUE);
        }
        while (key == KEY_NOTAVAIL);
        return key;
    }

    /**
     * Claim an entry for {@code key}: state CLAIMED, owner this process, every other field cleared. Takes the lock.
     *
     * @param key       the key.
     * @param operation the call, for messages.
     * @return the entry index.
     * @throws FabricException {@link Errno#FI_ENOKEY} when a live entry has the key; {@link Errno#FI_ENOSPC} when
     *                         the table is full; {@link Errno#FI_EBUSY} when the lock could not be taken.
     */
    public int claim(final long key, final String operation)
    {
        lock(operation);
        try
        {
            int reusable = -1;
            final int home = home(key, entries);
            for (int probe = 0; probe < entries; probe++)
            {
                final int index = (home + probe) % entries;
                final int offset = offset(index);
                final long control = region.getLongVolatile(offset + CONTROL_OFFSET);
                final int state = state(control);
                if (state == STATE_EMPTY)
                {
                    if (reusable < 0)
                    {
                        reusable = index;
                    }
                    break;
                }
                if (state == STATE_FREE)
                {
                    if (reusable < 0)
                    {
                        reusable = index;
                    }
                    continue;
                }
                if (region.getLong(offset + KEY_OFFSET) == key)
                {
                    final long owner = region.getLong(offset + OWNER_OFFSET);
                    if (ProcessIdentity.isGone(owner))
                    {
                        // Left by a process that died: withdraw it and reuse the entry.
                        region.putLongVolatile(offset + CONTROL_OFFSET,
                            MrTableDescriptor.control(generation(control) + 1, STATE_FREE));
                        reusable = reusable < 0 ? index : reusable;
                        continue;
                    }
                    throw new FabricException(Errno.FI_ENOKEY, operation + ": key " + Long.toUnsignedString(key) +
                        " is already in use in this domain (by " + ProcessIdentity.describe(owner) + ")");
                }
            }
            if (reusable < 0)
            {
                reusable = reclaimDead();
            }
            if (reusable < 0)
            {
                throw new FabricException(Errno.FI_ENOSPC, operation + ": the domain's key table is full (" +
                    entries + " entries, jfabric.shm.mr.count); close memory regions or raise the setting");
            }
            final int offset = offset(reusable);
            final long generation = generation(region.getLongVolatile(offset + CONTROL_OFFSET));
            region.putLongVolatile(offset + CONTROL_OFFSET, MrTableDescriptor.control(generation, STATE_CLAIMED));
            region.putLong(offset + KEY_OFFSET, key);
            region.putLong(offset + OWNER_OFFSET, self);
            region.putLong(offset + SEGMENT_ID_OFFSET, 0);
            region.putInt(offset + SEGMENT_OFFSET_OFFSET, 0);
            region.putInt(offset + LENGTH_OFFSET, 0);
            region.putLong(offset + SEGMENT_NONCE_OFFSET, 0);
            region.putLong(offset + BASE_ADDRESS_OFFSET, 0);
            region.putInt(offset + ACCESS_OFFSET, 0);
            region.putIntVolatile(offset + COUNTER_OFFSET, 0);
            return reusable;
        }
        finally
        {
            unlock();
        }
    }

    /**
     * Withdraw every entry whose owner is gone ({@link ProcessIdentity#isGone}); called with the lock held when the
     * table is full.
     *
     * @return one of the entries freed, or -1 when none was.
     */
    private int reclaimDead()
    {
        int freed = -1;
        for (int index = 0; index < entries; index++)
        {
            final int offset = offset(index);
            final long control = region.getLongVolatile(offset + CONTROL_OFFSET);
            final int state = state(control);
            if ((state == STATE_CLAIMED || state == STATE_PUBLISHED) &&
                ProcessIdentity.isGone(region.getLong(offset + OWNER_OFFSET)))
            {
                region.putLongVolatile(offset + CONTROL_OFFSET, MrTableDescriptor.control(generation(control) + 1, STATE_FREE));
                freed = freed < 0 ? index : freed;
            }
        }
        return freed;
    }

    /**
     * Describe a claimed entry; plain writes, made visible by {@link #publish}. Only the claiming object calls it,
     * while the entry is CLAIMED.
     *
     * @param index         entry.
     * @param segmentId     segment id, 0 for memory no peer can map.
     * @param segmentNonce  the segment's nonce, 0 with no segment.
     * @param segmentOffset offset in the segment's data, in {@code [0, SegmentDescriptor.MAX_DATA_LENGTH)}.
     * @param length        bytes, in {@code [1, SegmentDescriptor.MAX_DATA_LENGTH]}.
     * @param baseAddress   what peers subtract from their addresses.
     * @param access        access bits.
     * @param counter       counter index + 1, or 0.
     * @param authDigest    the digest of the region's authorization key, 0 for none ({@code AuthKeyDigest}).
     */
    public void describe(
        final int index,
        final long segmentId,
        final long segmentNonce,
        final int segmentOffset,
        final int length,
        final long baseAddress,
        final int access,
        final int counter,
        final long authDigest)
    {
        final int offset = offset(index);
        region.putLong(RegionDescriptor.mrAuthDigestOffset(geometry, index), authDigest);
        region.putLong(offset + SEGMENT_ID_OFFSET, segmentId);
        region.putLong(offset + SEGMENT_NONCE_OFFSET, segmentNonce);
        region.putInt(offset + SEGMENT_OFFSET_OFFSET, segmentOffset);
        region.putInt(offset + LENGTH_OFFSET, length);
        region.putLong(offset + BASE_ADDRESS_OFFSET, baseAddress);
        region.putInt(offset + ACCESS_OFFSET, access);
        region.putInt(offset + COUNTER_OFFSET, counter);
    }

    /**
     * Make a claimed entry reachable: a release store of the control word after every field.
     *
     * @param index entry.
     */
    public void publish(final int index)
    {
        final int offset = offset(index);
        final long control = region.getLongVolatile(offset + CONTROL_OFFSET);
        region.putLongRelease(offset + CONTROL_OFFSET, MrTableDescriptor.control(generation(control), STATE_PUBLISHED));
    }

    /**
     * Make a published entry unreachable but keep its key (refresh, disable): the generation moves on, so a reader
     * that started before fails its check.
     *
     * @param index entry.
     */
    public void unpublish(final int index)
    {
        final int offset = offset(index);
        final long control = region.getLongVolatile(offset + CONTROL_OFFSET);
        region.putLongVolatile(offset + CONTROL_OFFSET, MrTableDescriptor.control(generation(control) + 1, STATE_CLAIMED));
    }

    /**
     * Withdraw an entry and give it back: first thing on close, before the memory is released.
     *
     * @param index entry.
     */
    public void free(final int index)
    {
        lock("fi_close");
        try
        {
            final int offset = offset(index);
            final long control = region.getLongVolatile(offset + CONTROL_OFFSET);
            region.putLongVolatile(offset + CONTROL_OFFSET,
                MrTableDescriptor.control(generation(control) + (BROKEN_FREE ? 0 : 1), STATE_FREE));
        }
        finally
        {
            unlock();
        }
    }

    /**
     * Find the published entry of a key. Lock free, allocation free.
     *
     * @param key the key.
     * @return the entry index, or -1 when no entry with that key is published.
     */
    public int find(final long key)
    {
        final int home = home(key, entries);
        for (int probe = 0; probe < entries; probe++)
        {
            final int index = (home + probe) % entries;
            final int offset = offset(index);
            final long control = region.getLongVolatile(offset + CONTROL_OFFSET);
            final int state = state(control);
            if (state == STATE_EMPTY)
            {
                return -1;
            }
            if (state != STATE_FREE && region.getLong(offset + KEY_OFFSET) == key)
            {
                VarHandle.loadLoadFence();
                if (region.getLongVolatile(offset + CONTROL_OFFSET) == control)
                {
                    return state == STATE_PUBLISHED ? index : -1;
                }
                probe--; // Changed under us: look at the same entry again.
            }
        }
        return -1;
    }

    /**
     * @param index entry.
     * @return its control word, an acquire load: the start of a sequence-locked read of the entry.
     */
    public long laControl(final int index)
    {
        return region.getLongAcquire(offset(index) + CONTROL_OFFSET);
    }

    /**
     * @param index   entry.
     * @param control the control word read at the start.
     * @return true when the entry still has that control word (a load-load fence, then a volatile load): the
     * fields read since are consistent.
     */
    public boolean lvControlUnchanged(final int index, final long control)
    {
        VarHandle.loadLoadFence();
        return region.getLongVolatile(offset(index) + CONTROL_OFFSET) == control;
    }

    /**
     * @param index entry.
     * @return key; a plain load, inside the sequence-locked window.
     */
    public long lpKey(final int index)
    {
        return longField(index, KEY_OFFSET);
    }

    /**
     * @param index entry.
     * @return the owner's {@link ProcessIdentity}; a plain load, inside the sequence-locked window.
     */
    public long lpOwner(final int index)
    {
        return longField(index, OWNER_OFFSET);
    }

    /**
     * @param index entry.
     * @return the owner's pid, decoded from its identity: what names its segment files.
     */
    public long lpOwnerPid(final int index)
    {
        return ProcessIdentity.pid(lpOwner(index));
    }

    /**
     * @param index entry.
     * @return segment id; a plain load, inside the sequence-locked window.
     */
    public long lpSegmentId(final int index)
    {
        return longField(index, SEGMENT_ID_OFFSET);
    }

    /**
     * @param index entry.
     * @return the segment's nonce, 0 when the entry names no segment; a plain load, inside the sequence-locked
     * window.
     */
    public long lpSegmentNonce(final int index)
    {
        return longField(index, SEGMENT_NONCE_OFFSET);
    }

    /**
     * @param index entry.
     * @return offset in the segment's data, negative only in a damaged entry; a plain load, inside the
     * sequence-locked window.
     */
    public int lpSegmentOffset(final int index)
    {
        return region.getInt(offset(index) + SEGMENT_OFFSET_OFFSET);
    }

    /**
     * @param index entry.
     * @return length, negative only in a damaged entry; a plain load, inside the sequence-locked window.
     */
    public int lpLength(final int index)
    {
        return region.getInt(offset(index) + LENGTH_OFFSET);
    }

    /**
     * @param index entry.
     * @return base address; a plain load, inside the sequence-locked window.
     */
    public long lpBaseAddress(final int index)
    {
        return longField(index, BASE_ADDRESS_OFFSET);
    }

    /**
     * @param index entry.
     * @return access bits; a plain load, inside the sequence-locked window.
     */
    public int lpAccess(final int index)
    {
        return region.getInt(offset(index) + ACCESS_OFFSET);
    }

    /**
     * @param index entry.
     * @return counter index + 1, or 0; a volatile load.
     */
    public int lvCounter(final int index)
    {
        return region.getIntVolatile(offset(index) + COUNTER_OFFSET);
    }

    /**
     * @param index entry.
     * @return the digest of its authorization key, 0 for none; a plain load, inside the sequence-locked window.
     */
    public long lpAuthDigest(final int index)
    {
        return region.getLong(RegionDescriptor.mrAuthDigestOffset(geometry, index));
    }

    private long longField(final int index, final int field)
    {
        return region.getLong(offset(index) + field);
    }

    private int offset(final int index)
    {
        if (index < 0 || index >= entries)
        {
            throw new IndexOutOfBoundsException("mr entry " + index + " not in [0, " + entries + ")");
        }
        return entryOffset(tableOffset, index);
    }

    private void lock(final String operation)
    {
        final long deadline = System.nanoTime() + LOCK_TIMEOUT_NS;
        long nextCheck = System.nanoTime(); // First check at once: a holder that is gone is common after a crash.
        while (!region.compareAndSetLong(RegionDescriptor.MR_TABLE_LOCK_OFFSET, 0, self))
        {
            final long holder = region.getLongVolatile(RegionDescriptor.MR_TABLE_LOCK_OFFSET);
            final long now = System.nanoTime();
            if (holder != 0 && now - nextCheck >= 0)
            {
                nextCheck = now + LOCK_CHECK_NS;
                if (ProcessIdentity.isGone(holder) &&
                    region.compareAndSetLong(RegionDescriptor.MR_TABLE_LOCK_OFFSET, holder, self))
                {
                    return; // Its holder died while registering (perhaps with this pid): take it over.
                }
            }
            if (now - deadline >= 0)
            {
                throw new FabricException(Errno.FI_EBUSY, operation + ": the domain's key table lock has been " +
                    "held by " + ProcessIdentity.describe(holder) + " for more than " +
                    TimeUnit.NANOSECONDS.toSeconds(LOCK_TIMEOUT_NS) + " s");
            }
            Thread.onSpinWait();
            LockSupport.parkNanos(1000);
        }
    }

    private void unlock()
    {
        region.putLongRelease(RegionDescriptor.MR_TABLE_LOCK_OFFSET, 0);
    }
}
