package io.jfabric.shm.soak;

/**
 * What one soak instance has sent to one receiver instance: sequence numbers are given out from 1, one per send
 * the provider took (returned 0); each then ends as a success (an inject at once, a send at its completion) or an
 * error completion. A send the provider refused at the call (-FI_EHOSTUNREACH, -FI_EAGAIN) took no number.
 * <p>
 * Owned by the sending thread of a {@link SoakPeerMain}; not thread safe.
 */
final class SendLedger
{
    final long receiver;
    long posted;
    long succeeded;
    long bytes;
    long outstanding;
    final SeqRanges failed = new SeqRanges();

    /**
     * @param receiver the receiver instance.
     */
    SendLedger(final long receiver)
    {
        this.receiver = receiver;
    }

    /** @return the next sequence number, now taken. */
    long next()
    {
        return ++posted;
    }

    /**
     * @param length bytes of the message that succeeded.
     */
    void succeeded(final int length)
    {
        succeeded++;
        bytes += length;
    }

    /**
     * @return the highest sequence number that did not fail, 0 for none: once nothing is outstanding, what the
     * receiver must reach.
     */
    long highestSucceeded()
    {
        return failed.highestAbsent(posted);
    }
}
