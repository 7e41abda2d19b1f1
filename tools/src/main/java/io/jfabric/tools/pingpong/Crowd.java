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
package io.jfabric.tools.pingpong;

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
import io.jfabric.FabricException;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.WaitObj;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.BitSet;

/**
 * The extra endpoints of {@code pingpong --endpoints N}: N - 2 endpoints attached to the run's domain beside the two
 * measured ones, each a sender both measured receivers have to poll, and idle while they are measured.
 * <p>
 * Why that is the worst case for the receive side: the shm provider's receive context polls the lane of every sender
 * that has connected to it (a sender connects its lane on its first send to a peer, and the lane stays connected
 * while the sender's endpoint is open and its process alive). So after one message from each extra endpoint to each
 * measured endpoint, every poll of a measured receiver looks at N - 1 lanes, N - 2 of them empty.
 * <p>
 * The server opens them, in its JVM, on its own domain object ({@link PingpongEndpoint#domain()}), with one AV (both
 * measured addresses inserted) and one CQ between them; both sides know N from the hello, which carries it
 * ({@link PingpongOptions#agreement()}). Right after the hello ({@link #gather}):
 * <ul>
 *   <li>the server opens them; each sends {@code crowd #<i>} to the client's endpoint and to the server's, and
 *   waits for both sends' completions (the messages are then in the measured endpoints' lanes); the server's
 *   endpoint then receives the N - 2 messages, each from another extra endpoint, and tells the client
 *   {@link #READY};</li>
 *   <li>the client receives N - 1 messages, in whatever order its lanes yield them: N - 2 from distinct extra
 *   endpoints, and the server's {@link #READY}.</li>
 * </ul>
 * Both receive them as control messages through receive slot 0 ({@link ControlChannel}) and drop them, so none is
 * left to match a measured receive; the client sends nothing before it has them all, and the server waits for
 * nothing else before it has its own. The extra endpoints then stay open, never called again, until {@link #close()}
 * after the client's fin. With the tagged mode they send with the tag the measured receives match. The run's thread.
 */
final class Crowd implements AutoCloseable
{
    /** Each extra endpoint's message: this, then its index from 0. */
    static final String MESSAGE_PREFIX = "crowd #";
    /** The server's word to the client once its own endpoint has received every extra endpoint's message. */
    static final String READY = "crowd ready";

    private static final long CONTEXT = 3;

    private final PingpongOptions options;
    private final Endpoint[] endpoints;
    private final CqEntries entries = new CqEntries(8);
    private final CqErrEntry errEntry = new CqErrEntry();
    private final ByteBuffer text = ByteBuffer.allocateDirect(PingpongEndpoint.CTRL_BYTES);
    private AddressVector av;
    private CompletionQueue cq;
    private long posted;
    private long done;

    private Crowd(final PingpongOptions options, final int count)
    {
        this.options = options;
        this.endpoints = new Endpoint[count];
    }

    /**
     * @param options the run's settings.
     * @return the extra endpoints a run of these settings has: {@code --endpoints} less the two measured ones.
     */
    static int extraEndpoints(final PingpongOptions options)
    {
        return options.endpoints() - PingpongOptions.DEFAULT_ENDPOINTS;
    }

    /**
     * This side's part of the setup, right after the hello; nothing when the run has no extra endpoints.
     *
     * @param link    this side's endpoint and the peer's address.
     * @param control the run's control messages.
     * @param options the run's settings.
     * @param info    what fi_getinfo returned, to open the server's extra endpoints with.
     * @param role    this side.
     * @return on the server, the extra endpoints, open and idle, to be closed at the end of the run (before the
     * link); on the client, or when there are none, null.
     * @throws PingpongException when one cannot be opened, a send or receive fails, or a message is not the
     *                           expected one.
     */
    static Crowd gather(
        final PeerLink link, final ControlChannel control, final PingpongOptions options, final Info info,
        final Role role)
    {
        final int count = extraEndpoints(options);
        if (count == 0)
        {
            return null;
        }
        if (role == Role.CLIENT)
        {
            receive(control, options, role, count, true);
            return null;
        }
        final Crowd crowd = open(link.endpoint().domain(), info, options, count);
        try
        {
            crowd.sendToBoth(link.endpoint().address(), link.peerAddress());
            receive(control, options, role, count, false);
            control.send(READY, "telling the client the extra endpoints have sent");
            return crowd;
        }
        catch (final RuntimeException ex)
        {
            crowd.close();
            throw ex;
        }
    }

    /**
     * Receive {@code count} messages, one from each extra endpoint, and with {@code ready} the server's
     * {@link #READY} too, in any order.
     */
    private static void receive(
        final ControlChannel control,
        final PingpongOptions options,
        final Role role,
        final int count,
        final boolean ready)
    {
        final BitSet seen = new BitSet(count);
        boolean readySeen = !ready;
        for (int i = 0; i < count + (ready ? 1 : 0); i++)
        {
            final String message = control.receive("waiting for the messages of the " + count +
                " extra endpoints (" + seen.cardinality() + " so far)", true);
            final int index = index(message, count);
            if (index >= 0 && !seen.get(index))
            {
                seen.set(index);
            }
            else if (!readySeen && READY.equals(message))
            {
                readySeen = true;
            }
            else
            {
                throw new PingpongException(Errno.FI_EINVAL, options.tool().cliName() + " " + role.cliName() +
                    ": expected a message from each of the " + count + " extra endpoints (" + MESSAGE_PREFIX +
                    "0 to " + MESSAGE_PREFIX + (count - 1) + ", once each)" + (ready ? " and '" + READY + "'" : "") +
                    ", got '" + message + "'");
            }
        }
    }

