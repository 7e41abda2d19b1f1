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
package io.jfabric.examples.reqrep;

import io.jfabric.Addresses;
import io.jfabric.AddressVector;
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
 * The server of the reqrep example: listens at its well-known address, learns of clients from the shared AV or
 * from their HELLO ({@link ReqRep}), and answers every request by echoing it to the source address its completion
 * carries (FI_SOURCE). It runs until Ctrl-C, or until {@code --clients} clients have said BYE; exit 0.
 * <p>
 * A reply is the request itself, sent back from its receive buffer, which is posted again once the reply has gone:
 * at once after fi_inject (which copies it out) when it is within the provider's inject_size, after the send's
 * completion when it goes with fi_send. A reply the provider cannot take now (-FI_EAGAIN) waits, its buffer with
 * it, and is tried again after the next CQ read, for up to a second.
 * <p>
 * It busy-polls its CQ while requests come (the round trip is what the client measures) and parks briefly once
 * nothing has come for a millisecond, so an idle server does not keep a core busy.
 * <p>
 * One thread, the main thread, makes every call (FI_THREAD_DOMAIN); an instance is that thread's state.
 */
public final class Server
{
    private static final String USAGE = "server [-p shm|tcp|... (provider)] [--node NODE] [--service SERVICE] " +
        "[--domain reqrep (shm)] [--clients 0 (exit after this many clients said BYE; 0: until Ctrl-C)]";
    private static final Map<String, String> DEFAULTS =
        WellKnownAddress.withOptions(Map.of("domain", ReqRep.DEFAULT_DOMAIN, "clients", "0"));

    /** Receives kept posted; a receive's context is its buffer's index. */
    private static final int RECEIVES = 16;
    /** The context of a reply sent with fi_send: this bit and the buffer's index. */
    private static final long REPLY_CONTEXT = 1L << 62;
    /** Spin this long without work before parking between polls. */
    private static final long SPIN_NS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long PARK_NS = TimeUnit.MICROSECONDS.toNanos(50);
    /** How long a reply waits for the provider to take it before it is dropped. */
    private static final long REPLY_PATIENCE_NS = TimeUnit.SECONDS.toNanos(1);

    private final Endpoint ep;
    private final AddressVector av;
    private final CompletionQueue cq;
    private final ShutdownSignal signal;
    private final boolean sharedAv;
    private final long injectSize;

    private final CqEntries entries = new CqEntries(RECEIVES);
    private final CqErrEntry errEntry = new CqErrEntry();
    private final ByteBuffer rx = ByteBuffer.allocateDirect(RECEIVES * ReqRep.MAX_MESSAGE_LENGTH);
    /** Per receive buffer: the reply waiting in it for the provider (destination, length, since when). */
    private final long[] replyTo = new long[RECEIVES];
    private final int[] replyLength = new int[RECEIVES];
    private final long[] replySince = new long[RECEIVES];
    private final boolean[] replyWaiting = new boolean[RECEIVES];

    private long requests;
    private long byes;

    private Server(
        final Endpoint ep, final AddressVector av, final CompletionQueue cq, final ShutdownSignal signal,
        final Info info)
    {
        this.ep = ep;
        this.av = av;
        this.cq = cq;
        this.signal = signal;
        this.sharedAv = ReqRep.sharedAv(info);
        this.injectSize = info.txAttr().injectSize();
    }

