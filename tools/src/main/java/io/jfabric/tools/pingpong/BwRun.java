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

import io.jfabric.Errno;

/**
 * One side of a bw from start to end, as fabtests' {@code bandwidth()} runs it: meet the peer ({@link PeerLink}),
 * agree on the settings ({@link ControlChannel}: the hello carries the window too), tell each other where the
 * registered memory is (write, read), then per size {@code W} unmeasured transfers ({@link Warmup}) and {@code I}
 * measured ones, timed as a whole, and a final {@code fin} from the client.
 * <p>
 * The client keeps a window of {@code -w} transfers in flight: it hands them to the provider one after the other
 * (fi_inject below inject_size, whose buffer is free at once; fi_send, fi_write or fi_read otherwise) and after every
 * {@code w} waits for all their completions, as fabtests' {@code bw_tx_comp} does; the last window may be short.
 * <ul>
 *   <li>Messages (msg, tagged): the server posts a receive per message into its data slots, {@code w} at a time, and
 *       waits for their completions after every {@code w}. After the last it sends {@code ack <messages> <bytes>},
 *       counted from its receive completions for the whole size (warm-up included); the client's time ends when that
 *       acknowledgement arrives, and the client fails with FI_EIO unless the counts are every message of every
 *       byte. The server fails too, and with {@code -c} checks every byte of every window. While data flows the
 *       server has no control receive posted, so no message of the data can land in one.</li>
 *   <li>RMA (write, read): the server's CPU takes no part. Each size starts with {@code size N} / {@code ready}
 *       (the server has cleared its target for a write; the client has cleared where its reads land), and ends,
 *       after the client's time, with {@code done N <transfers>}: for a write the server then checks that its
 *       target holds the written bytes and answers {@code ok} or what is wrong; for a read the client has checked
 *       the bytes it read.</li>
 * </ul>
 * The client prints fabtests' bandwidth columns per size; the server of a message run prints its own row (its time
 * from its first measured receive to its last), the server of an RMA run none. The client's progress bar
 * ({@link ProgressMeter}) is told how far the run is between windows of the warm-up and after each measured pass.
 * Runs on the calling thread.
 */
final class BwRun extends PerfRun
{
    /** The receiver's acknowledgement of a size's messages: {@code ack <messages> <bytes>}. */
    static final String ACK = "ack ";
    /** The client's end of a size in the RMA modes: {@code done <size> <transfers>}. */
    static final String DONE = "done ";

    private final int window;
    /** Receive completions the server has posted for so far. */
    private long rxPosted;
    /** The next data slot a receive or a read goes to. */
    private int slot;
    /** Data slots used since the size began. */
    private int slotsUsed;

    /**
     * @param setup what the run is made from.
     */
    BwRun(final Setup setup)
    {
        super(setup);
        this.window = options.window();
    }

    @Override
    boolean repostAfterHello()
    {
        return mode.oneSided(); // a message receiver posts data receives only, from now on
    }

    /**
     * The regions' exchange (write, read), the sizes, then the fin: a message server posts the receive for it first.
     *
     * @throws PingpongException when a data-path call fails, the data did not all arrive, or the peer disagrees or
     *                           does not answer.
     */
    @Override
    void afterHello(final PeerLink link, final PingpongEndpoint endpoint, final int[] sizes)
    {
        if (mode.oneSided())
        {
            control.exchangeRegions();
        }
        printHeader();
        try (ProgressMeter progressMeter = ProgressMeter.open(
            options, role, quiet, "transfers", transfersInAll(sizes), err))
        {
            meter = progressMeter;
            for (final int size : sizes)
            {
                measure(endpoint, size);
            }
        }
        if (role == Role.SERVER && !mode.oneSided())
        {
            control.check(endpoint.postRecv(), "posting the receive for fin");
        }
        fin(link);
    }

    private long transfersInAll(final int[] sizes)
    {
        long total = 0;
        for (final int size : sizes)
        {
            total += options.warmup().roundTrips(size) + (long)options.iterations().count(size);
        }
        return total;
    }

