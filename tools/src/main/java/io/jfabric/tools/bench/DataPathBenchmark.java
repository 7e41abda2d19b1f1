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
package io.jfabric.tools.bench;

import io.jfabric.Addresses;
import io.jfabric.AddressVector;
import io.jfabric.AvAttr;
import io.jfabric.CompletionQueue;
import io.jfabric.CqAttr;
import io.jfabric.CqEntries;
import io.jfabric.CqFormat;
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.Flags;
import io.jfabric.MessageClaim;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * The data path's hot calls in one thread, over loopback between two endpoints of one domain (each with its own
 * CQ, both bound to one AV holding both addresses): one operation is a whole message, from the post at the
 * sender to its receive completion read from the receiver's CQ (manual progress: that read drains the ring,
 * matches and copies) and the receive posted again. Run with {@code -prof gc}: the issue asks for
 * {@code gc.alloc.rate.norm} of 0 B/op on every one of them.
 * <ul>
 *   <li>{@link #injectRecv}: fi_inject + fi_cq_read + fi_recv;</li>
 *   <li>{@link #sendRecv}: fi_send + fi_cq_read of the receive and of the send completion + fi_recv;</li>
 *   <li>{@link #claimCommit}: Endpoint.claim + copy into the claimed ring space + commit, then as inject;</li>
 *   <li>{@link #cqReadEmpty}: one fi_cq_read with nothing to do, of an endpoint no peer has sent to (it looks for
 *   new senders every 16 reads);</li>
 *   <li>{@link #cqReadIdleLane}: one fi_cq_read with nothing to do, of the receiver, whose one sender's lane it
 *   polls (the cost of a poll in a pingpong's busy loop).</li>
 * </ul>
 * Single thread.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
    "-Dagrona.disable.bounds.checks=true"})
public class DataPathBenchmark
{
    private static final long TX_CONTEXT = 1;
    private static final long RX_CONTEXT = 2;

    /** Message bytes (at most inject_size, which the claim path needs). */
    @Param({"64", "4096"})
    public int size;

    /**
     * Threading model: DOMAIN (the application serializes everything: no guard, one CQ writer), FID and ENDPOINT
     * (transmit progress and receive guarded, many CQ writers), SAFE (every call guarded). See docs/THREADING.md.
     */
    @Param({"DOMAIN", "FID", "ENDPOINT", "SAFE"})
    public String threading;

    /** Whether lane records carry a CRC32C (jfabric.shm.checksum): what the option costs. */
    @Param({"false"})
    public boolean checksum;

    private BenchDomain bench;
    private Domain domain;
    private AddressVector av;
    private CompletionQueue senderCq;
    private CompletionQueue receiverCq;
    private Endpoint sender;
    private Endpoint receiver;
    private MessageClaim claim;
    private long receiverAddr;
    private ByteBuffer payload;
    private ByteBuffer landing;
    private final CqEntries entries = new CqEntries(4);

    /** Open the domain, the two endpoints and post the first receive. */
    @Setup(Level.Trial)
    public void setUp()
    {
        bench = new BenchDomain(io.jfabric.Threading.valueOf(threading),
            key -> "checksum".equals(key) ? Boolean.toString(checksum) : null);
        domain = bench.open();
        av = domain.avOpen(new AvAttr().count(4), 0);
        senderCq = domain.cqOpen(new CqAttr().format(CqFormat.MSG), 0);
        receiverCq = domain.cqOpen(new CqAttr().format(CqFormat.MSG), 0);
        sender = endpoint(senderCq);
        receiver = endpoint(receiverCq);
        final long[] fiAddr = new long[2];
        final String[] names = {name(sender), name(receiver)};
        if (av.insert(names, 2, fiAddr, 0, 0) != 2)
        {
            throw new IllegalStateException("fi_av_insert of the two endpoints failed");
        }
        receiverAddr = fiAddr[1];
        claim = sender.messageClaim();
        payload = ByteBuffer.allocateDirect(size);
        landing = ByteBuffer.allocateDirect(size);
        expect(0, receiver.recv(landing, 0, size, 0, Addresses.FI_ADDR_UNSPEC, RX_CONTEXT), "fi_recv");
        injectRecv(); // the receiver now polls the sender's lane
    }

    private Endpoint endpoint(final CompletionQueue cq)
    {
        final Endpoint ep = domain.endpoint(domain.info(), 0);
        ep.bind(av, 0);
        ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
        ep.enable();
        return ep;
    }

    private static String name(final Endpoint ep)
    {
        final byte[] name = ep.getname();
        int length = 0;
        while (length < name.length && name[length] != 0)
        {
            length++;
        }
        return new String(name, 0, length, StandardCharsets.US_ASCII);
    }

    /** Close everything. */
    @TearDown(Level.Trial)
    public void tearDown()
    {
        receiver.close();
        sender.close();
        receiverCq.close();
        senderCq.close();
        av.close();
        domain.close();
        bench.close();
    }

    /** @return the receive's length. */
    @Benchmark
    public long injectRecv()
    {
        expect(0, sender.inject(payload, 0, size, receiverAddr), "fi_inject");
        return receiveAndRepost();
    }

    /** @return the receive's length. */
    @Benchmark
    public long sendRecv()
    {
        expect(0, sender.send(payload, 0, size, 0, receiverAddr, TX_CONTEXT), "fi_send");
        final long received = receiveAndRepost();
        awaitCompletion(senderCq, TX_CONTEXT);
        return received;
    }

    /** @return the receive's length. */
    @Benchmark
    public long claimCommit()
    {
        expect(0, sender.claim(receiverAddr, size, 0, 0, 0), "Endpoint.claim");
        claim.buffer().put(claim.offset(), payload, 0, size);
        expect(0, claim.commit(), "MessageClaim.commit");
        return receiveAndRepost();
    }

    /** @return -FI_EAGAIN. */
    @Benchmark
    public int cqReadEmpty()
    {
        return senderCq.read(entries, entries.capacity());
    }

    /** @return -FI_EAGAIN. */
    @Benchmark
    public int cqReadIdleLane()
    {
        return receiverCq.read(entries, entries.capacity());
    }

    private long receiveAndRepost()
    {
        final long length = awaitCompletion(receiverCq, RX_CONTEXT);
        expect(0, receiver.recv(landing, 0, size, 0, Addresses.FI_ADDR_UNSPEC, RX_CONTEXT), "fi_recv");
        return length;
    }

    private long awaitCompletion(final CompletionQueue cq, final long context)
    {
        while (true)
        {
            final int read = cq.read(entries, 1);
            if (read == 1)
            {
                if (entries.opContext[0] != context)
                {
                    throw new IllegalStateException("completion of context " + entries.opContext[0] +
                        ", expected " + context);
                }
                return entries.len[0];
            }
            if (read != -Errno.FI_EAGAIN)
            {
                throw new IllegalStateException("fi_cq_read: " + read);
            }
        }
    }

    private static void expect(final long expected, final long actual, final String call)
    {
        if (actual != expected)
        {
            throw new IllegalStateException(call + ": " + actual + " (" + Errno.strerror((int)-actual) + ")");
        }
    }
}
