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
package io.jfabric.ofi.ctx;

import io.jfabric.ofi.core.BrokenVariant;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The operations of one endpoint direction (transmit or receive) that are posted and not yet completed: what keeps
 * their buffers reachable and their contexts known until the completion is read, as C leaves to the programmer.
 * <p>
 * Each operation takes a <em>slot</em>: an index into Java arrays (the buffers it uses, the application's
 * {@code long} context, the buffer's base address for the completion's {@code buf}, flags) and a native block of
 * {@link #stride()} bytes. The block's address is the {@code void *context} given to libfabric: its first 64 bytes
 * are the {@code struct fi_context2} that FI_CONTEXT/FI_CONTEXT2 providers write into, the rest is scratch for the
 * call's native structs ({@code fi_msg}, iovec and desc arrays). The CQ reader finds the slot again from the
 * completion's {@code op_context} ({@link #slotOf}: a shift and a multiplication, no 64-bit division, whatever the
 * stride).
 * <p>
 * There is no free list: each slot's <em>state</em> word says whether it is FREE, HELD (claimed by a poster, being
 * filled: only where several threads post) or POSTED, and is the one word the two sides hand a slot over with.
 * The poster takes slots in turn, indexed by a sequence of its own: the slot at {@code cursor & mask} is the next,
 * and it is free again as soon as that operation's completion has been read. Operations mostly complete in the
 * order they were posted, so the next slot is nearly always free; when it is not (a receive that waits long, a
 * completion out of order) the poster looks further ({@link #acquireAfter}), skipping the slots still in flight.
 * <pre>
 * poster (the endpoint's thread)                      CQ reader
 *   slot = acquire()        state[cursor] FREE (acquire load), cursor + 1
 *   hold(slot, ...)         fields, then state = POSTED (release)
 *   libfabric post(slot address) ----- native queue -----> op_context
 *                                                      slot = slotOf(op_context)
 *                                                      read fields (state POSTED, acquire)
 *                                                      complete(slot): clear fields,
 *                                                      then state = FREE (release)
 * </pre>
 * The release of FREE after the clear and the poster's acquire load of it order the reader's clearing before the
 * next poster's filling: a clear that came later would drop the next operation's buffers and context. A failed post
 * {@link #abandon}s its slot. How a poster claims a slot is the one thing that needs the threading model's help:
 * {@link SpscSlotPool} when one thread at a time posts on the endpoint and one at a time reads its CQ
 * (FI_THREAD_FID, ENDPOINT, COMPLETION, DOMAIN: a plain cursor, no atomic read-modify-write), {@link MpmcSlotPool}
 * under FI_THREAD_SAFE (any thread posts, any reads: a compare-and-set FREE to HELD). JCStress tests (ofi-provider's
 * {@code stress} package) prove both against their broken variants.
 * <p>
 * Threads: acquire/hold/abandon by the posting thread, slotOf/read/complete by the CQ reading thread, as the
 * subclass's model allows; {@link #inFlight()} and {@link #forEachPosted} on the control path.
 */
public abstract class SlotPool
{
    /** Bytes of the {@code struct fi_context2} at the start of every slot's native block. */
    public static final int CONTEXT_BYTES = 64;

    /** Slot state: free. */
    static final int FREE = 0;
    /** Slot state: claimed by one of several posters, being filled ({@link MpmcSlotPool}). */
    static final int HELD = 1;
    /** Slot state: filled and handed to libfabric. */
    static final int POSTED = 2;

    private static final boolean BROKEN_STATE_BEFORE_FIELDS = BrokenVariant.active("ofi.slot.stateBeforeFields");
    private static final boolean BROKEN_FREE_BEFORE_CLEAR = BrokenVariant.active("ofi.slot.freeBeforeClear");
    private static final VarHandle STATE = MethodHandles.arrayElementVarHandle(int[].class);

    private final int capacity;
    private final int mask;
    private final long stride;
    /** The stride is {@code odd << strideShift}: slotOf divides exactly by {@code odd} with its inverse. */
    private final int strideShift;
    private final long oddInverse;
    private final MemorySegment blocks;
    private final long base;
    private final long end;
    private final int[] state;
    private final long[] userContext;
    private final long[] bufBase;
    private final long[] bufOffset;
    private final int[] flags;
    private final int refsPerSlot;
    private final Object[] refs;
    private final boolean[] moreRefs;

    /**
     * @param capacity slots, a power of two.
     * @param stride   bytes of each slot's native block, a multiple of 64, at least {@link #CONTEXT_BYTES}.
     * @param refs     references (buffers) a slot keeps reachable, at least 3.
     * @param arena    where the native blocks live; it must outlive every completion of this pool.
     */
    protected SlotPool(final int capacity, final long stride, final int refs, final Arena arena)
    {
        if (Integer.bitCount(capacity) != 1 || stride < CONTEXT_BYTES || stride % CONTEXT_BYTES != 0)
        {
            throw new IllegalArgumentException("capacity " + capacity + ", stride " + stride);
        }
        this.capacity = capacity;
        this.mask = capacity - 1;
        this.stride = stride;
        this.strideShift = Long.numberOfTrailingZeros(stride);
        this.oddInverse = inverse(stride >>> strideShift);
        this.blocks = arena.allocate(stride * capacity, CONTEXT_BYTES);
        this.base = blocks.address();
        this.end = base + stride * capacity;
        this.state = new int[capacity];
        this.userContext = new long[capacity];
        this.bufBase = new long[capacity];
        this.bufOffset = new long[capacity];
        this.flags = new int[capacity];
        this.refsPerSlot = Math.max(3, refs);
        this.refs = new Object[capacity * refsPerSlot];
        this.moreRefs = new boolean[capacity];
    }

    /** @return slots. */
    public final int capacity()
    {
        return capacity;
    }

    /** @return bytes of each slot's native block. */
    public final long stride()
    {
        return stride;
    }

    /**
     * Take a free slot.
     *
     * @return its index, or -1 when every slot holds an operation in flight.
     */
    public abstract int acquire();

    /**
     * The slot at the poster's cursor could not be taken (still in flight, or another poster's): take the first after
     * it that {@link #take} gets, and move the cursor past it. Slow path: a state load a slot, so a pool whose slots
     * are all in flight costs a load of each before it answers -1.
     *
     * @param next the cursor whose slot could not be taken.
     * @return the slot taken, or -1 when none is free.
     */
    protected final int acquireAfter(final long next)
    {
        for (int i = 1; i < capacity; i++)
        {
            final int slot = (int)(next + i) & mask;
            if (take(slot))
            {
                moveCursor(next + i + 1);
                return slot;
            }
        }
        return -1;
    }

    /**
     * @param slot a slot.
     * @return whether this poster now has it: it was FREE (and, where several threads post, is now claimed HELD).
     */
    protected abstract boolean take(int slot);

    /** @param next the poster's cursor from now on: the slot after the one just taken. */
    protected abstract void moveCursor(long next);

    /**
     * A slot of this poster's was abandoned (its post failed): the subclass may take it again next.
     *
     * @param slot the slot, FREE again.
     */
    protected abstract void abandoned(int slot);

    /**
     * @param slot a slot.
     * @return whether it is FREE (an acquire load: the clearing of its last operation happened before).
     */
    protected final boolean isFree(final int slot)
    {
        return (int)STATE.getAcquire(state, slot) == FREE;
    }

    /**
     * Claim a FREE slot against other posters: FREE to HELD, atomically.
     *
     * @param slot a slot.
     * @return whether this thread has it.
     */
    protected final boolean claim(final int slot)
    {
        return STATE.compareAndSet(state, slot, FREE, HELD);
    }

    /**
     * As {@link #claim}, but a plain check then store: two posters may both take the slot (the broken variant
     * {@code ofi.slot.plainClaim}, for the JCStress test that must catch it).
     *
     * @param slot a slot.
     * @return whether this thread believes it has it.
     */
    protected final boolean claimPlainly(final int slot)
    {
        if (isFree(slot))
        {
            STATE.setRelease(state, slot, HELD);
            return true;
        }
        return false;
    }

    /** @return slots taken (posted, or claimed and being filled, and not yet freed); exact when no side runs. */
    public final int inFlight()
    {
        int taken = 0;
        for (int slot = 0; slot < capacity; slot++)
        {
            if ((int)STATE.getAcquire(state, slot) != FREE)
            {
                taken++;
            }
        }
        return taken;
    }

    /**
     * @param slot an acquired slot.
     * @return the address of its native block: the {@code void *context} of the operation.
     */
    public final long address(final int slot)
    {
        return base + slot * stride;
    }

    /**
     * Fill an acquired slot, then publish it (state POSTED, a release store): everything written here is visible to
     * the CQ reader that finds the slot from the completion.
     *
     * @param slot    an acquired slot.
     * @param context the application's context.
     * @param b0      first reference to keep reachable (the buffer), or null.
     * @param b1      second (a second buffer, the compare or result of an atomic), or null.
     * @param b2      third, or null.
     * @param bufferBase the native address of the receive buffer's index 0, for the completion's buf.
     * @param offset  the absolute index the operation starts at.
     * @param opFlags the provider's own flags for the operation ({@link OpFlags}).
     */
    public final void hold(final int slot, final long context, final Object b0, final Object b1, final Object b2,
        final long bufferBase, final long offset, final int opFlags)
    {
        // A free slot's references are null (cleared when it was freed): only the given ones are written.
        final int at = slot * refsPerSlot;
        if (b0 != null)
        {
            refs[at] = b0;
        }
        if (b1 != null)
        {
            refs[at + 1] = b1;
        }
        if (b2 != null)
        {
            refs[at + 2] = b2;
        }
        publish(slot, context, bufferBase, offset, opFlags);
    }

    /**
     * As {@link #hold}, keeping the references already set with {@link #reference} (a vector operation's buffers).
     *
     * @param slot       an acquired slot.
     * @param context    the application's context.
     * @param bufferBase the receive buffer's base address, or 0.
     * @param offset     the absolute index the operation starts at.
     * @param opFlags    the provider's own flags.
     */
    public final void publish(final int slot, final long context, final long bufferBase, final long offset,
        final int opFlags)
    {
        if (BROKEN_STATE_BEFORE_FIELDS)
        {
            STATE.setRelease(state, slot, POSTED);
        }
        userContext[slot] = context;
        bufBase[slot] = bufferBase;
        bufOffset[slot] = offset;
        flags[slot] = opFlags;
        STATE.setRelease(state, slot, POSTED);
    }

    /**
     * Keep one more reference reachable with an acquired slot, before {@link #hold} publishes it (the buffers of a
     * vector operation beyond the first three: {@code hold} sets references 0 to 2).
     *
     * @param slot  an acquired slot.
     * @param index 3 to {@link #refsPerSlot()} - 1.
     * @param ref   the reference.
     */
    public final void reference(final int slot, final int index, final Object ref)
    {
        refs[slot * refsPerSlot + index] = ref;
        if (index >= 3)
        {
            moreRefs[slot] = true;
        }
    }

    /** @return references a slot keeps reachable. */
    public final int refsPerSlot()
    {
        return refsPerSlot;
    }

    /**
     * The post of a held slot failed (libfabric returned an error, nothing is in flight): clear and free it. By the
     * thread that acquired it.
     *
     * @param slot the slot.
     */
    public final void abandon(final int slot)
    {
        clear(slot);
        abandoned(slot);
    }

    /**
     * @param opContext a completion's {@code op_context}.
     * @return the slot it names, or -1 when it is not one of this pool's slot addresses.
     */
    public final int slotOf(final long opContext)
    {
        if (opContext < base || opContext >= end)
        {
            return -1;
        }
        // delta / stride when stride divides it, without a division (14-46 cycles a completion): delta must be a
        // multiple of 2^shift, and (delta >> shift) a multiple of the odd rest, which holds exactly when its product
        // with the odd rest's inverse modulo 2^64 is the quotient, below capacity (Hacker's Delight, 10-16);
        // otherwise the product is at least 2^64 / odd, far above any capacity.
        final long delta = opContext - base;
        final long quotient = (delta >>> strideShift) * oddInverse;
        return (delta & ((1L << strideShift) - 1)) == 0 && Long.compareUnsigned(quotient, capacity) < 0 ?
            (int)quotient : -1;
    }

    /**
     * @param odd an odd number.
     * @return its inverse modulo 2^64: {@code odd * inverse(odd) == 1} in long arithmetic (Newton's iteration, each
     *         step doubling the correct low bits from the 3 that {@code odd * odd == 1 mod 8} gives).
     */
    static long inverse(final long odd)
    {
        long x = odd;
        for (int i = 0; i < 5; i++)
        {
            x *= 2 - odd * x;
        }
        return x;
    }

    /**
     * @param slot a slot found by {@link #slotOf}.
     * @return whether it holds a posted operation (an acquire load, after which its fields may be read).
     */
    public final boolean isPosted(final int slot)
    {
        return (int)STATE.getAcquire(state, slot) == POSTED;
    }

    /** @return the application's context of a posted slot. */
    public final long context(final int slot)
    {
        return userContext[slot];
    }

    /** @return the receive buffer's base address of a posted slot. */
    public final long bufferBase(final int slot)
    {
        return bufBase[slot];
    }

    /** @return the absolute index a posted slot's operation started at. */
    public final long offset(final int slot)
    {
        return bufOffset[slot];
    }

    /** @return the provider's flags of a posted slot. */
    public final int flags(final int slot)
    {
        return flags[slot];
    }

    /**
     * The operation's completion has been read: forget its buffers and free the slot. With FI_MULTI_RECV only the
     * completion that releases the buffer completes the slot.
     *
     * @param slot a posted slot.
     * @return the application's context the slot held.
     */
    public final long complete(final int slot)
    {
        final long context = userContext[slot];
        clear(slot);
        return context;
    }

    private void clear(final int slot)
    {
        if (BROKEN_FREE_BEFORE_CLEAR)
        {
            STATE.setRelease(state, slot, FREE);
            clearFields(slot);
            return;
        }
        clearFields(slot);
        STATE.setRelease(state, slot, FREE);
    }

    private void clearFields(final int slot)
    {
        final int at = slot * refsPerSlot;
        for (int i = 0; i < 3; i++)
        {
            if (refs[at + i] != null)
            {
                refs[at + i] = null;
            }
        }
        if (moreRefs[slot])
        {
            clearMoreRefs(slot, at);
        }
        userContext[slot] = 0;
    }

    private void clearMoreRefs(final int slot, final int at)
    {
        for (int i = 3; i < refsPerSlot; i++)
        {
            refs[at + i] = null;
        }
        moreRefs[slot] = false;
    }

    /**
     * @param slot  a slot.
     * @param index 0 to {@link #refsPerSlot()} - 1.
     * @return the reference the slot keeps there (for tests: what its operation holds, null once it is cleared).
     */
    public final Object referenceAt(final int slot, final int index)
    {
        return refs[slot * refsPerSlot + index];
    }

    /**
     * Control path: visit the posted slots (an endpoint's close looking for operations in flight, a cancel looking
     * for a context). Exact only while nothing posts or completes.
     *
     * @param visitor called with each posted slot and its context.
     */
    public final void forEachPosted(final SlotVisitor visitor)
    {
        for (int slot = 0; slot < capacity; slot++)
        {
            if ((int)STATE.getAcquire(state, slot) == POSTED)
            {
                visitor.visit(slot, userContext[slot]);
            }
        }
    }

    /** @return the mask of a slot index. */
    final int mask()
    {
        return mask;
    }

    /** A visitor of posted slots. */
    @FunctionalInterface
    public interface SlotVisitor
    {
        /**
         * @param slot    a posted slot.
         * @param context its application context.
         */
        void visit(int slot, long context);
    }
}