    /**
     * One size: the RMA modes' {@code size N} step, the warm-up in windows, the measured transfers timed as a whole
     * (for messages up to the receiver's acknowledgement), then the checks and the row.
     */
    private void measure(final PingpongEndpoint endpoint, final int size)
    {
        final boolean client = role == Role.CLIENT;
        final int warmup = options.warmup().roundTrips(size);
        final int iterations = options.iterations().count(size);
        final long transfers = (long)warmup + iterations;
        slot = 0;
        slotsUsed = 0;
        if (mode.oneSided())
        {
            step(endpoint, size);
            if (!client)
            {
                awaitDone(endpoint, size, transfers);
                return;
            }
        }
        meter.stage("size " + PerfFormat.sizeStr(size));
        rxPosted = endpoint.rxDone(); // every receive posted so far has completed
        final long rxBefore = endpoint.rxDone();
        final long bytesBefore = endpoint.rxBytes();
        int warmed = 0;
        while (warmed < warmup)
        {
            final int count = Math.min(window, warmup - warmed);
            if (client)
            {
                transfers(endpoint, size, count);
            }
            else
            {
                receives(endpoint, size, count);
            }
            warmed += count;
            meter.reached(progress + warmed);
        }
        progress += warmup;
        final long start = System.nanoTime();
        if (client)
        {
            transfers(endpoint, size, iterations);
            if (!mode.oneSided())
            {
                control.check(endpoint.awaitNextRx(), "waiting for the acknowledgement of size " + size);
            }
        }
        else
        {
            receives(endpoint, size, iterations);
        }
        final long end = System.nanoTime();
        progress += iterations;
        meter.reached(progress);
        if (client)
        {
            if (mode.oneSided())
            {
                finishRma(endpoint, size, transfers);
            }
            else
            {
                checkAck(endpoint, size, transfers);
            }
        }
        else
        {
            acknowledge(endpoint, size, transfers, endpoint.rxDone() - rxBefore, endpoint.rxBytes() - bytesBefore);
        }
        if (!quiet)
        {
            meter.print(out, PerfFormat.bwRow(size, iterations, end - start));
            final String warning = client ? Iterations.shortPassWarning(size, end - start) : null;
            if (warning != null)
            {
                err.print(warning);
                err.flush();
            }
        }
    }

    /**
     * The start of a size in the RMA modes: the client clears where its reads will land, says {@code size N} and
     * waits for {@code ready}; the server clears its target for a write, then answers.
     */
    private void step(final PingpongEndpoint endpoint, final int size)
    {
        final String step = PingpongRun.SIZE_STEP + size;
        if (role == Role.CLIENT)
        {
            if (mode == TransferMode.READ)
            {
                for (int i = 0; i < endpoint.dataSlots(); i++)
                {
                    endpoint.oneSided().clearRma(i, size);
                }
            }
            control.send(step, "starting size " + size);
            control.await(PingpongRun.READY);
        }
        else
        {
            control.await(step);
            if (mode == TransferMode.WRITE)
            {
                endpoint.oneSided().clearRma(0, size);
            }
            control.send(PingpongRun.READY, "answering size " + size);
        }
    }

    /**
     * The server of an RMA size: wait for the client's {@code done}, check what a write left (every byte of the
     * size), answer {@code ok} or what is wrong, and fail then too.
     */
    private void awaitDone(final PingpongEndpoint endpoint, final int size, final long transfers)
    {
        final String expected = DONE + size + " " + transfers;
        final String done = control.receive("waiting for the client's " + transfers + " " + mode.cliName() +
            "s of " + size + " bytes", true);
        String wrong = done.equals(expected) ? null : "expected '" + expected + "', got '" + done + "'";
        if (wrong == null && mode == TransferMode.WRITE && endpoint.oneSided().verifyRma(0, size, -1) != 0)
        {
            wrong = "the target does not hold the bytes written: " + endpoint.failure();
        }
        control.send(wrong == null ? ControlChannel.OK : wrong, "answering done");
        if (wrong != null)
        {
            throw new PingpongException(Errno.FI_EIO, "bw server: size " + size + ": " + wrong);
        }
    }

    /**
     * The client at the end of an RMA size: a read checks every slot it read into, then {@code done} goes to the
     * server, which must answer {@code ok}.
     */
    private void finishRma(final PingpongEndpoint endpoint, final int size, final long transfers)
    {
        if (mode == TransferMode.READ)
        {
            for (int i = 0; i < slotsUsed; i++)
            {
                control.check(endpoint.oneSided().verifyRma(i, size, -1), "checking what the reads of size " + size +
                    " brought");
            }
        }
        control.send(DONE + size + " " + transfers, "ending size " + size);
        control.await(ControlChannel.OK);
    }

