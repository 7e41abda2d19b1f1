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
package io.jfabric.ofi.bench;

import io.jfabric.AddressVector;
import io.jfabric.AvAttr;
import io.jfabric.AvType;
import io.jfabric.CompletionQueue;
import io.jfabric.CqAttr;
import io.jfabric.CqEntries;
import io.jfabric.CqFormat;
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.EpType;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.Fabrics;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Threading;
import io.jfabric.Versions;
import io.jfabric.ofi.core.OfiFid;
import io.jfabric.ofi.lib.CTypes;
import io.jfabric.ofi.lib.Downcalls;
import io.jfabric.ofi.lib.FidLayouts;
import io.jfabric.ofi.lib.Ops;

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

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * The Java cost above the native call of the ofi provider's data path, on tcp;ofi_rxm: each jfabric call against
 * the same native function called straight through FFM with the same arguments (the "raw" benchmarks), so that the
 * difference is what jfabric adds (state, buffer and address checks, the slot of an operation with a completion).
 * <p>
 * So that the native call is short and the same every time: inject and send go to a second endpoint of this process
 * that is never progressed, so rxm's connection stays pending and every call returns -FI_EAGAIN after the same work;
 * the jfabric send takes a slot, publishes it and gives it back on the error, as on any refused post. cq_read reads an
 * empty CQ bound to no endpoint. The {@code SendTaken} pair ({@code target=nop} only) measures the success path: the
 * send is taken (jf_ok answers 0), its slot stays posted and is freed as the CQ reader frees it, so the sends go
 * round the pool's slots as a stream does. The {@code SendRead} pair ({@code target=nop} only) measures a send's
 * whole life: the send taken, then a CQ read that returns its completion, which jfabric resolves to the slot
 * (context, buffer, flags) and frees. The {@code threading} parameter is the model the domain is opened with
 * (tcp;ofi_rxm's getinfo answers FI_THREAD_SAFE whatever the hints ask), so DOMAIN measures the single-poster pool.
 * Run by ofi-provider/bench/jmh.sh (JDK 25); not part of the build.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED",
    "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
public class OfiDataPathBenchmark
{
    private static final MethodHandle L4 = longs(4);
    private static final MethodHandle L6 = longs(6);
    private static final MethodHandle L3 = longs(3);

    /** The domain's threading model: FI_THREAD_SAFE (MPMC slots) or FI_THREAD_DOMAIN (SPSC slots). */
    @Param({"SAFE", "DOMAIN"})
    public String threading;

    /**
     * {@code rxm}: the provider's own functions (a pending connection, an empty CQ); {@code nop}: a native function
     * that returns -FI_EAGAIN at once in their place (src/test/c/jf_nop.c, built by bench/jmh.sh into
     * target/libjfnop.so), so the difference between a jfabric and a raw call is jfabric's own cost, free of
     * libfabric's variance.
     */
    @Param({"nop", "rxm"})
    public String target;

    private Node sender;
    private Node pending;
    private CompletionQueue emptyCq;
    private long peer;
    private final ByteBuffer buf = ByteBuffer.allocateDirect(64);
    private final CqEntries entries = new CqEntries(1);
    private long ep;
    private long bufAddress;
    private MemorySegment injectFn;
    private MemorySegment sendFn;
    private MemorySegment readFn;
    private MemorySegment okFn;
    private MemorySegment recordFn;
    private MemorySegment oneFn;
    private long txCq;
    private io.jfabric.ofi.ctx.SlotPool txPool;
    private int nextSlot;
    private long cq;
    private long entry;
    private long context;
    private Arena arena;

    @Setup(Level.Trial)
    public void open()
    {
        final Threading model = Threading.valueOf(threading);
        sender = new Node(model);
        pending = new Node(model);
        final long[] out = new long[1];
        sender.av.insert(new byte[][] {pending.ep.getname()}, 1, out, 0, 0, null);
        peer = out[0];
        emptyCq = sender.domain.cqOpen(new CqAttr().format(CqFormat.CONTEXT), 0);
        ep = ((OfiFid)sender.ep).pointer();
        cq = ((OfiFid)emptyCq).pointer();
        bufAddress = MemorySegment.ofBuffer(buf).address();
        injectFn = Ops.function(ep, FidLayouts.EP_MSG, FidLayouts.fn(FidLayouts.FI_OPS_MSG, "inject"));
        sendFn = Ops.function(ep, FidLayouts.EP_MSG, FidLayouts.fn(FidLayouts.FI_OPS_MSG, "send"));
        readFn = Ops.function(cq, FidLayouts.OBJ_OPS, FidLayouts.fn(FidLayouts.FI_OPS_CQ, "read"));
        arena = Arena.ofShared();
        if (target.equals("nop"))
        {
            // Global-scope segments, as the provider's own function pointers (Ops.function): a segment of the
            // library's shared arena would make every downcall acquire that arena's session (a compare-and-set).
            final MemorySegment nop = MemorySegment.ofAddress(java.lang.foreign.SymbolLookup.libraryLookup(
                java.nio.file.Path.of("target/libjfnop.so").toAbsolutePath(), arena).find("jf_nop").orElseThrow()
                .address());
            injectFn = nop;
            sendFn = nop;
            readFn = nop;
            replace(sender.ep, "msg", "injectFn", nop);
            replace(sender.ep, "msg", "sendFn", nop);
            replace(emptyCq, null, "readFn", nop);
            okFn = nop("jf_ok");
            recordFn = nop("jf_send_record");
            oneFn = nop("jf_cq_one");
            txCq = ((OfiFid)sender.cq).pointer();
        }
        entry = arena.allocate(64).address();
        context = arena.allocate(256).address();
        if (sender.ep.send(buf, 0, 8, 0, peer, 1) != -Errno.FI_EAGAIN || emptyCq.read(entries, 1) != -Errno.FI_EAGAIN)
        {
            throw new IllegalStateException("a send was taken or the CQ had an entry: the benchmark measures nothing");
        }
    }

    /** A function of target/libjfnop.so, as a global-scope segment (as the provider's own function pointers). */
    private MemorySegment nop(final String name)
    {
        return MemorySegment.ofAddress(java.lang.foreign.SymbolLookup.libraryLookup(
            java.nio.file.Path.of("target/libjfnop.so").toAbsolutePath(), arena).find(name).orElseThrow().address());
    }

    @TearDown(Level.Trial)
    public void close()
    {
        emptyCq.close();
        sender.close();
        pending.close();
        arena.close();
    }

    @Benchmark
    public long rawInject() throws Throwable
    {
        return (long)L4.invokeExact(injectFn, ep, bufAddress, 8L, peer);
    }

    @Benchmark
    public long jfabricInject()
    {
        return sender.ep.inject(buf, 0, 8, peer);
    }

    @Benchmark
    public long rawSend() throws Throwable
    {
        return (long)L6.invokeExact(sendFn, ep, bufAddress, 8L, 0L, peer, context);
    }

    @Benchmark
    public long jfabricSend()
    {
        return sender.ep.send(buf, 0, 8, 0, peer, 1);
    }

    /**
     * The successful send's native side ({@code target=nop} only): jf_ok, which answers 0, called straight.
     *
     * @return 0.
     */
    @Benchmark
    public long rawSendTaken() throws Throwable
    {
        return (long)L6.invokeExact(okFn, ep, bufAddress, 8L, 0L, peer, context);
    }

    /**
     * The successful send ({@code target=nop} only): jf_ok in the place of the provider's send, so the post is taken
     * and its slot stays posted; the slot is then freed as the CQ reader frees it on the completion
     * ({@code SlotPool.complete}), so the sends go round every slot of the pool as a stream of sends does.
     *
     * @return the send's result (0).
     */
    @Benchmark
    public long jfabricSendTaken()
    {
        final long rc = sender.ep.send(buf, 0, 8, 0, peer, 1);
        txPool.complete(nextSlot);
        nextSlot = (nextSlot + 1) & (txPool.capacity() - 1);
        return rc;
    }

    /**
     * A send's whole life ({@code target=nop} only): the send is taken (jf_send_record answers 0 and keeps its
     * context) and the read of the endpoint's CQ then answers its completion (jf_cq_one: one entry, that context).
     * The raw side makes the same two native calls; jfabric's side also finds the slot from the completion's context,
     * reads what it holds and frees it, as a stream of sends does for each.
     *
     * @return the send's result plus the read's (1).
     */
    @Benchmark
    public long rawSendRead() throws Throwable
    {
        final long rc = (long)L6.invokeExact(recordFn, ep, bufAddress, 8L, 0L, peer, context);
        return rc + (long)L3.invokeExact(oneFn, txCq, entry, 1L);
    }

    /**
     * As {@link #rawSendRead}, through jfabric: {@code ep.send}, then {@code cq.read} of the completion.
     *
     * @return the send's result plus the read's (1).
     */
    @Benchmark
    public long jfabricSendRead()
    {
        final long rc = sender.ep.send(buf, 0, 8, 0, peer, 1);
        return rc + sender.cq.read(entries, 1);
    }

    /** Swap jf_ok in for the sends of the Taken benchmarks, jf_send_record for SendRead, jf_nop for the others. */
    @Setup(Level.Iteration)
    public void sendTarget(final org.openjdk.jmh.infra.BenchmarkParams params)
    {
        final boolean taken = params.getBenchmark().endsWith("SendTaken");
        final boolean read = params.getBenchmark().endsWith("SendRead");
        if (!target.equals("nop"))
        {
            if (taken || read)
            {
                throw new IllegalStateException("the SendTaken and SendRead benchmarks need -p target=nop");
            }
            return;
        }
        replace(sender.ep, "msg", "sendFn", taken ? okFn : read ? recordFn : sendFn);
        if (read)
        {
            replace(sender.cq, null, "readFn", oneFn);
        }
        if (taken && txPool == null)
        {
            txPool = (io.jfabric.ofi.ctx.SlotPool)field(field(sender.ep, "core"), "tx");
        }
    }

    @Benchmark
    public long rawCqRead() throws Throwable
    {
        return (long)L3.invokeExact(readFn, cq, entry, 1L);
    }

    @Benchmark
    public int jfabricCqRead()
    {
        return emptyCq.read(entries, 1);
    }

    /** Put {@code fn} in the place of one of the provider's functions an object resolved (benchmark only). */
    private static void replace(final Object object, final String part, final String field, final MemorySegment fn)
    {
        try
        {
            Object owner = object;
            if (part != null)
            {
                final java.lang.reflect.Field p = object.getClass().getDeclaredField(part);
                p.setAccessible(true);
                owner = p.get(object);
            }
            final java.lang.reflect.Field f = owner.getClass().getDeclaredField(field);
            f.setAccessible(true);
            f.set(owner, fn);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    private static Object field(final Object owner, final String name)
    {
        try
        {
            final java.lang.reflect.Field f = owner.getClass().getDeclaredField(name);
            f.setAccessible(true);
            return f.get(owner);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    private static MethodHandle longs(final int n)
    {
        final java.lang.foreign.MemoryLayout[] args = new java.lang.foreign.MemoryLayout[n + 1];
        args[0] = CTypes.PTR;
        for (int i = 1; i <= n; i++)
        {
            args[i] = CTypes.PTR_ARG;
        }
        return Downcalls.quick(CTypes.SIZE_T, args);
    }

    /** An enabled tcp;ofi_rxm endpoint on 127.0.0.1. */
    private static final class Node implements AutoCloseable
    {
        final Fabric fabric;
        final Domain domain;
        final AddressVector av;
        final CompletionQueue cq;
        final Endpoint ep;

        Node(final Threading threading)
        {
            final Info hints = new Info().caps(Flags.FI_MSG);
            hints.epAttr().type(EpType.RDM);
            hints.fabricAttr().provName("tcp");
            hints.domainAttr().name("lo").threading(threading);
            final Info info = Fabrics.getInfo(Versions.FI_CURRENT_VERSION, "127.0.0.1", "0", Flags.FI_SOURCE, hints)
                .get(0);
            // tcp;ofi_rxm answers FI_THREAD_SAFE whatever the hints ask: open the domain with the model asked for,
            // so that DOMAIN measures the single-poster slot pool (as an application does that sets it).
            info.domainAttr().threading(threading);
            fabric = Fabrics.fabric(info.fabricAttr(), 0);
            domain = fabric.domain(info, 0);
            av = domain.avOpen(new AvAttr().type(AvType.TABLE), 0);
            cq = domain.cqOpen(new CqAttr().format(CqFormat.CONTEXT), 0);
            ep = domain.endpoint(info, 0);
            ep.bind(av, 0);
            ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
            ep.enable();
        }

        @Override
        public void close()
        {
            ep.close();
            av.close();
            cq.close();
            domain.close();
            fabric.close();
        }
    }
}
