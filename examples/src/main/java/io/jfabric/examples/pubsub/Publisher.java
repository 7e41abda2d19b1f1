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
import io.jfabric.Versions;
import io.jfabric.examples.ExampleArgs;
import io.jfabric.examples.ShutdownSignal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The publishing side of the pubsub example: takes the domain's well-known address ({@link PubSub}), waits until
 * {@code --min-subscribers} subscribers have announced themselves, then sends messages 1, 2, 3, ... to every
 * subscriber it knows, one every {@code --interval-ms}, pausing while fewer are subscribed. After {@code --count}
 * messages (0: until Ctrl-C) it sends END to each subscriber and exits 0.
 * <p>
 * What it shows: getinfo with hints, fabric/domain/AV/CQ/endpoint open and bind, {@code fi_setname}, enable,
 * posting receives, {@code fi_inject} with {@code -FI_EAGAIN} back-pressure, reading the CQ (manual progress) with
 * its source addresses (FI_SOURCE), error completions through {@code readErr}, what to do on
 * {@code -FI_EHOSTUNREACH}, and closing everything in try-with-resources.
 * <p>
 * One thread, the main thread, makes every call (the domain is opened FI_THREAD_DOMAIN); an instance is that
 * thread's state.
 */
public final class Publisher
{
    private static final String USAGE = "publisher [--domain pubsub] [--count 100 (0: until Ctrl-C)] " +
        "[--interval-ms 100] [--min-subscribers 1] [--size 64 (payload bytes, at most " +
        PubSub.MAX_PAYLOAD_LENGTH + ")]";
    private static final Map<String, String> DEFAULTS = Map.of(
        "domain", PubSub.DEFAULT_DOMAIN, "count", "100", "interval-ms", "100", "min-subscribers", "1", "size", "64");

    /** Receives kept posted for SUBSCRIBE messages; a receive's context is its buffer's index. */
    private static final int RECEIVES = 16;
    /** Subscribers this publisher can hold; the AV has this many entries. */
    private static final int MAX_SUBSCRIBERS = 64;
    /** How long the loop parks when there was nothing to do (the CQ was empty and no message was due). */
    private static final long IDLE_NS = TimeUnit.MICROSECONDS.toNanos(50);

    private final Endpoint ep;
    private final AddressVector av;
    private final CompletionQueue cq;
    private final ShutdownSignal signal;
    private final long publisherId = ProcessHandle.current().pid();

    // Allocated once and reused: the data path itself allocates nothing.
    private final CqEntries entries = new CqEntries(RECEIVES);
    private final CqErrEntry errEntry = new CqErrEntry();
    private final ByteBuffer rx = ByteBuffer.allocateDirect(RECEIVES * PubSub.MAX_MESSAGE_LENGTH);
    private final ByteBuffer tx = ByteBuffer.allocateDirect(PubSub.MAX_MESSAGE_LENGTH);

    private final long[] subscriberAddr = new long[MAX_SUBSCRIBERS];
    private final String[] subscriberName = new String[MAX_SUBSCRIBERS];
    private int subscriberCount;

    private Publisher(final Endpoint ep, final AddressVector av, final CompletionQueue cq, final ShutdownSignal signal)
    {
        this.ep = ep;
        this.av = av;
        this.cq = cq;
        this.signal = signal;
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
                System.err.println("publisher: another publisher holds the well-known address of this domain");
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

        // 1. fi_getinfo: what we need (PubSub.hints); the shm provider is found through ServiceLoader. The first
        //    info is the best match. Nothing matching throws FabricException(FI_ENODATA) with the reason.
        final List<Info> infos = Fabrics.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, PubSub.hints(domainName));
        final Info info = infos.get(0);
        final String wellKnown = PubSub.publisherAddress(info, domainName);

