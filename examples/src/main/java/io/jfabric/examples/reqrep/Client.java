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
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The client of the reqrep example: inserts the server's well-known address into its AV, and makes itself known
 * ({@link ReqRep}): where the provider shares AVs, by inserting itself into the shared one, otherwise with a HELLO
 * carrying its address. Then it sends {@code --warmup} unmeasured and {@code --requests} measured requests, one at a
 * time, each with {@code fi_send} (so it also waits for the send's completion), checks that every reply is its own
 * request echoed intact, prints the round trip's p50, p99 and max, says BYE, removes what it put in a shared AV and
 * exits 0. A server that is not there yet is waited for, up to {@code --timeout-s}.
 * <p>
 * The round trip is timed with {@link System#nanoTime()} from the send call to the reply's completion; nothing is
 * allocated while measuring.
 * <p>
 * One thread, the main thread, makes every call (FI_THREAD_DOMAIN); an instance is that thread's state.
 */
public final class Client
{
    private static final String USAGE = "client [-p shm|tcp|... (provider)] [--node NODE] [--service SERVICE] " +
        "[--domain reqrep (shm)] [--requests 100000] [--warmup 20000] " +
        "[--size 64 (payload bytes, at most " + ReqRep.MAX_PAYLOAD_LENGTH + ")] [--timeout-s 10]";
    private static final Map<String, String> DEFAULTS = WellKnownAddress.withOptions(Map.of(
        "domain", ReqRep.DEFAULT_DOMAIN, "requests", "100000", "warmup", "20000", "size", "64", "timeout-s", "10"));

    /** Exit status when a reply is not the request it answers. */
    static final int EXIT_BAD_REPLY = 2;

    /** The context of every send; receives use their buffer's index, 0 or 1. */
    private static final long SEND_CONTEXT = 100;
    private static final int RECEIVES = 2;

    private final Endpoint ep;
    private final CompletionQueue cq;
    private final ShutdownSignal signal;
    private final long server;
    private final long timeoutNs;
    private final long clientId = ProcessHandle.current().pid();

    private final CqEntries entries = new CqEntries(4);
    private final CqErrEntry errEntry = new CqErrEntry();
    private final ByteBuffer tx = ByteBuffer.allocateDirect(ReqRep.MAX_MESSAGE_LENGTH);
    private final ByteBuffer rx = ByteBuffer.allocateDirect(RECEIVES * ReqRep.MAX_MESSAGE_LENGTH);

    private boolean sendDone;
    private boolean replyDone;
    private long expectedSequence;
    private int expectedLength;
    private String failure;
    private int status;

    private Client(
        final Endpoint ep, final CompletionQueue cq, final ShutdownSignal signal, final long server, final long timeoutNs)
    {
        this.ep = ep;
        this.cq = cq;
        this.signal = signal;
        this.server = server;
        this.timeoutNs = timeoutNs;
    }

    /**
     * Run the client; exit status 0 when done, 1 for a usage error, 2 for a wrong reply, else the libfabric errno
     * of what failed (110, FI_ETIMEDOUT, when the server does not answer in time).
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
            options.number("warmup");
            if (options.number("size") > ReqRep.MAX_PAYLOAD_LENGTH || options.number("requests") < 1 ||
                options.number("requests") > Integer.MAX_VALUE || options.number("timeout-s") < 1)
            {
                throw new ExampleArgs.UsageException(USAGE, "--size is at most " + ReqRep.MAX_PAYLOAD_LENGTH +
                    ", --requests at least 1, --timeout-s at least 1");
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
            System.err.println("client: " + ex.getMessage());
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
        final Info info = address.clientInfo(ReqRep.hints(address, domainName));
        final boolean sharedAv = ReqRep.sharedAv(info);

        try (Fabric fabric = Fabrics.fabric(info.fabricAttr(), 0);
            Domain domain = fabric.domain(info, 0);
            AddressVector av = domain.avOpen(ReqRep.avAttr(info), 0);
            CompletionQueue cq = domain.cqOpen(new CqAttr().format(CqFormat.MSG), 0);
            Endpoint ep = domain.endpoint(info, 0))
        {
            ep.bind(av, 0);
            ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
            ep.enable();

            // The server; with a shared AV also ourselves, so that the server's completions name us (FI_SOURCE).
            // What goes into a shared AV goes again before we close: the table outlives us (a client killed with
            // SIGKILL leaves its two entries behind until the domain's files are cleaned, `bin/jfabric clean`).
            final byte[] me = ep.getname();
            final long[] fiAddr = new long[2];
            if (sharedAv && av.insert(new byte[][]{me}, 1, fiAddr, 0, 0, null) != 1)
            {
                throw new FabricException(Errno.FI_EINVAL, "fi_av_insert: " + av.straddr(me) + " not inserted");
            }
            try
            {
                fiAddr[1] = address.insert(av, info);
            }
            catch (final FabricException ex)
            {
                if (sharedAv)
                {
                    av.remove(fiAddr, 1, 0);
                }
                throw ex;
            }
            System.out.println("client: " + ProcessHandle.current().pid() + " at " + av.straddr(me) + (sharedAv ?
                " (fi_addr " + fiAddr[0] + " in AV '" + ReqRep.CLIENTS_AV + "')" : "") + ", server at " +
                address.text(info));
            try
            {
                final Client client =
                    new Client(ep, cq, signal, fiAddr[1], TimeUnit.SECONDS.toNanos(options.number("timeout-s")));
                return client.measure(sharedAv ? null : me, (int)options.number("requests"),
                    options.number("warmup"), (int)options.number("size"));
            }
            finally
            {
                if (sharedAv)
                {
                    av.remove(fiAddr, 2, 0);
                }
            }
        }
    }

    /**
     * @param hello our address, to say HELLO with first (no shared AV), or null.
     */
    private int measure(final byte[] hello, final int requests, final long warmup, final int size)
    {
        for (int i = 0; i < RECEIVES; i++)
        {
            postReceive(i);
        }
        if (hello != null)
        {
            // Without a shared AV the server learns our address from this first message (sequence 0), and from
            // its reply on we know it can answer us.
            prepare(ReqRep.TYPE_HELLO, 0, hello.length);
            tx.put(ReqRep.HEADER_LENGTH, hello);
            if (roundTrip() < 0)
            {
                return fail();
            }
        }

        // Warm-up: the same round trips, not counted, so that HotSpot has compiled the data path (both sides')
        // before we measure.
        long sequence = 0;
        for (long i = 0; i < warmup; i++)
        {
            if (roundTrip(ReqRep.TYPE_REQUEST, ++sequence, size) < 0)
            {
                return fail();
            }
        }
        final long[] rtt = new long[requests];
        for (int i = 0; i < requests; i++)
        {
            final long ns = roundTrip(ReqRep.TYPE_REQUEST, ++sequence, size);
            if (ns < 0)
            {
                return fail();
            }
            rtt[i] = ns;
        }
        if (roundTrip(ReqRep.TYPE_BYE, ++sequence, 0) < 0)
        {
            return fail();
        }

        Arrays.sort(rtt);
        System.out.println("client: " + requests + " requests of " + size + " payload bytes (" + warmup +
            " warm-up not counted): rtt_ns p50=" + percentile(rtt, 50) + " p99=" + percentile(rtt, 99) +
            " max=" + rtt[requests - 1]);
        return 0;
    }

    /**
     * @return the nearest-rank percentile of sorted values.
     */
    private static long percentile(final long[] sorted, final int percent)
    {
        final int rank = (int)Math.ceil(percent / 100.0 * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }

    private int fail()
    {
        System.err.println("client: " + failure);
        return status;
    }

    /**
     * Send one request and wait for both its send completion and its reply.
     *
     * @return the round trip in nanoseconds, or -1 with {@link #failure} and {@link #status} set.
     */
    private long roundTrip(final int type, final long sequence, final int size)
    {
        prepare(type, sequence, size);
        for (int i = 0; i < size; i++)
        {
            tx.put(ReqRep.HEADER_LENGTH + i, ReqRep.payloadByte(sequence, i));
        }
        return roundTrip();
    }

    /** Write a message's header into {@code tx}; its payload goes after it. */
    private void prepare(final int type, final long sequence, final int size)
    {
        tx.putInt(ReqRep.TYPE_OFFSET, type).putInt(ReqRep.LENGTH_OFFSET, size)
            .putLong(ReqRep.CLIENT_OFFSET, clientId).putLong(ReqRep.SEQUENCE_OFFSET, sequence);
        expectedSequence = sequence;
        expectedLength = ReqRep.HEADER_LENGTH + size;
    }

    /**
     * Send the message in {@code tx} and wait for both its send completion and its reply.
     *
     * @return the round trip in nanoseconds, or -1 with {@link #failure} and {@link #status} set.
     */
    private long roundTrip()
    {
        final long sequence = expectedSequence;
        sendDone = false;
        replyDone = false;

        final long start = System.nanoTime();
        final long deadline = start + timeoutNs;
        long rc;
        boolean waitingSaid = false;
        while ((rc = ep.send(tx, 0, expectedLength, 0, server, SEND_CONTEXT)) != 0)
        {
            if (rc == -Errno.FI_EHOSTUNREACH)
            {
                // Nobody holds the server's address: not started yet (or restarting). Nothing was sent; wait.
                if (!waitingSaid)
                {
                    System.out.println("client: no server at its address yet (FI_EHOSTUNREACH); waiting; a " +
                        "server is seen only with the same --domain and shm root (jfabric.shm.dir or " +
                        "JFABRIC_SHM_DIR) as this client");
                    waitingSaid = true;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
            }
            else if (rc != -Errno.FI_EAGAIN)
            {
                return failed((int)-rc, "fi_send: " + Errno.strerror((int)rc));
            }
            // FI_EAGAIN: no room now (shm: the server's ring, or our CQ; tcp: no connection yet). Progress our side
            // and retry.
            if (poll() < 0)
            {
                return -1;
            }
            if (System.nanoTime() - deadline >= 0 || !signal.running())
            {
                return failed(Errno.FI_ETIMEDOUT, "the server did not take request " + sequence + " within " +
                    TimeUnit.NANOSECONDS.toSeconds(timeoutNs) + " s");
            }
        }
        final long sent = waitingSaid ? System.nanoTime() : start;   // a wait for the server is not a round trip

        // fi_send writes a completion once the buffer is ours again; the reply comes as a receive completion.
        // Under manual progress, each poll is also what moves our data.
        while (!(sendDone && replyDone))
        {
            if (poll() < 0)
            {
                return -1;
            }
            if (!replyDone)
            {
                Thread.onSpinWait();
                if (System.nanoTime() - deadline >= 0 || !signal.running())
                {
                    return failed(Errno.FI_ETIMEDOUT, "no reply to request " + sequence + " within " +
                        TimeUnit.NANOSECONDS.toSeconds(timeoutNs) + " s (did the server stop?)");
                }
            }
        }
        return System.nanoTime() - sent;
    }

    /**
     * Read the CQ once.
     *
     * @return the completions handled, or -1 after a failure.
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
            return readError();
        }
        if (n < 0)
        {
            return (int)failed(-n, "fi_cq_readfrom: " + Errno.strerror(n));
        }
        for (int i = 0; i < n; i++)
        {
            final long flags = entries.flags[i];
            if ((flags & Flags.FI_SEND) != 0)
            {
                sendDone = true;                // tx may be written again
            }
            else if ((flags & Flags.FI_RECV) != 0 && !onReply((int)entries.opContext[i], (int)entries.len[i]))
            {
                return -1;
            }
        }
        return n;
    }

    private int readError()
    {
        if (cq.readErr(errEntry, 0) != 1)
        {
            return 0;
        }
        final String what = Errno.name(errEntry.err) + ": " + cq.strerror(errEntry.provErrno, errEntry.errData);
        if ((errEntry.flags & Flags.FI_SEND) != 0)
        {
            // A send that failed after it was accepted (its peer went away with it in flight).
            return (int)failed(errEntry.err, "request " + expectedSequence + " failed: " + what);
        }
        System.err.println("client: receive completed in error " + what + " (len " + errEntry.len + ", olen " +
            errEntry.olen + ")");
        postReceive((int)errEntry.opContext);
        return 1;
    }

    private boolean onReply(final int buffer, final int length)
    {
        // Replies are matched by content, not by srcAddr: every client inserts the server's address into the
        // shared AV, so the server may come back as any of those entries' fi_addr.
        final int offset = buffer * ReqRep.MAX_MESSAGE_LENGTH;
        if (length != expectedLength || rx.getLong(offset + ReqRep.CLIENT_OFFSET) != clientId ||
            rx.getLong(offset + ReqRep.SEQUENCE_OFFSET) != expectedSequence)
        {
            status = EXIT_BAD_REPLY;
            failure = "reply of " + length + " bytes for client " + rx.getLong(offset + ReqRep.CLIENT_OFFSET) +
                " seq=" + rx.getLong(offset + ReqRep.SEQUENCE_OFFSET) + ", expected " + expectedLength +
                " bytes for client " + clientId + " seq=" + expectedSequence;
            return false;
        }
        for (int i = ReqRep.HEADER_LENGTH; i < length; i++)
        {
            if (rx.get(offset + i) != tx.get(i))
            {
                status = EXIT_BAD_REPLY;
                failure = "reply to seq=" + expectedSequence + ": payload byte " + (i - ReqRep.HEADER_LENGTH) +
                    " differs from the request's";
                return false;
            }
        }
        replyDone = true;
        postReceive(buffer);
        return true;
    }

    private long failed(final int errno, final String what)
    {
        status = errno > 0 && errno < 256 ? errno : 2;
        failure = what;
        return -1;
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