    /**
     * Run the server; exit status 0 when done, 1 for a usage error, else the libfabric errno of what failed.
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
            options.number("clients");
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
            System.err.println("server: " + ex.getMessage());
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
        final WellKnownAddress address = WellKnownAddress.of(options, ReqRep.DEFAULT_PORT);
        final Info info = address.serverInfo(ReqRep.hints(address, domainName));
        final String wellKnown = address.text(info);

        // With a shared AV it is the NAMED one clients insert themselves into: the server never inserts anything,
        // yet its completions name every client that did. Without, clients are inserted as their HELLOs come.
        try (Fabric fabric = Fabrics.fabric(info.fabricAttr(), 0);
            Domain domain = fabric.domain(info, 0);
            AddressVector av = domain.avOpen(ReqRep.avAttr(info), 0);
            CompletionQueue cq = domain.cqOpen(new CqAttr().format(CqFormat.MSG), 0);
            Endpoint ep = domain.endpoint(info, 0))
        {
            address.take(ep, info);
            ep.bind(av, 0);
            ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
            ep.enable();
            System.out.println("server: at " + av.straddr(ep.getname()) + " (well-known address " + wellKnown +
                "), " + (ReqRep.sharedAv(info) ? "clients' AV '" + ReqRep.CLIENTS_AV + "'" : "clients say HELLO"));

            return new Server(ep, av, cq, signal, info).serve(options.number("clients"));
        }
    }

    private int serve(final long clients)
    {
        for (int i = 0; i < RECEIVES; i++)
        {
            postReceive(i);
        }
        long lastWork = System.nanoTime();
        while (signal.running() && (clients == 0 || byes < clients))
        {
            if (poll() > 0)
            {
                lastWork = System.nanoTime();
            }
            else if (System.nanoTime() - lastWork < SPIN_NS)
            {
                Thread.onSpinWait();
            }
            else
            {
                LockSupport.parkNanos(PARK_NS);
            }
            retryReplies();
        }
        System.out.println("server: answered " + requests + " requests from " + byes + " client(s)" +
            (signal.running() ? "" : " (interrupted)"));
        return 0;
    }

    /**
     * Read the CQ once (under manual progress this is also what moves our side's data).
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
                onRequest((int)entries.opContext[i], (int)entries.len[i], entries.srcAddr[i]);
            }
            else if ((entries.flags[i] & Flags.FI_SEND) != 0)
            {
                postReceive((int)(entries.opContext[i] & ~REPLY_CONTEXT)); // the reply sent from it has gone
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
        System.err.println("server: error completion " + Errno.name(errEntry.err) + ": " +
            cq.strerror(errEntry.provErrno, errEntry.errData) + " (context " + errEntry.opContext + ", len " +
            errEntry.len + ", olen " + errEntry.olen + ")");
        if ((errEntry.flags & (Flags.FI_RECV | Flags.FI_SEND)) != 0)
        {
            // A receive that completed in error, or a reply sent from its buffer that failed (its client went
            // away): the buffer is ours again.
            postReceive((int)(errEntry.opContext & ~REPLY_CONTEXT));
        }
    }

    private void onRequest(final int buffer, final int length, final long source)
    {
        final int offset = buffer * ReqRep.MAX_MESSAGE_LENGTH;
        final int type = length >= ReqRep.HEADER_LENGTH ? rx.getInt(offset + ReqRep.TYPE_OFFSET) : 0;
        long client = source;
        if (client == Addresses.FI_ADDR_NOTAVAIL && type == ReqRep.TYPE_HELLO && !sharedAv)
        {
            client = insertClient(offset, length);
        }
        if (client == Addresses.FI_ADDR_NOTAVAIL)
        {
            // FI_SOURCE could not name the sender: it is not in our AV, so there is nowhere to reply.
            System.err.println("server: a request of " + length + " bytes from an endpoint that is not in " +
                (sharedAv ? "AV '" + ReqRep.CLIENTS_AV + "'" : "our AV (it did not say HELLO)") + "; not answered");
            postReceive(buffer);
            return;
        }
        if (type != ReqRep.TYPE_HELLO)
        {
            requests++;
        }
        if (type == ReqRep.TYPE_BYE)
        {
            byes++;
            System.out.println("server: BYE from client " + rx.getLong(offset + ReqRep.CLIENT_OFFSET) +
                " (fi_addr " + client + ") after " + rx.getLong(offset + ReqRep.SEQUENCE_OFFSET) + " requests");
        }
        replyTo[buffer] = client;
        replyLength[buffer] = length;
        replySince[buffer] = System.nanoTime();
        replyWaiting[buffer] = !reply(buffer);
    }

    /**
     * @return the fi_addr of the client whose HELLO is at {@code offset} (its payload is the client's fi_getname),
     *         or FI_ADDR_NOTAVAIL when the address is refused.
     */
    private long insertClient(final int offset, final int length)
    {
        final int nameLength = Math.min(rx.getInt(offset + ReqRep.LENGTH_OFFSET), length - ReqRep.HEADER_LENGTH);
        final byte[] name = new byte[Math.max(0, nameLength)];
        rx.get(offset + ReqRep.HEADER_LENGTH, name);
        final long[] fiAddr = {Addresses.FI_ADDR_NOTAVAIL};
        try
        {
            av.insert(new byte[][]{name}, 1, fiAddr, 0, 0, null);
        }
        catch (final FabricException ex)
        {
            System.err.println("server: a HELLO whose address the AV refuses: " + ex.getMessage());
        }
        return fiAddr[0];
    }

