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
 * The publishing side of the pubsub example: takes its well-known address ({@link PubSub}), waits until
 * {@code --min-subscribers} subscribers have announced themselves, then sends messages 1, 2, 3, ... to every
 * subscriber it knows, one every {@code --interval-ms}, pausing while fewer are subscribed. After {@code --count}
 * messages (0: until Ctrl-C) it sends END to each subscriber and exits 0.
 * <p>
 * What it shows: getinfo with hints, fabric/domain/AV/CQ/endpoint open and bind, a well-known address, enable,
 * posting receives, {@code fi_inject} for a message within the provider's {@code inject_size} and {@code fi_send}
 * (whose buffer is the provider's until its completion is read) for a longer one, {@code -FI_EAGAIN} as
 * back-pressure, reading the CQ (manual progress) with its source addresses (FI_SOURCE), error completions through
 * {@code readErr}, what to do when a subscriber is gone, and closing everything in try-with-resources.
 * <p>
 * One thread, the main thread, makes every call (the domain is opened FI_THREAD_DOMAIN); an instance is that
 * thread's state.
 */
public final class Publisher
{
    private static final String USAGE = "publisher [-p shm|tcp|... (provider)] [--node NODE] [--service SERVICE] " +
        "[--domain pubsub (shm)] [--count 100 (0: until Ctrl-C)] [--interval-ms 100] [--min-subscribers 1] " +
        "[--size 64 (payload bytes, at most " + PubSub.MAX_PAYLOAD_LENGTH + ")]";
    private static final Map<String, String> DEFAULTS = WellKnownAddress.withOptions(Map.of(
        "domain", PubSub.DEFAULT_DOMAIN, "count", "100", "interval-ms", "100", "min-subscribers", "1", "size", "64"));

    /** Receives kept posted for SUBSCRIBE messages; a receive's context is its buffer's index. */
    private static final int RECEIVES = 16;
    /** Subscribers this publisher can hold; the AV has this many entries. */
    private static final int MAX_SUBSCRIBERS = 64;
    /** How long the loop parks when there was nothing to do (the CQ was empty and no message was due). */
    private static final long IDLE_NS = TimeUnit.MICROSECONDS.toNanos(50);
    /**
     * How long a subscriber may refuse a message (-FI_EAGAIN: it does not read, or is not connected) before it is
     * dropped. Longer than shm's liveness timeout (5 s), which reports a stopped subscriber as FI_EHOSTUNREACH.
     */
    private static final long PATIENCE_NS = TimeUnit.SECONDS.toNanos(10);
    /** The context of a send is this bit and the subscriber's fi_addr; a receive's is its buffer's index. */
    private static final long SEND_CONTEXT = 1L << 62;

    private final Endpoint ep;
    private final AddressVector av;
    private final CompletionQueue cq;
    private final ShutdownSignal signal;
    private final long injectSize;
    private final long publisherId = ProcessHandle.current().pid();

    // Allocated once and reused: the data path itself allocates nothing.
    private final CqEntries entries = new CqEntries(RECEIVES);
    private final CqErrEntry errEntry = new CqErrEntry();
    private final ByteBuffer rx = ByteBuffer.allocateDirect(RECEIVES * PubSub.MAX_MESSAGE_LENGTH);
    private final ByteBuffer tx = ByteBuffer.allocateDirect(PubSub.MAX_MESSAGE_LENGTH);

    private final long[] subscriberAddr = new long[MAX_SUBSCRIBERS];
    private final String[] subscriberName = new String[MAX_SUBSCRIBERS];
    private final String[] leaving = new String[MAX_SUBSCRIBERS];
    private int subscriberCount;
    private int sendsInFlight;

    private Publisher(
        final Endpoint ep, final AddressVector av, final CompletionQueue cq, final ShutdownSignal signal,
        final long injectSize)
    {
        this.ep = ep;
        this.av = av;
        this.cq = cq;
        this.signal = signal;
        this.injectSize = injectSize;
    }

    /**
     * Run the publisher; exit status 0 when done, 1 for a usage error, else the libfabric errno of what failed.
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
            options.number("interval-ms");
            if (options.number("size") > PubSub.MAX_PAYLOAD_LENGTH ||
                options.number("min-subscribers") > MAX_SUBSCRIBERS)
            {
                throw new ExampleArgs.UsageException(USAGE, "--size is at most " + PubSub.MAX_PAYLOAD_LENGTH +
                    ", --min-subscribers at most " + MAX_SUBSCRIBERS);
            }
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
            // Control calls (getinfo, open, bind, enable, insert) throw; ex.errno() is libfabric's number.
            System.err.println("publisher: " + ex.getMessage());
            if (ex.errno() == Errno.FI_EADDRINUSE)
            {
                System.err.println("publisher: another publisher holds the well-known address");
            }
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

        // 1. fi_getinfo: what we need (PubSub.hints), where we are to be found (WellKnownAddress: FI_SOURCE with
        //    a node and service on a native provider). The provider is found through ServiceLoader. The first info
        //    is the best match. Nothing matching throws FabricException(FI_ENODATA) with the reason.
        final Info info = address.serverInfo(PubSub.hints(address, domainName));
        final String wellKnown = address.text(info);

        // 2. Open in order: fabric, domain (on shm: maps, or creates, the region file of the named domain), an AV
        //    for the subscribers' addresses, a CQ, the endpoint. try-with-resources closes them in reverse order,
        //    the endpoint first; closing a CQ or AV an endpoint is still bound to would fail with FI_EBUSY.
        try (Fabric fabric = Fabrics.fabric(info.fabricAttr(), 0);
            Domain domain = fabric.domain(info, 0);
            AddressVector av = domain.avOpen(new AvAttr().type(AvType.TABLE).count(MAX_SUBSCRIBERS), 0);
            CompletionQueue cq = domain.cqOpen(new CqAttr().format(CqFormat.MSG), 0);
            Endpoint ep = domain.endpoint(info, 0))
        {
            // 3. Before enable: take the well-known address subscribers look for (shm: fi_setname, FI_EADDRINUSE
            //    if another endpoint holds it), bind the AV and one CQ for both directions, then enable.
            address.take(ep, info);
            ep.bind(av, 0);
            ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
            ep.enable();
            System.out.println("publisher: id " + ProcessHandle.current().pid() + " at " + av.straddr(ep.getname()) +
                " (well-known address " + wellKnown + ")");

            final Publisher publisher = new Publisher(ep, av, cq, signal, info.txAttr().injectSize());
            return publisher.publish(options.number("count"), options.number("interval-ms"),
                (int)options.number("min-subscribers"), (int)options.number("size"), wellKnown);
        }
    }

    private int publish(
        final long count, final long intervalMs, final int minSubscribers, final int size, final String wellKnown)
    {
        // 4. Post the receives first: a message that arrives before any receive is posted is kept by the provider
        //    as "unexpected" (up to a limit), but a posted receive takes it without that extra copy.
        for (int i = 0; i < RECEIVES; i++)
        {
            postReceive(i);
        }

        final long intervalNs = TimeUnit.MILLISECONDS.toNanos(intervalMs);
        long sequence = 0;
        long nextSend = System.nanoTime();
        boolean waiting = false;
        while (signal.running() && (count == 0 || sequence < count))
        {
            final int completions = poll();
            if (subscriberCount < minSubscribers)
            {
                if (!waiting)
                {
                    System.out.println("publisher: waiting for " + (minSubscribers - subscriberCount) +
                        " more subscriber(s) at " + wellKnown);
                    waiting = true;
                }
                idle(completions);
                nextSend = System.nanoTime();
                continue;
            }
            waiting = false;

            if (System.nanoTime() - nextSend >= 0)
            {
                sequence++;
                writeData(sequence, size);
                sendToAll(PubSub.HEADER_LENGTH + size);
                nextSend = System.nanoTime() + intervalNs;
            }
            else
            {
                idle(completions);
            }
        }

        if (count != 0 && sequence == count)
        {
            // The stream is over: tell every subscriber. A publisher stopped by Ctrl-C sends no END: its
            // subscribers wait for it to come back, as after a crash.
            tx.putInt(PubSub.TYPE_OFFSET, PubSub.TYPE_END).putInt(PubSub.LENGTH_OFFSET, 0)
                .putLong(PubSub.PUBLISHER_OFFSET, publisherId).putLong(PubSub.SEQUENCE_OFFSET, sequence);
            final int told = subscriberCount;
            sendToAll(PubSub.HEADER_LENGTH);
            System.out.println("publisher: sent " + sequence + " messages; END to " + told + " subscriber(s)");
        }
        else
        {
            System.out.println("publisher: stopped after " + sequence + " messages");
        }
        // Returning closes everything (try-with-resources in open). What was sent has left this process: on shm it
        // is in the subscribers' rings, on tcp in the sockets, and it is delivered after this endpoint has closed.
        return 0;
    }

    private void writeData(final long sequence, final int size)
    {
        tx.putInt(PubSub.TYPE_OFFSET, PubSub.TYPE_DATA).putInt(PubSub.LENGTH_OFFSET, size)
            .putLong(PubSub.PUBLISHER_OFFSET, publisherId).putLong(PubSub.SEQUENCE_OFFSET, sequence);
        for (int i = 0; i < size; i++)
        {
            tx.put(PubSub.HEADER_LENGTH + i, PubSub.payloadByte(sequence, i));
        }
    }

    /**
     * Send the message in {@code tx} to every subscriber, in the order the endpoint sees them, and return once
     * {@code tx} may be written again. Within the provider's inject_size, fi_inject copies the message out before
     * it returns, and writes no completion. A longer message goes with fi_send: the provider reads {@code tx} until
     * the send's completion, so we wait for every subscriber's before we return. Subscribers found gone meanwhile
     * are dropped at the end.
     */
    private void sendToAll(final int length)
    {
        for (int i = subscriberCount - 1; i >= 0; i--)
        {
            final long deadline = System.nanoTime() + PATIENCE_NS;
            long rc;
            while ((rc = post(i, length)) == -Errno.FI_EAGAIN && signal.running())
            {
                // The subscriber's ring is full (shm: it is slower than we are) or the provider's queue is (tcp:
                // not connected yet, or the socket is full). Back-pressure: keep our own side progressing and
                // retry. (On shm, a subscriber that stops altogether is declared gone after
                // jfabric.shm.liveness.timeout.ms, 5 s by default, and the retry then returns FI_EHOSTUNREACH.)
                // A publisher that must never wait would drop the message for this subscriber instead.
                poll();
                Thread.onSpinWait();
                if (System.nanoTime() - deadline >= 0)
                {
                    leave(i, "it took no message for " + TimeUnit.NANOSECONDS.toSeconds(PATIENCE_NS) +
                        " s (FI_EAGAIN)");
                    break;
                }
            }
            if (rc == -Errno.FI_EHOSTUNREACH)
            {
                // shm: the subscriber's endpoint closed, its process is gone, or it stopped for longer than the
                // liveness timeout. Nothing was sent. Forget it; if it comes back it subscribes again.
                leave(i, "FI_EHOSTUNREACH: its endpoint closed or its process is gone or stopped");
            }
            else if (rc < 0 && rc != -Errno.FI_EAGAIN)
            {
                leave(i, Errno.name((int)rc) + " from the post: " + Errno.strerror((int)rc));
            }
        }
        final long deadline = System.nanoTime() + PATIENCE_NS;
        while (sendsInFlight > 0)
        {
            // Every completion, successful or in error (a tcp peer that went away: FI_ENOTCONN), gives tx back.
            poll();
            if (System.nanoTime() - deadline >= 0)
            {
                throw new FabricException(Errno.FI_ETIMEDOUT, sendsInFlight + " send(s) not completed within " +
                    TimeUnit.NANOSECONDS.toSeconds(PATIENCE_NS) + " s");
            }
        }
        for (int i = subscriberCount - 1; i >= 0; i--)
        {
            if (leaving[i] != null)
            {
                removeSubscriber(i);
            }
        }
    }

    /**
     * @return 0 when the message is on its way to subscriber {@code index}, or the negated errno of the post.
     */
    private long post(final int index, final int length)
    {
        if (length <= injectSize)
        {
            return ep.inject(tx, 0, length, subscriberAddr[index]);
        }
        final long rc = ep.send(tx, 0, length, 0, subscriberAddr[index], SEND_CONTEXT | subscriberAddr[index]);
        if (rc == 0)
        {
            sendsInFlight++;
        }
        return rc;
    }

    /**
     * Read the CQ once. With manual progress this read is also what moves data: it drains our receive ring
     * (shm) or sockets (tcp) and matches messages to the posted receives.
     *
     * @return the completions handled (0 when there were none).
     */
    private int poll()
    {
        final int n = cq.readFrom(entries, entries.capacity());
        if (n == -Errno.FI_EAGAIN)
        {
            return 0;                           // nothing completed: the normal case, not an error
        }
        if (n == -Errno.FI_EAVAIL)
        {
            readError();                        // the entry at the head is an error: take it with readErr
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
                // readFrom's srcAddr (FI_SOURCE): the sender's fi_addr in our AV, FI_ADDR_NOTAVAIL when it is
                // not in it, that is, a subscriber we do not know yet.
                onMessage((int)entries.opContext[i], (int)entries.len[i], entries.srcAddr[i]);
            }
            else if ((entries.flags[i] & Flags.FI_SEND) != 0)
            {
                sendsInFlight--;                // a subscriber's copy of tx has gone
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
        // err is the positive errno; strerror with errData gives the provider's detail.
        final String what = Errno.name(errEntry.err) + ": " + cq.strerror(errEntry.provErrno, errEntry.errData);
        if ((errEntry.flags & Flags.FI_SEND) != 0)
        {
            // A send that failed after it was accepted: its subscriber went away with it in flight.
            sendsInFlight--;
            final int index = indexOf(errEntry.opContext & ~SEND_CONTEXT);
            if (index >= 0)
            {
                leave(index, what);
            }
            return;
        }
        System.err.println("publisher: error completion " + what + " (context " + errEntry.opContext + ", len " +
            errEntry.len + ", olen " + errEntry.olen + ")");
        if ((errEntry.flags & Flags.FI_RECV) != 0)
        {
            // A receive that completed in error (FI_ETRUNC for a message longer than the buffer, FI_EIO for one
            // whose sender died half-way) is no longer posted: post its buffer again.
            postReceive((int)errEntry.opContext);
        }
    }

    private void onMessage(final int buffer, final int length, final long source)
    {
        final int offset = buffer * PubSub.MAX_MESSAGE_LENGTH;
        if (length >= PubSub.HEADER_LENGTH && rx.getInt(offset + PubSub.TYPE_OFFSET) == PubSub.TYPE_SUBSCRIBE &&
            source == Addresses.FI_ADDR_NOTAVAIL)
        {
            // A SUBSCRIBE from an endpoint not in our AV: a new subscriber (or one that restarted: a restarted
            // process has a new address). Ones we know come with their fi_addr and are only keepalives.
            final int nameLength = Math.min(rx.getInt(offset + PubSub.LENGTH_OFFSET), length - PubSub.HEADER_LENGTH);
            final byte[] name = new byte[Math.max(0, nameLength)];
            rx.get(offset + PubSub.HEADER_LENGTH, name);
            addSubscriber(name);
        }
        postReceive(buffer);                    // the buffer is ours again once we are done with the message
    }

    private void addSubscriber(final byte[] name)
    {
        final String address;
        try
        {
            address = av.straddr(name);
        }
        catch (final FabricException ex)
        {
            System.err.println("publisher: a SUBSCRIBE with an address this provider cannot read: " + ex.getMessage());
            return;
        }
        for (int i = 0; i < subscriberCount; i++)
        {
            if (subscriberName[i].equals(address))
            {
                return;                         // SUBSCRIBEs already queued before we inserted it
            }
        }
        if (subscriberCount == MAX_SUBSCRIBERS)
        {
            System.err.println("publisher: " + MAX_SUBSCRIBERS + " subscribers already; ignoring " + address);
            return;
        }
        final long[] fiAddr = new long[1];
        final int inserted;
        try
        {
            // The address as fi_getname gave it to the subscriber: fi_av_insert takes the provider's format.
            inserted = av.insert(new byte[][]{name}, 1, fiAddr, 0, 0, null);
        }
        catch (final FabricException ex)
        {
            System.err.println("publisher: cannot insert subscriber address '" + address + "': " + ex.getMessage());
            return;
        }
        if (inserted != 1)
        {
            System.err.println("publisher: subscriber address '" + address + "' is not of this domain; ignored");
            return;
        }
        subscriberAddr[subscriberCount] = fiAddr[0];
        subscriberName[subscriberCount] = address;
        subscriberCount++;
        System.out.println("publisher: subscriber joined: " + address + " (" + subscriberCount + " subscribed)");
    }

    private int indexOf(final long fiAddr)
    {
        for (int i = 0; i < subscriberCount; i++)
        {
            if (subscriberAddr[i] == fiAddr)
            {
                return i;
            }
        }
        return -1;
    }

    /** Drop subscriber {@code index} once the send under way is over (sendToAll): say why now. */
    private void leave(final int index, final String why)
    {
        if (leaving[index] == null)
        {
            leaving[index] = why;
        }
    }

    private void removeSubscriber(final int index)
    {
        final String address = subscriberName[index];
        final String why = leaving[index];
        av.remove(new long[]{subscriberAddr[index]}, 1, 0);
        subscriberCount--;
        System.arraycopy(subscriberAddr, index + 1, subscriberAddr, index, subscriberCount - index);
        System.arraycopy(subscriberName, index + 1, subscriberName, index, subscriberCount - index);
        System.arraycopy(leaving, index + 1, leaving, index, subscriberCount - index);
        subscriberName[subscriberCount] = null;
        leaving[subscriberCount] = null;
        System.out.println("publisher: subscriber left: " + address + " (" + why + "); " + subscriberCount +
            " subscribed");
    }

    private void postReceive(final int buffer)
    {
        // Buffers are given as (ByteBuffer, absolute offset, length); the context comes back in the completion.
        final long rc = ep.recv(rx, buffer * PubSub.MAX_MESSAGE_LENGTH, PubSub.MAX_MESSAGE_LENGTH, 0,
            Addresses.FI_ADDR_UNSPEC, buffer);
        if (rc != 0)
        {
            // FI_EAGAIN would mean more receives than rx_attr.size (1024 on shm): not with 16.
            throw new FabricException((int)-rc, "fi_recv: " + Errno.strerror((int)rc));
        }
    }

    private static void idle(final int completions)
    {
        if (completions == 0)
        {
            // Nothing to do: give the core back for a moment. A latency-critical loop would spin instead
            // (Thread.onSpinWait()), at the cost of a busy core.
            LockSupport.parkNanos(IDLE_NS);
        }
    }
}
