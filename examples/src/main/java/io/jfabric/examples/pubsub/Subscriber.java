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
package io.jfabric.examples.pubsub;

import io.jfabric.Addresses;
import io.jfabric.AddressVector;
import io.jfabric.AvAttr;
import io.jfabric.AvType;
import io.jfabric.CompletionQueue;
import io.jfabric.CqAttr;
import io.jfabric.CqEntries;
import io.jfabric.CqErrEntry;
import io.jfabric.CqFormat;
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.FabricException;
import io.jfabric.Fabrics;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.examples.ExampleArgs;
import io.jfabric.examples.ShutdownSignal;
import io.jfabric.examples.WellKnownAddress;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The subscribing side of the pubsub example: inserts the publisher's well-known address ({@link PubSub}) into its
 * AV with {@code fi_av_insertsvc}, sends it a SUBSCRIBE every {@link PubSub#SUBSCRIBE_INTERVAL_MS} ms (which also
 * brings a restarted publisher back to it), and prints every message it receives after checking that the payload is intact and that, per
 * publisher, the sequence numbers follow each other. It exits 0 on the publisher's END, after {@code --count}
 * messages, or on Ctrl-C; 2 when a message arrives damaged or out of order.
 * <p>
 * What it shows, beyond the publisher's: a peer address that survives the peer's restart, FI_SOURCE to accept
 * messages from the publisher only, and what "nobody there (yet)" looks like: {@code -FI_EHOSTUNREACH} on shm,
 * {@code -FI_EAGAIN} that lasts (no connection) on tcp.
 * <p>
 * One thread, the main thread, makes every call (FI_THREAD_DOMAIN); an instance is that thread's state.
 */
public final class Subscriber
{
    private static final String USAGE = "subscriber [-p shm|tcp|... (provider)] [--node NODE] [--service SERVICE] " +
        "[--domain pubsub (shm)] [--count 0 (messages to take, then exit; 0: until the publisher's END or Ctrl-C)]";
    private static final Map<String, String> DEFAULTS =
        WellKnownAddress.withOptions(Map.of("domain", PubSub.DEFAULT_DOMAIN, "count", "0"));

    /** Exit status when a message arrives damaged or out of order. */
    static final int EXIT_BAD_MESSAGE = 2;

    /** Receives kept posted; a receive's context is its buffer's index. */
    private static final int RECEIVES = 16;
    private static final long IDLE_NS = TimeUnit.MICROSECONDS.toNanos(50);
    /** How long SUBSCRIBEs may be refused with -FI_EAGAIN before we say that nobody answers. */
    private static final long SILENCE_NS = TimeUnit.SECONDS.toNanos(1);
    /** The context of a SUBSCRIBE sent with fi_send (receives use their buffer's index). */
    private static final long SUBSCRIBE_CONTEXT = 1L << 62;

    private final Endpoint ep;
    private final CompletionQueue cq;
    private final ShutdownSignal signal;
    private final long publisher;
    private final String publisherAddress;
    private final long count;
    private final long injectSize;

    private final CqEntries entries = new CqEntries(RECEIVES);
    private final CqErrEntry errEntry = new CqErrEntry();
    private final ByteBuffer rx = ByteBuffer.allocateDirect(RECEIVES * PubSub.MAX_MESSAGE_LENGTH);
    private final ByteBuffer subscribe = ByteBuffer.allocateDirect(PubSub.MAX_MESSAGE_LENGTH);
    private final int subscribeLength;

    private long lastPublisherId;
    private long lastSequence;
    private long received;
    private long missed;
    private boolean publisherReached;
    private boolean publisherAbsentSaid;
    private boolean subscribeInFlight;
    private long refusedSince;
    private boolean done;
    private int status;