    /** @return the index of extra endpoint message {@code message}, or -1 when it is none of the {@code count}. */
    private static int index(final String message, final int count)
    {
        if (!message.startsWith(MESSAGE_PREFIX))
        {
            return -1;
        }
        try
        {
            final int index = Integer.parseInt(message.substring(MESSAGE_PREFIX.length()));
            return index < count ? index : -1;
        }
        catch (final NumberFormatException ex)
        {
            return -1;
        }
    }

    private static Crowd open(final Domain domain, final Info info, final PingpongOptions options, final int count)
    {
        final Crowd crowd = new Crowd(options, count);
        int opened = 0;
        try
        {
            crowd.av = domain.avOpen(new AvAttr().type(AvType.TABLE).count(2), 0);
            crowd.cq = domain.cqOpen(new CqAttr().format(CqFormat.MSG).waitObj(WaitObj.NONE), 0);
            for (; opened < count; opened++)
            {
                final Endpoint ep = domain.endpoint(info, 0);
                crowd.endpoints[opened] = ep;
                ep.bind(crowd.av, 0);
                ep.bind(crowd.cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
                ep.enable();
            }
            return crowd;
        }
        catch (final FabricException ex)
        {
            crowd.close();
            throw new PingpongException(ex.errno(), options.tool().cliName() + " server: opening extra endpoint " +
                (opened + 1) + " of " + count + " (--endpoints " + options.endpoints() + "): " + ex.getMessage());
        }
        catch (final RuntimeException ex)
        {
            crowd.close();
            throw ex;
        }
    }

    /**
     * Each extra endpoint sends its message to both measured endpoints, each send to its completion: the lane into
     * each of them is then connected and the message in it.
     */
    private void sendToBoth(final String serverAddress, final String clientAddress)
    {
        final long[] peers = new long[2];
        final int inserted = av.insert(new String[]{serverAddress, clientAddress}, 2, peers, 0, 0);
        if (inserted != 2)
        {
            throw new PingpongException(Errno.FI_EINVAL, options.tool().cliName() + " server: fi_av_insert of the " +
                "measured endpoints' addresses for the extra endpoints inserted " + inserted + " of 2");
        }
        for (int i = 0; i < endpoints.length; i++)
        {
            final byte[] bytes = (MESSAGE_PREFIX + i).getBytes(StandardCharsets.US_ASCII);
            text.put(0, bytes);
            for (final long peer : peers)
            {
                send(endpoints[i], bytes.length, peer, i);
            }
        }
    }

    private void send(final Endpoint ep, final int length, final long peer, final int index)
    {
        final long deadline = System.nanoTime() + options.timeoutSeconds() * 1_000_000_000L;
        while (true)
        {
            final long rc = options.mode() == TransferMode.TAGGED ?
                ep.tsend(text, 0, length, 0, peer, TransferMode.TAG, CONTEXT) :
                ep.send(text, 0, length, 0, peer, CONTEXT);
            if (rc == 0)
            {
                posted++;
                break;
            }
            if (rc != -Errno.FI_EAGAIN)
            {
                throw failed((int)-rc, "fi_send of extra endpoint " + index + ": " + Errno.strerror((int)-rc));
            }
            poll(deadline, index);
        }
        while (done < posted)
        {
            poll(deadline, index);
        }
    }

    private void poll(final long deadline, final int index)
    {
        final int read = cq.read(entries, entries.capacity());
        if (read > 0)
        {
            done += read;
            return;
        }
        if (read == -Errno.FI_EAVAIL && cq.readErr(errEntry, 0) == 1)
        {
            throw failed(errEntry.err, "error completion of extra endpoint " + index + "'s send: " + errEntry +
                " (" + cq.strerror(errEntry.provErrno, errEntry.errData) + ")");
        }
        if (read != -Errno.FI_EAGAIN)
        {
            throw failed(-read, "fi_cq_read of the extra endpoints: " + Errno.strerror(-read));
        }
        if (System.nanoTime() - deadline > 0)
        {
            throw failed(Errno.FI_ETIMEDOUT, "extra endpoint " + index + "'s send did not complete in " +
                options.timeoutSeconds() + " s");
        }
        Thread.onSpinWait();
    }

    private PingpongException failed(final int errno, final String what)
    {
        return new PingpongException(errno, options.tool().cliName() + " server: " + what);
    }

    /**
     * Close the extra endpoints, their CQ and AV; idempotent.
     */
    @Override
    public void close()
    {
        RuntimeException first = null;
        for (int i = endpoints.length - 1; i >= 0; i--)
        {
            first = closeQuietly(endpoints[i], first);
            endpoints[i] = null;
        }
        first = closeQuietly(cq, first);
        first = closeQuietly(av, first);
        cq = null;
        av = null;
        if (first != null)
        {
            throw first;
        }
    }

    private static RuntimeException closeQuietly(final AutoCloseable closeable, final RuntimeException first)
    {
        if (closeable == null)
        {
            return first;
        }
        try
        {
            closeable.close();
            return first;
        }
        catch (final RuntimeException ex)
        {
            return first == null ? ex : first;
        }
        catch (final Exception ex)
        {
            return first == null ? new IllegalStateException(ex) : first;
        }
    }
}