        // 2. Open in order: fabric, domain (maps, or creates, the region file of the named domain), an AV for the
        //    subscribers' addresses, a CQ, the endpoint. try-with-resources closes them in reverse order, the
        //    endpoint first; closing a CQ or AV an endpoint is still bound to would fail with FI_EBUSY.
        try (Fabric fabric = Fabrics.fabric(info.fabricAttr(), 0);
            Domain domain = fabric.domain(info, 0);
            AddressVector av = domain.avOpen(new AvAttr().type(AvType.TABLE).count(MAX_SUBSCRIBERS), 0);
            CompletionQueue cq = domain.cqOpen(new CqAttr().format(CqFormat.MSG), 0);
            Endpoint ep = domain.endpoint(info, 0))
        {
            // 3. Before enable: move to the well-known address subscribers look for (FI_EADDRINUSE if another
            //    endpoint holds it), bind the AV and one CQ for both directions, then enable.
            ep.setname(wellKnown.getBytes(StandardCharsets.US_ASCII));
            ep.bind(av, 0);
            ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
            ep.enable();
            System.out.println("publisher: id " + ProcessHandle.current().pid() + " at " +
                PubSub.addressText(ep.getname()) + " (well-known address " + wellKnown + ")");

            final Publisher publisher = new Publisher(ep, av, cq, signal);
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
            sendToAll(PubSub.HEADER_LENGTH);
            System.out.println("publisher: sent " + sequence + " messages; END to " + subscriberCount +
                " subscriber(s)");
        }
        else
        {
            System.out.println("publisher: stopped after " + sequence + " messages");
        }
        // Returning closes everything (try-with-resources in open). Messages already injected stay in the
        // subscribers' rings and are delivered after this endpoint has closed.
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
     * Send the message in {@code tx} to every subscriber, in the order the endpoint sees them. fi_inject copies
     * the message into the subscriber's ring before it returns, so {@code tx} may be reused at once and no send
     * completion is written.
     */
    private void sendToAll(final int length)
    {
        // Backwards, so that dropping subscriber i does not move the ones still to send to.
        for (int i = subscriberCount - 1; i >= 0; i--)
        {
            long rc;
            while ((rc = ep.inject(tx, 0, length, subscriberAddr[i])) == -Errno.FI_EAGAIN && signal.running())
            {
                // The subscriber's ring is full: it is slower than we are. Back-pressure: keep our own side
                // progressing and retry. (A subscriber that stops altogether is declared gone after
                // jfabric.shm.liveness.timeout.ms, 5 s by default, and the retry then returns FI_EHOSTUNREACH.)
                // A publisher that must never wait would drop the message for this subscriber instead.
                poll();
                Thread.onSpinWait();
            }
            if (rc == -Errno.FI_EHOSTUNREACH)
            {
                // The subscriber's endpoint closed, its process is gone, or it stopped for longer than the
                // liveness timeout. Nothing was sent. Forget it; if it comes back it subscribes again.
                removeSubscriber(i, "FI_EHOSTUNREACH: its endpoint closed or its process is gone or stopped");
            }
            else if (rc < 0 && rc != -Errno.FI_EAGAIN)
            {
                throw new FabricException((int)-rc, "fi_inject to " + subscriberName[i] + ": " + Errno.strerror((int)rc));
            }
        }
    }

    /**
     * Read the CQ once. With manual progress this read is also what moves data: it drains our receive ring
     * and matches messages to the posted receives.
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
        System.err.println("publisher: error completion " + Errno.name(errEntry.err) + ": " +
            cq.strerror(errEntry.provErrno, errEntry.errData) + " (context " + errEntry.opContext + ", len " +
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
            final int textLength = Math.min(rx.getInt(offset + PubSub.LENGTH_OFFSET), length - PubSub.HEADER_LENGTH);
            addSubscriber(PubSub.payloadText(rx, offset, Math.max(0, textLength)));
        }
        postReceive(buffer);                    // the buffer is ours again once we are done with the message
    }

    private void addSubscriber(final String address)
    {
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
            inserted = av.insert(new String[]{address}, 1, fiAddr, 0, 0);
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

    private void removeSubscriber(final int index, final String why)
    {
        final String address = subscriberName[index];
        av.remove(new long[]{subscriberAddr[index]}, 1, 0);
        subscriberCount--;
        System.arraycopy(subscriberAddr, index + 1, subscriberAddr, index, subscriberCount - index);
        System.arraycopy(subscriberName, index + 1, subscriberName, index, subscriberCount - index);
        subscriberName[subscriberCount] = null;
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
            // FI_EAGAIN would mean more receives than rx_attr.size (1024): not with 16.
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
