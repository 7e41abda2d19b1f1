package io.jfabric.shm.ep;

import io.jfabric.Errno;
import io.jfabric.MessageClaim;
import org.agrona.concurrent.ringbuffer.RingBuffer;

import java.nio.ByteBuffer;

/**
 * An endpoint's one zero-copy claim ({@code Endpoint.claim}, then {@link #commit} or {@link #abort}): a
 * whole-message record of a peer's lane that the application fills in place, through {@link #buffer()} (the whole
 * region) at {@link #offset()} for {@link #length()} bytes. The same object for the endpoint's life; its transmit
 * context serves it once the endpoint is enabled.
 * <p>
 * The sending side's: the thread that claimed commits or aborts (under FI_THREAD_SAFE, the context's send guard
 * serializes them).
 */
final class LaneClaim implements MessageClaim
{
    private final ByteBuffer regionBytes;
    private TxContext context;
    RingBuffer lane;
    int index;
    int offset;
    int length;

    /**
     * @param regionBytes the domain region as a byte buffer.
     */
    LaneClaim(final ByteBuffer regionBytes)
    {
        this.regionBytes = regionBytes;
    }

    /** Control path: the context that serves this claim from now on. */
    void serve(final TxContext context)
    {
        this.context = context;
    }

    @Override
    public ByteBuffer buffer()
    {
        return regionBytes;
    }

    @Override
    public int offset()
    {
        return offset;
    }

    @Override
    public int length()
    {
        return length;
    }

    @Override
    public long commit()
    {
        final TxContext c = context;
        return c == null ? -Errno.FI_EINVAL : c.finishClaim(true);
    }

    @Override
    public long abort()
    {
        final TxContext c = context;
        return c == null ? -Errno.FI_EINVAL : c.finishClaim(false);
    }
}
