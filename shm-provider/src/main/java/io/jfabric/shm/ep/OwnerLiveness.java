package io.jfabric.shm.ep;

import io.jfabric.shm.ProcessIdentity;

/**
 * Whether the process that owns a slot is still alive, asked on the data path (a sender whose peer's lane is full, a
 * receiver deciding whether an idle lane's sender is gone) without paying for the answer every time: asking the
 * kernel ({@link ProcessIdentity#isGone}, a read of /proc) costs microseconds and allocates, so the answer per slot
 * and owner is kept for {@link #RECHECK_NS}. A dead owner is therefore noticed within that time.
 * <p>
 * Not thread safe: one per role that asks (a transmit context's sending side, a receive context), each used by one
 * thread at a time.
 */
final class OwnerLiveness
{
    /** How long an answer is trusted. */
    static final long RECHECK_NS = 200_000_000L;

    private final long[] owner;
    private final long[] checkedAt;
    private final boolean[] gone;

    OwnerLiveness(final int slots)
    {
        owner = new long[slots];
        checkedAt = new long[slots];
        gone = new boolean[slots];
    }

    /**
     * @param slot     the slot.
     * @param identity its owner word (not 0).
     * @return whether that owner's process is gone, as of at most {@link #RECHECK_NS} ago.
     */
    boolean isGone(final int slot, final long identity)
    {
        final long now = System.nanoTime();
        if (owner[slot] != identity || now - checkedAt[slot] >= RECHECK_NS)
        {
            owner[slot] = identity;
            checkedAt[slot] = now;
            gone[slot] = ProcessIdentity.isGone(identity);
        }
        return gone[slot];
    }
}
