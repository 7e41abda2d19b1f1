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
import io.jfabric.Versions;
import io.jfabric.examples.ExampleArgs;
import io.jfabric.examples.ShutdownSignal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The server of the reqrep example: takes the domain's well-known address, opens the shared AV clients insert
 * themselves into ({@link ReqRep}), and answers every request by echoing it to the source address its completion
 * carries (FI_SOURCE). It runs until Ctrl-C, or until {@code --clients} clients have said BYE; exit 0.
 * <p>
 * It busy-polls its CQ while requests come (the round trip is what the client measures) and parks briefly once
 * nothing has come for a millisecond, so an idle server does not keep a core busy.
 * <p>
 * One thread, the main thread, makes every call (FI_THREAD_DOMAIN); an instance is that thread's state.
 */
public final class Server
{
    private static final String USAGE = "server [--domain reqrep] [--clients 0 (exit after this many clients " +
        "said BYE; 0: until Ctrl-C)]";
    private static final Map<String, String> DEFAULTS = Map.of("domain", ReqRep.DEFAULT_DOMAIN, "clients", "0");

    /** Receives kept posted; a receive's context is its buffer's index. */
    private static final int RECEIVES = 16;
    /** Spin this long without work before parking between polls. */
    private static final long SPIN_NS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long PARK_NS = TimeUnit.MICROSECONDS.toNanos(50);
    /** How long a reply waits for room in a client's ring before it is dropped. */
    private static final long REPLY_PATIENCE_NS = TimeUnit.SECONDS.toNanos(1);

    private final Endpoint ep;
    private final CompletionQueue cq;
    private final ShutdownSignal signal;

    private final CqEntries entries = new CqEntries(RECEIVES);
    private final CqErrEntry errEntry = new CqErrEntry();
    private final ByteBuffer rx = ByteBuffer.allocateDirect(RECEIVES * ReqRep.MAX_MESSAGE_LENGTH);

    private long requests;
    private long byes;

    private Server(final Endpoint ep, final CompletionQueue cq, final ShutdownSignal signal)
    {
        this.ep = ep;
        this.cq = cq;
        this.signal = signal;
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
        final Info info = Fabrics.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, ReqRep.hints(domainName)).get(0);
        final String wellKnown = ReqRep.serverAddress(info, domainName);

        // The AV is the NAMED one clients insert themselves into: the server never inserts anything, yet its
        // completions name every client that did.
        try (Fabric fabric = Fabrics.fabric(info.fabricAttr(), 0);
            Domain domain = fabric.domain(info, 0);
            AddressVector av = domain.avOpen(ReqRep.avAttr(), 0);
            CompletionQueue cq = domain.cqOpen(new CqAttr().format(CqFormat.MSG), 0);
            Endpoint ep = domain.endpoint(info, 0))
        {
            ep.setname(wellKnown.getBytes(StandardCharsets.US_ASCII));
            ep.bind(av, 0);
            ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
            ep.enable();
            System.out.println("server: at " + ReqRep.addressText(ep.getname()) + " (well-known address " +
                wellKnown + "), clients' AV '" + ReqRep.CLIENTS_AV + "'");

            return new Server(ep, cq, signal).serve(options.number("clients"));
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
        if ((errEntry.flags & Flags.FI_RECV) != 0)
        {
            postReceive((int)errEntry.opContext);
        }
    }

    private void onRequest(final int buffer, final int length, final long source)
    {
        final int offset = buffer * ReqRep.MAX_MESSAGE_LENGTH;
        if (source == Addresses.FI_ADDR_NOTAVAIL)
        {
            // FI_SOURCE could not name the sender: it is not in the shared AV, so there is nowhere to reply.
            System.err.println("server: a request of " + length + " bytes from an endpoint that is not in AV '" +
                ReqRep.CLIENTS_AV + "'; not answered");
        }
        else
        {
            // The reply is the request itself, sent back from the receive buffer. fi_inject copies it out before
            // returning, so the buffer can be posted again right after, and no send completion is written.
            reply(offset, length, source);
            requests++;
            if (length >= ReqRep.HEADER_LENGTH && rx.getInt(offset + ReqRep.TYPE_OFFSET) == ReqRep.TYPE_BYE)
            {
                byes++;
                System.out.println("server: BYE from client " + rx.getLong(offset + ReqRep.CLIENT_OFFSET) +
                    " (fi_addr " + source + ") after " + rx.getLong(offset + ReqRep.SEQUENCE_OFFSET) + " requests");
            }
        }
        postReceive(buffer);
    }

    private void reply(final int offset, final int length, final long destination)
    {
        final long deadline = System.nanoTime() + REPLY_PATIENCE_NS;
        long rc;
        while ((rc = ep.inject(rx, offset, length, destination)) == -Errno.FI_EAGAIN)
        {
            // The client's ring is full: only the client's reading frees it, so just retry, for a while. A live
            // client that does not read for a second loses this reply rather than stall every other client.
            if (System.nanoTime() - deadline >= 0 || !signal.running())
            {
                System.err.println("server: reply to fi_addr " + destination + " dropped: its ring stayed full");
                return;
            }
            Thread.onSpinWait();
        }
        if (rc == -Errno.FI_EHOSTUNREACH)
        {
            // The client closed or died after sending (or stopped for longer than jfabric.shm.liveness.timeout.ms).
            System.err.println("server: client at fi_addr " + destination + " is gone (FI_EHOSTUNREACH); reply dropped");
        }
        else if (rc < 0)
        {
            throw new FabricException((int)-rc, "fi_inject reply: " + Errno.strerror((int)rc));
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
