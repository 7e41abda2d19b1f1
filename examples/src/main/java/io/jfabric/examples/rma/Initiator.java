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
package io.jfabric.examples.rma;

import io.jfabric.AddressVector;
import io.jfabric.AtomicDatatype;
import io.jfabric.AtomicOp;
import io.jfabric.AvAttr;
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
import io.jfabric.examples.WellKnownAddress;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * An initiator of one-sided operations on the {@link Target}'s memory: {@code fi_fetch_atomic} adds 1 to the
 * counter and gets its value before (this initiator's round), {@code fi_write} puts a block of that round's bytes,
 * {@code fi_read} gets it back to compare, and a message tells the target it is done. Each operation is posted
 * (retried while it answers -FI_EAGAIN, for up to {@code --timeout-s}) and then waited for on the CQ, where an error
 * (an unknown key, access not granted, a range outside the region, no target) arrives as an error entry.
 * <p>
 * {@code initiator [-p PROVIDER] [--node NODE] [--service SERVICE] [--domain NAME] [--timeout-s S]}; exit 0 when the
 * block read back is the one written, 5 (FI_EIO) when not, a libfabric errno when a call fails (when no target runs:
 * 113, FI_EHOSTUNREACH, on shm; 110, FI_ETIMEDOUT, on tcp, whose posts answer -FI_EAGAIN while it cannot connect).
 * Runs on the main thread.
 */
public final class Initiator
{
    private static final String USAGE = "initiator [-p shm|tcp|... (provider)] [--node NODE] [--service SERVICE] " +
        "[--domain NAME (shm)] [--timeout-s 10]";

    private final Endpoint ep;
    private final CompletionQueue cq;
    private final long target;
    private final long timeoutNs;
    private final CqEntries entries = new CqEntries(1);

    private Initiator(final Endpoint ep, final CompletionQueue cq, final long target, final long timeoutNs)
    {
        this.ep = ep;
        this.cq = cq;
        this.target = target;
        this.timeoutNs = timeoutNs;
    }

    /**
     * @param args the command line.
     */
    public static void main(final String[] args)
    {
        System.exit(run(args));
    }

    /**
     * @param args the command line.
     * @return the exit status.
     */
    static int run(final String... args)
    {
        final Map<String, String> defaults = new LinkedHashMap<>();
        defaults.put("domain", Rma.DEFAULT_DOMAIN);
        defaults.put("timeout-s", "10");
        final ExampleArgs options;
        try
        {
            options = ExampleArgs.parse(USAGE, WellKnownAddress.withOptions(defaults), args);
            if (options.number("timeout-s") < 1)
            {
                throw new ExampleArgs.UsageException(USAGE, "--timeout-s is at least 1");
            }
        }
        catch (final ExampleArgs.UsageException ex)
        {
            System.err.println(ex.getMessage());
            return 1;
        }
        try
        {
            return open(WellKnownAddress.of(options, Rma.DEFAULT_PORT), options.string("domain"),
                TimeUnit.SECONDS.toNanos(options.number("timeout-s")));
        }
        catch (final FabricException ex)
        {
            System.err.println("initiator: " + ex.getMessage());
            return ex.errno() > 0 && ex.errno() < 256 ? ex.errno() : 2;
        }
    }

    private static int open(final WellKnownAddress address, final String domainName, final long timeoutNs)
    {
        final Info info = address.clientInfo(Rma.hints(address, domainName));
        try (Fabric fabric = Fabrics.fabric(info.fabricAttr(), 0);
            Domain domain = fabric.domain(info, 0);
            AddressVector av = domain.avOpen(new AvAttr(), 0);
            CompletionQueue cq = domain.cqOpen(new CqAttr().format(CqFormat.MSG), 0);
            Endpoint ep = domain.endpoint(info, 0))
        {
            ep.bind(av, 0);
            ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
            ep.enable();
            // fi_av_insertsvc (with FI_SYNC_ERR, which fills a status with the address's errno when refused).
            final long peer = address.insert(av, info);
            System.out.println("initiator: at " + av.straddr(ep.getname()) + ", target " + address.text(info) +
                ", key " + Rma.KEY);
            return new Initiator(ep, cq, peer, timeoutNs).operate();
        }
    }

    private int operate()
    {
        // 1. Add 1 to the counter; its value before is our round (0 for the first initiator).
        final ByteBuffer one = ByteBuffer.allocateDirect(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, 1);
        final ByteBuffer old = ByteBuffer.allocateDirect(8).order(ByteOrder.LITTLE_ENDIAN);
        complete("fetch-add on the counter", () -> ep.fetchAtomic(one, 0, 1, 0, old, 0, 0, target,
            Rma.COUNTER_OFFSET, Rma.KEY, AtomicDatatype.UINT64, AtomicOp.SUM, 1));
        final long round = old.getLong(0);

        // 2. Write the block: our round's bytes. The completion says the bytes are in the target's memory.
        final ByteBuffer out = ByteBuffer.allocateDirect(Rma.BLOCK_LENGTH);
        for (int i = 0; i < Rma.BLOCK_LENGTH; i++)
        {
            out.put(i, Rma.blockByte(round, i));
        }
        complete("write of the block", () -> ep.write(out, 0, Rma.BLOCK_LENGTH, 0, target, Rma.BLOCK_OFFSET,
            Rma.KEY, 2));

        // 3. Read it back and compare.
        final ByteBuffer in = ByteBuffer.allocateDirect(Rma.BLOCK_LENGTH);
        complete("read of the block", () -> ep.read(in, 0, Rma.BLOCK_LENGTH, 0, target, Rma.BLOCK_OFFSET,
            Rma.KEY, 3));
        final boolean same = in.equals(out);
        System.out.println("initiator: round " + round + ": added 1 to the counter (it was " + round + "), wrote " +
            Rma.BLOCK_LENGTH + " bytes, read them back: " + (same ? "the same" : "DIFFERENT"));

        // 4. Tell the target.
        final ByteBuffer done = ByteBuffer.allocateDirect(64);
        final byte[] text = (Rma.DONE + " with round " + round).getBytes(StandardCharsets.US_ASCII);
        done.put(0, text);
        complete("the message to the target", () -> ep.send(done, 0, text.length, 0, target, 4));
        return same ? 0 : Errno.FI_EIO;
    }

    /**
     * Post one operation, retrying while it answers -FI_EAGAIN (reading the CQ progresses what holds it up: on tcp,
     * the connection to the target), then wait for its completion; each for up to the timeout.
     *
     * @throws FabricException with the errno of the post or of the error completion, or FI_ETIMEDOUT.
     */
    private void complete(final String what, final LongSupplier post)
    {
        final long deadline = System.nanoTime() + timeoutNs;
        long rc;
        while ((rc = post.getAsLong()) == -Errno.FI_EAGAIN && System.nanoTime() - deadline < 0)
        {
            cq.read(entries, 1); // nothing else is in flight: this only progresses
        }
        if (rc == -Errno.FI_EAGAIN)
        {
            throw new FabricException(Errno.FI_ETIMEDOUT, what + " was not taken within " +
                TimeUnit.NANOSECONDS.toSeconds(timeoutNs) + " s" + hint(Errno.FI_ETIMEDOUT));
        }
        if (rc != 0)
        {
            throw new FabricException((int)-rc, what + " was refused" + hint((int)-rc));
        }
        int n;
        while ((n = cq.read(entries, 1)) == -Errno.FI_EAGAIN)
        {
            if (System.nanoTime() - deadline >= 0)
            {
                throw new FabricException(Errno.FI_ETIMEDOUT, what + " did not complete within " +
                    TimeUnit.NANOSECONDS.toSeconds(timeoutNs) + " s");
            }
            Thread.onSpinWait();
        }
        if (n == -Errno.FI_EAVAIL)
        {
            final CqErrEntry err = new CqErrEntry();
            cq.readErr(err, 0);
            throw new FabricException(err.err, what + " completed in error" + hint(err.err));
        }
    }

    private static String hint(final int errno)
    {
        return errno == Errno.FI_EHOSTUNREACH || errno == Errno.FI_ETIMEDOUT ? ": no target at its address; start " +
            "one first (bin/example-rma target)" : "";
    }
}