    private Subscriber(
        final Endpoint ep,
        final CompletionQueue cq,
        final ShutdownSignal signal,
        final long publisher,
        final String publisherAddress,
        final long count,
        final long injectSize)
    {
        this.ep = ep;
        this.cq = cq;
        this.signal = signal;
        this.publisher = publisher;
        this.publisherAddress = publisherAddress;
        this.count = count;
        this.injectSize = injectSize;

        // The SUBSCRIBE message carries our own address as fi_getname gives it, so the publisher can insert it
        // into its AV (fi_av_insert takes the provider's format: text on shm, a struct sockaddr_in on tcp).
        final byte[] me = ep.getname();
        subscribe.putInt(PubSub.TYPE_OFFSET, PubSub.TYPE_SUBSCRIBE).putInt(PubSub.LENGTH_OFFSET, me.length)
            .putLong(PubSub.PUBLISHER_OFFSET, 0).putLong(PubSub.SEQUENCE_OFFSET, 0).put(PubSub.HEADER_LENGTH, me);
        subscribeLength = PubSub.HEADER_LENGTH + me.length;
    }

    /**
     * Run the subscriber; exit status 0 when done, 1 for a usage error, 2 for a damaged or out-of-order message,
     * else the libfabric errno of what failed.
     *
     * @param args the command line: see {@link #USAGE}.
     */
    public static void main(final String[] args)
    {
        System.exit(run(args));
    }

    /**
     * @param args the command line.
     * @return the exit status.
     */
    static int run(final String[] args)
    {
        final ExampleArgs options;
        try
        {
            options = ExampleArgs.parse(USAGE, DEFAULTS, args);
            options.number("count");
        }
        catch (final ExampleArgs.UsageException ex)
        {
            System.err.println(ex.getMessage());
            return 1;
        }

        final ShutdownSignal signal = ShutdownSignal.register();
        try
        {
            return open(options, signal);
        }
        catch (final FabricException ex)
        {
            System.err.println("subscriber: " + ex.getMessage());
            return ex.errno() > 0 && ex.errno() < 256 ? ex.errno() : 2;
        }
        finally
        {
            signal.closed();
        }
    }

    private static int open(final ExampleArgs options, final ShutdownSignal signal)
    {
        final String domainName = options.string("domain");
        final WellKnownAddress address = WellKnownAddress.of(options, PubSub.DEFAULT_PORT);
        // getinfo with the publisher's node and service as the destination: a native provider picks the local
        // interface that reaches it (127.0.0.1 reaches lo).
        final Info info = address.clientInfo(PubSub.hints(address, domainName));
        final String publisherAddress = address.text(info);

        try (Fabric fabric = Fabrics.fabric(info.fabricAttr(), 0);
            Domain domain = fabric.domain(info, 0);
            AddressVector av = domain.avOpen(new AvAttr().type(AvType.TABLE).count(1), 0);
            CompletionQueue cq = domain.cqOpen(new CqAttr().format(CqFormat.MSG), 0);
            Endpoint ep = domain.endpoint(info, 0))
        {
            ep.bind(av, 0);
            ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
            ep.enable();

            // The publisher's well-known address names whoever is there, now or after a restart (on shm it has no
            // ?gen=), so we insert it once. An address nobody holds yet inserts fine: sends to it fail
            // (FI_EHOSTUNREACH on shm, FI_EAGAIN while tcp cannot connect) until the publisher is there.
            final long fiAddr = address.insert(av, info);
            System.out.println("subscriber: at " + av.straddr(ep.getname()) + ", publisher at " + publisherAddress);

            final Subscriber subscriber = new Subscriber(ep, cq, signal, fiAddr, publisherAddress,
                options.number("count"), info.txAttr().injectSize());
            return subscriber.receive();
        }
    }