    /**
     * Send the reply waiting in {@code buffer} (the request itself, echoed to where it came from).
     *
     * @return true when the buffer is done with (reposted, or a send under way reposts it at its completion), false
     *         when the reply still waits for the provider.
     */
    private boolean reply(final int buffer)
    {
        final int offset = buffer * ReqRep.MAX_MESSAGE_LENGTH;
        final int length = replyLength[buffer];
        final long rc;
        if (length <= injectSize)
        {
            // fi_inject copies the reply out before it returns: no send completion, the buffer is free at once.
            rc = ep.inject(rx, offset, length, replyTo[buffer]);
            if (rc == 0)
            {
                postReceive(buffer);
                return true;
            }
        }
        else
        {
            // fi_send: the provider reads the buffer until the completion, which posts it again (poll).
            rc = ep.send(rx, offset, length, 0, replyTo[buffer], REPLY_CONTEXT | buffer);
            if (rc == 0)
            {
                return true;
            }
        }
        if (rc == -Errno.FI_EAGAIN)
        {
            // shm: the client's ring is full, and only the client's reading frees it; tcp: the socket or the
            // provider's queue is full, and our CQ reads move it on. A live client that does not read for a second
            // loses this reply rather than stall every other client.
            if (System.nanoTime() - replySince[buffer] < REPLY_PATIENCE_NS && signal.running())
            {
                return false;
            }
            System.err.println("server: reply to fi_addr " + replyTo[buffer] + " dropped: not taken within " +
                TimeUnit.NANOSECONDS.toSeconds(REPLY_PATIENCE_NS) + " s");
        }
        else if (rc == -Errno.FI_EHOSTUNREACH)
        {
            // The client closed or died after sending (or stopped for longer than jfabric.shm.liveness.timeout.ms).
            System.err.println("server: client at fi_addr " + replyTo[buffer] + " is gone (FI_EHOSTUNREACH); reply " +
                "dropped");
        }
        else
        {
            throw new FabricException((int)-rc, "reply: " + Errno.strerror((int)rc));
        }
        postReceive(buffer);
        return true;
    }

    private void retryReplies()
    {
        for (int buffer = 0; buffer < RECEIVES; buffer++)
        {
            if (replyWaiting[buffer])
            {
                replyWaiting[buffer] = !reply(buffer);
            }
        }
    }

    private void postReceive(final int buffer)
    {
        final long rc = ep.recv(rx, buffer * ReqRep.MAX_MESSAGE_LENGTH, ReqRep.MAX_MESSAGE_LENGTH, 0,
            Addresses.FI_ADDR_UNSPEC, buffer);
        if (rc != 0)
        {
            throw new FabricException((int)-rc, "fi_recv: " + Errno.strerror((int)rc));
        }
    }
}
