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

import org.agrona.concurrent.UnsafeBuffer;

/**
 * One key table entry as {@link RemoteMemory}'s resolve step read it, and what it found from it: every field of the
 * entry read inside the entry's sequence-locked window ({@link #read}), with the control word that opened it (the
 * registration the access checks again once the bytes moved), and, for shareable memory, the mapped segment and the
 * index of the range's first byte in it. A flyweight: one per view, refilled by every resolve, valid until the view's
 * next call.
 * <p>
 * Threads: the view's own (not thread safe, as the view).
 */
final class ResolvedRegion
{
    private int entry;
    private long control;
    private int access;
    private long owner;
    private long segmentId;
    private long nonce;
    private long segmentOffset;
    private long length;
    private long base;
    private int counterPlusOne;
    private long authDigest;
    private SegmentFile segment;
    private int index;

    /**
     * Read entry {@code entry} of {@code table} inside its sequence-locked window: the control word (acquire), every
     * field (plain), then the control word again.
     *
     * @param table the key table.
     * @param entry the entry {@link MrTable#find} gave for {@code key}.
     * @param key   the key the access names.
     * @return true when the fields are one publication's, published, for {@code key}.
     */
    boolean read(final MrTable table, final int entry, final long key)
    {
        this.entry = entry;
        control = table.laControl(entry);
        final long entryKey = table.lpKey(entry);
        access = table.lpAccess(entry);
        owner = table.lpOwner(entry);
        segmentId = table.lpSegmentId(entry);
        nonce = table.lpSegmentNonce(entry);
        segmentOffset = table.lpSegmentOffset(entry);
        length = table.lpLength(entry);
        base = table.lpBaseAddress(entry);
        counterPlusOne = table.lvCounter(entry);
        authDigest = table.lpAuthDigest(entry);
        return MrTableDescriptor.state(control) == MrTableDescriptor.STATE_PUBLISHED && entryKey == key &&
            table.lvControlUnchanged(entry, control);
    }

    /**
     * @param counters entries of the domain's counter table.
     * @return true when the entry says something no registration writes: a length or segment offset outside a
     * segment's data, or a counter index outside the counter table.
     */
    boolean isDamaged(final int counters)
    {
        return length < 0 || length > SegmentDescriptor.MAX_DATA_LENGTH ||
            segmentOffset < 0 || segmentOffset > SegmentDescriptor.MAX_DATA_LENGTH - length ||
            counterPlusOne < 0 || counterPlusOne > counters;
    }

    /**
     * The range lies in a mapped segment that passed its checks.
     *
     * @param segment the segment.
     * @param index   the range's first byte in {@link SegmentFile#buffer()}.
     */
    void range(final SegmentFile segment, final int index)
    {
        this.segment = segment;
        this.index = index;
    }

    /** @return the key table entry. */
    int entry()
    {
        return entry;
    }

    /** @return the entry's control word at the start of the window. */
    long control()
    {
        return control;
    }

    /** @return the region's access bits. */
    int access()
    {
        return access;
    }

    /** @return the entry's owner ({@code ProcessIdentity}). */
    long owner()
    {
        return owner;
    }

    /** @return the segment id, 0 for memory no peer can map. */
    long segmentId()
    {
        return segmentId;
    }

    /** @return the segment's nonce. */
    long nonce()
    {
        return nonce;
    }

    /** @return the region's offset in the segment's data. */
    long segmentOffset()
    {
        return segmentOffset;
    }

    /** @return the region's length. */
    long length()
    {
        return length;
    }

    /** @return what peers subtract from their addresses. */
    long base()
    {
        return base;
    }

    /** @return the bound counter's index + 1, 0 for none. */
    int counterPlusOne()
    {
        return counterPlusOne;
    }

    /** @return the digest of the region's authorization key, 0 for none. */
    long authDigest()
    {
        return authDigest;
    }

    /** @return the segment the range lies in. */
    SegmentFile segment()
    {
        return segment;
    }

    /** @return the segment's whole mapping. */
    UnsafeBuffer memory()
    {
        return segment.buffer();
    }

    /** @return the range's first byte in {@link #memory()}. */
    int index()
    {
        return index;
    }
}