    private int receive()
    {
        for (int i = 0; i < RECEIVES; i++)
        {
            postReceive(i);
        }

        long nextSubscribe = System.nanoTime();
        while (signal.running() && !done)
        {
            final int completions = poll();
            if (System.nanoTime() - nextSubscribe >= 0)
            {
                sendSubscribe();
                nextSubscribe = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PubSub.SUBSCRIBE_INTERVAL_MS);
            }
            if (completions == 0 && !done)
            {
                LockSupport.parkNanos(IDLE_NS);
            }
        }
        System.out.println("subscriber: received " + received + " messages" +
            (missed > 0 ? ", missed " + missed : "") + (signal.running() ? "" : " (interrupted)"));
        return status;                           // closing happens as the try-with-resources in open() ends
    }

    /**
     * Tell the publisher we are here. The first one subscribes us; the later ones are keepalives the publisher
     * ignores, except a restarted publisher, for which the next one is a first one again. Within the provider's
     * inject_size the message goes with fi_inject; a longer one (a long address) with fi_send, which has the
     * buffer until its completion: the SUBSCRIBE never changes, so we only skip the next one while it is in flight.
     */
    private void sendSubscribe()
    {
        if (subscribeInFlight)
        {
            return;
        }
        final long rc = subscribeLength <= injectSize ? ep.inject(subscribe, 0, subscribeLength, publisher) :
            ep.send(subscribe, 0, subscribeLength, 0, publisher, SUBSCRIBE_CONTEXT);
        if (rc == 0)
        {
            subscribeInFlight = subscribeLength > injectSize;
            refusedSince = 0;
            if (!publisherReached)
            {
                System.out.println("subscriber: SUBSCRIBE sent to the publisher at " + publisherAddress);
                publisherReached = true;
                publisherAbsentSaid = false;
            }
        }
        else if (rc == -Errno.FI_EAGAIN)
        {
            // shm: the publisher's ring is full, it is busy; tcp: no connection to it (yet). Try at the next
            // interval; say so once when it lasts.
            final long now = System.nanoTime();
            refusedSince = refusedSince == 0 ? now : refusedSince;
            if (now - refusedSince >= SILENCE_NS)
            {
                publisherAbsent("FI_EAGAIN for " + TimeUnit.NANOSECONDS.toSeconds(SILENCE_NS) + " s: no answer");
            }
        }
        else
        {
            // shm, FI_EHOSTUNREACH: nobody holds the publisher's address: not started yet, closed, crashed, or
            // stopped for longer than jfabric.shm.liveness.timeout.ms. Keep trying; messages already received
            // are not affected.
            publisherAbsent(Errno.name((int)rc));
        }
    }

    private void publisherAbsent(final String why)
    {
        if (!publisherAbsentSaid)
        {
            System.out.println("subscriber: no publisher at " + publisherAddress + " (" + why + "); trying again " +
                "every " + PubSub.SUBSCRIBE_INTERVAL_MS + " ms; a publisher is seen only with the same provider " +
                "and address (on shm: the same --domain and shm root, jfabric.shm.dir or JFABRIC_SHM_DIR) as this " +
                "subscriber");
            publisherAbsentSaid = true;
        }
        publisherReached = false;
    }

    /**
     * Read the CQ once (this is also what progresses our endpoint under manual progress).
     *
     * @return the completions handled.
     */
    private int poll()
    {
        final int n = cq.readFrom(entries, entries.capacity());
        if (n == -Errno.FI_EAGAIN)
        {
            return 0;
        }
        if (n == -Errno.FI_EAVAIL)
        {
            readError();
            return 1;
        }
        if (n < 0)
        {
            throw new FabricException(-n, "fi_cq_readfrom: " + Errno.strerror(n));
        }
        for (int i = 0; i < n; i++)
        {
            if ((entries.flags[i] & Flags.FI_RECV) != 0)
            {
                onMessage((int)entries.opContext[i], (int)entries.len[i], entries.srcAddr[i]);
            }
            else if ((entries.flags[i] & Flags.FI_SEND) != 0)
            {
                subscribeInFlight = false;      // the SUBSCRIBE sent with fi_send has gone
            }
        }
        return n;
    }

    private void readError()
    {
        if (cq.readErr(errEntry, 0) != 1)
        {
            return;
        }
        if ((errEntry.flags & Flags.FI_SEND) != 0)
        {
            // The SUBSCRIBE sent with fi_send failed after it was taken (the publisher went away): try again.
            subscribeInFlight = false;
            publisherAbsent(Errno.name(errEntry.err));
            return;
        }
        System.err.println("subscriber: error completion " + Errno.name(errEntry.err) + ": " +
            cq.strerror(errEntry.provErrno, errEntry.errData) + " (context " + errEntry.opContext + ", len " +
            errEntry.len + ", olen " + errEntry.olen + ")");
        if ((errEntry.flags & Flags.FI_RECV) != 0)
        {
            postReceive((int)errEntry.opContext);
        }
    }

    private void onMessage(final int buffer, final int length, final long source)
    {
        final int offset = buffer * PubSub.MAX_MESSAGE_LENGTH;
        if (source != publisher)
        {
            // FI_SOURCE: the only peer in our AV is the publisher; anything else comes as FI_ADDR_NOTAVAIL.
            System.err.println("subscriber: ignoring " + length + " bytes from an endpoint that is not the publisher");
        }
        else if (length < PubSub.HEADER_LENGTH)
        {
            bad("a message of " + length + " bytes, shorter than the header");
        }
        else
        {
            final int type = rx.getInt(offset + PubSub.TYPE_OFFSET);
            final long publisherId = rx.getLong(offset + PubSub.PUBLISHER_OFFSET);
            final long sequence = rx.getLong(offset + PubSub.SEQUENCE_OFFSET);
            if (type == PubSub.TYPE_DATA)
            {
                onData(offset, length, publisherId, sequence);
            }
            else if (type == PubSub.TYPE_END)
            {
                System.out.println("subscriber: END from publisher " + publisherId + " after seq=" + sequence);
                done = true;
            }
            else
            {
                bad("a message of unknown type " + type);
            }
        }
        if (!done)
        {
            postReceive(buffer);
        }
    }

    private void onData(final int offset, final int length, final long publisherId, final long sequence)
    {
        final int size = rx.getInt(offset + PubSub.LENGTH_OFFSET);
        if (size != length - PubSub.HEADER_LENGTH)
        {
            bad("seq=" + sequence + ": header says " + size + " payload bytes, " +
                (length - PubSub.HEADER_LENGTH) + " arrived");
            return;
        }
        for (int i = 0; i < size; i++)
        {
            if (rx.get(offset + PubSub.HEADER_LENGTH + i) != PubSub.payloadByte(sequence, i))
            {
                bad("seq=" + sequence + ": payload byte " + i + " is not what the publisher wrote");
                return;
            }
        }

        if (publisherId != lastPublisherId)
        {
            // A publisher we have not heard from: the first one, or one that restarted (a new process).
            System.out.println("subscriber: publisher " + publisherId + " starts at seq=" + sequence);
        }
        else if (sequence <= lastSequence)
        {
            bad("seq=" + sequence + " after seq=" + lastSequence + ": out of order");
            return;
        }
        else if (sequence != lastSequence + 1)
        {
            // Messages from one sender arrive in order and none is lost, so a gap means the publisher dropped us
            // (it saw FI_EHOSTUNREACH: were we stopped for longer than the liveness timeout?) and we subscribed
            // again.
            missed += sequence - lastSequence - 1;
            System.out.println("subscriber: missed seq=" + (lastSequence + 1) + ".." + (sequence - 1));
        }
        lastPublisherId = publisherId;
        lastSequence = sequence;
        received++;
        System.out.println("received publisher=" + publisherId + " seq=" + sequence + " bytes=" + size);
        if (count != 0 && received == count)
        {
            done = true;
        }
    }

    private void bad(final String what)
    {
        System.err.println("subscriber: bad message: " + what);
        status = EXIT_BAD_MESSAGE;
        done = true;
    }

    private void postReceive(final int buffer)
    {
        final long rc = ep.recv(rx, buffer * PubSub.MAX_MESSAGE_LENGTH, PubSub.MAX_MESSAGE_LENGTH, 0,
            Addresses.FI_ADDR_UNSPEC, buffer);
        if (rc != 0)
        {
            throw new FabricException((int)-rc, "fi_recv: " + Errno.strerror((int)rc));
        }
    }
}
