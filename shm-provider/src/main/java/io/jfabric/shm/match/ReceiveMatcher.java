package io.jfabric.shm.match;

import io.jfabric.Addresses;
import io.jfabric.Flags;
import java.nio.ByteBuffer;
import org.agrona.DirectBuffer;

/** TEMPORARY minimal matcher (FIFO posted, no unexpected store) until the matcher branch merges. */
public final class ReceiveMatcher
{
    public static final long DELIVERY_NONE = -1;
    private final int cap;
    private final ByteBuffer[] buf;
    private final int[] off;
    private final int[] len;
    private final long[] ctx;
    private final long[] flags;
    private final boolean[] tagged;
    private final long[] tag;
    private final long[] ignore;
    private int head;
    private int count;
    private final AddressResolver resolver;
    private final RecvCompletionSink sink;
    private long dSender;
    private int dSlot;
    private long dPlaced;
    private long dTotal;
    private long dTag;
    private long dData;
    private long dFlags;
    private long min = 16384;

    public ReceiveMatcher(final int postedCapacity, final int unexpectedCapacity, final int unexpectedBytes,
        final boolean directedRecv, final AddressResolver resolver, final RecvCompletionSink sink)
    {
        cap = postedCapacity;
        buf = new ByteBuffer[cap];
        off = new int[cap];
        len = new int[cap];
        ctx = new long[cap];
        flags = new long[cap];
        tagged = new boolean[cap];
        tag = new long[cap];
        ignore = new long[cap];
        this.resolver = resolver;
        this.sink = sink;
    }

    public void minMultiRecv(final long bytes)
    {
        min = bytes;
    }

    public long minMultiRecv()
    {
        return min;
    }

    public long post(final boolean t, final ByteBuffer b, final int o, final int l,
        final long srcAddr, final long tg, final long ig, final long c, final long f)
    {
        if (count == cap)
        {
            return -11;
        }
        final int i = (head + count++) % cap;
        buf[i] = b;
        off[i] = o;
        len[i] = l;
        ctx[i] = c;
        flags[i] = f;
        tagged[i] = t;
        tag[i] = tg;
        ignore[i] = ig;
        return 0;
    }

    public long post(final boolean t, final ByteBuffer[] iov, final int[] iovOffset, final int[] iovLength,
        final int iovCount, final long srcAddr, final long tg, final long ig, final long c, final long f)
    {
        return post(t, iov[0], iovOffset[0], iovLength[0], srcAddr, tg, ig, c, f);
    }

    public long cancel(final long context)
    {
        return -2;
    }

    public long begin(final long senderId, final boolean t, final long tg, final long data, final long msgFlags,
        final long totalLength)
    {
        if (count == 0 || tagged[head] != t || t && ((tg ^ tag[head]) & ~ignore[head]) != 0)
        {
            return DELIVERY_NONE;
        }
        dSlot = head;
        head = (head + 1) % cap;
        count--;
        dSender = senderId;
        dPlaced = 0;
        dTotal = totalLength;
        dTag = tg;
        dData = data;
        dFlags = msgFlags;
        return 0;
    }

    public void write(final long delivery, final DirectBuffer src, final int srcOffset, final int length)
    {
        final int n = (int)Math.max(0, Math.min(length, len[dSlot] - dPlaced));
        src.getBytes(srcOffset, buf[dSlot], off[dSlot] + (int)dPlaced, n);
        dPlaced += n;
    }

    public void end(final long delivery)
    {
        sink.complete(ctx[dSlot], flags[dSlot], Flags.FI_RECV | (tagged[dSlot] ? Flags.FI_TAGGED : Flags.FI_MSG) | dFlags,
            dPlaced, off[dSlot], dData, dTag, resolver.fiAddrOf(dSender));
        buf[dSlot] = null;
    }
}