    /**
     * The server at the end of a message size: check its counts and acknowledge with them.
     */
    private void acknowledge(
        final PingpongEndpoint endpoint, final int size, final long transfers, final long received, final long bytes)
    {
        control.send(ACK + received + " " + bytes, "acknowledging size " + size);
        if (received != transfers || bytes != transfers * size)
        {
            throw new PingpongException(Errno.FI_EIO, "bw server: size " + size + ": received " + received +
                " messages of " + bytes + " bytes in all, expected " + transfers + " of " + transfers * size);
        }
    }

    /**
     * The client at the end of a message size: the acknowledgement (already awaited, inside the timed pass) must
     * count every message and byte.
     */
    private void checkAck(final PingpongEndpoint endpoint, final int size, final long transfers)
    {
        final String ack = endpoint.receivedText();
        control.check(endpoint.postRecv(), "posting a receive");
        final String expected = ACK + transfers + " " + transfers * size;
        if (!ack.equals(expected))
        {
            throw new PingpongException(Errno.FI_EIO, "bw client: size " + size + ": the server acknowledged '" +
                ack + "', expected '" + expected + "' (messages, bytes)");
        }
    }

    /**
     * The client's {@code count} transfers of {@code size} bytes, a window at a time, to the last completion.
     */
    private void transfers(final PingpongEndpoint endpoint, final int size, final int count)
    {
        int inWindow = 0;
        for (int i = 0; i < count; i++)
        {
            final long rc;
            if (mode == TransferMode.WRITE)
            {
                rc = endpoint.oneSided().postWrite(size);
            }
            else if (mode == TransferMode.READ)
            {
                rc = endpoint.oneSided().postRead(nextSlot(endpoint), size);
            }
            else
            {
                rc = endpoint.postSend(size);
            }
            check(endpoint, rc, size);
            if (++inWindow == window)
            {
                check(endpoint, endpoint.awaitTx(endpoint.txPosted()), size);
                inWindow = 0;
            }
        }
        check(endpoint, endpoint.awaitTx(endpoint.txPosted()), size);
    }

    /**
     * The server's {@code count} receives of {@code size} bytes, a window at a time, to the last completion; with
     * {@code -c} every slot used is checked after every window.
     */
    private void receives(final PingpongEndpoint endpoint, final int size, final int count)
    {
        int inWindow = 0;
        for (int i = 0; i < count; i++)
        {
            check(endpoint, endpoint.postDataRecv(nextSlot(endpoint)), size);
            rxPosted++;
            if (++inWindow == window)
            {
                awaitReceives(endpoint, size);
                inWindow = 0;
            }
        }
        awaitReceives(endpoint, size);
    }

    private void awaitReceives(final PingpongEndpoint endpoint, final int size)
    {
        check(endpoint, endpoint.awaitRx(rxPosted), size);
        if (options.verify())
        {
            for (int i = 0; i < slotsUsed; i++)
            {
                check(endpoint, endpoint.verifyDataSlot(i, size), size);
            }
        }
    }

    private int nextSlot(final PingpongEndpoint endpoint)
    {
        final int next = slot;
        if (++slot == endpoint.dataSlots())
        {
            slot = 0;
        }
        if (slotsUsed < endpoint.dataSlots())
        {
            slotsUsed++;
        }
        return next;
    }

    private void printHeader()
    {
        if (quiet)
        {
            return;
        }
        out.print(options.warmup().headerLine("transfers", ""));
        out.print(options.iterations().headerLine("transfers", ""));
        switch (mode)
        {
            case WRITE:
                out.print("# write: windows of " + window + " fi_write (fi_inject_write below inject_size) into the " +
                    "server's registered memory; the time ends at the last completion\n");
                break;
            case READ:
                out.print("# read: windows of " + window + " fi_read from the server's registered memory; the time " +
                    "ends at the last completion\n");
                break;
            default:
                out.print("# " + mode.cliName() + ": windows of " + window + " " +
                    (mode == TransferMode.TAGGED ? "fi_tsend (fi_tinject" : "fi_send (fi_inject") +
                    " below inject_size) to as many receives; the time ends at the receiver's acknowledgement of the " +
                    "last\n");
                break;
        }
        if (role == Role.SERVER && mode.oneSided())
        {
            out.print("# the server takes no part in one-sided " + mode.cliName() + "s: the client times them\n");
        }
        out.print(PerfFormat.bwHeader());
        out.flush();
    }

    private void check(final PingpongEndpoint endpoint, final long rc, final int size)
    {
        if (rc < 0)
        {
            throw new PingpongException((int)-rc, "bw " + role.cliName() + ": " + endpoint.failure() +
                " (size " + size + ", windows of " + window + ")");
        }
    }
}
