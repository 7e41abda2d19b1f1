package io.jfabric.shm.av;

import io.jfabric.shm.ProcessIdentity;
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
    /** A consistent copy of one entry, filled by {@link #snapshot}; control path, one per caller. */
    public static final class Entry
    {
        /** The VALID state the copy belongs to. */
        public long state;
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
        /** References to a key entry. */
        public long references;
        /** Address or key bytes, the first {@link #length} valid. */
        public final byte[] bytes = new byte[ADDRESS_CAPACITY];
    }

    private final AtomicBuffer buffer;
    private final AvHeader header;
    private final long self;
    private int entryCount;

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

    /** @return entries of the table; 0 once {@link #detach detached}. */
    public int entryCount()
    {
        return entryCount;
    }

    /** Make every later lookup fail (-1), before the buffer goes away. */
    public void detach()
    {
        entryCount = 0;
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
            if (state == FREE && buffer.compareAndSetLong(offset + STATE_OFFSET, FREE, claimed(self)))
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
     */
    public void publishAddress(
        final int index, final byte[] address, final int slot, final long incarnation, final long userId,
        final long authKey)
    {
        final int offset = entryOffset(index);
        writeFields(offset, KIND_ADDRESS, address, slot, incarnation, userId, authKey);
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
        writeFields(offset, KIND_AUTH_KEY, key, -1, 0, -1L, -1);
        buffer.putLongRelease(offset + STATE_OFFSET, valid(header.nextGeneration()));
    }

    private void writeFields(
        final int offset, final int kind, final byte[] bytes, final int slot, final long incarnation,
        final long userId, final long authKey)
    {
        buffer.putInt(offset + KIND_OFFSET, kind);
        buffer.putInt(offset + ADDRESS_LENGTH_OFFSET, bytes.length);
        buffer.putInt(offset + SLOT_OFFSET, slot);
        buffer.putLong(offset + INCARNATION_OFFSET, incarnation);
        buffer.putLong(offset + USER_ID_OFFSET, userId);
        buffer.putLong(offset + AUTH_KEY_OFFSET, authKey);
        buffer.putLong(offset + REFERENCES_OFFSET, 0);
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
     * Remove a VALID entry: CAS its state from the VALID value a snapshot saw to FREE.
     *
     * @param index the entry.
     * @param state the VALID state it had.
     * @return true when this call removed it; false when it changed meanwhile.
     */
    public boolean remove(final int index, final long state)
    {
        return buffer.compareAndSetLong(entryOffset(index) + STATE_OFFSET, state, FREE);
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
            out.references = buffer.getLongVolatile(offset + REFERENCES_OFFSET);
            buffer.getBytes(offset + ADDRESS_OFFSET, out.bytes, 0, out.length);
            VarHandle.acquireFence();
            if (buffer.getLongVolatile(offset + STATE_OFFSET) == state)
            {
                out.state = state;
                return true;
            }
        }
    }

    /**
     * Data path: the endpoint slot of an address entry, without allocating.
     *
     * @param index the entry index (any int; out of range gives -1).
     * @return the slot, or -1 when the index is out of range or the entry is not a VALID address.
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
     * Add to a key entry's references.
     *
     * @param index the key entry.
     * @param delta +1 or -1.
     */
    public void addReferences(final int index, final long delta)
    {
        buffer.getAndAddLong(entryOffset(index) + REFERENCES_OFFSET, delta);
    }

    /**
     * @param index an entry.
     * @return its state now (acquire).
     */
    public long state(final int index)
    {
        return buffer.getLongAcquire(entryOffset(index) + STATE_OFFSET);
    }

    /**
     * Set the user id of an entry.
     *
     * @param index  the entry.
     * @param userId the id.
     */
    public void userId(final int index, final long userId)
    {
        buffer.putLongVolatile(entryOffset(index) + USER_ID_OFFSET, userId);
    }
}
